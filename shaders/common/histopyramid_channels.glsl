// Which child (or cell) each RGBA channel of a HistoPyramid texel stands for: channel c covers
// the element at offset (c & 1, c >> 1) of the 2 x 2 block below it. Shared by the base level
// (cells) and the reduction and traversal (child texels), so the three can never disagree.
#ifndef ISOVIEW_HISTOPYRAMID_CHANNELS
#define ISOVIEW_HISTOPYRAMID_CHANNELS

ivec2 channelOffset(int channel)
{
    return ivec2(channel & 1, channel >> 1);
}

#endif
