// Pass 2..n of the HistoPyramid build: reduce. Each texel of level l+1 stores in channel c the
// total of child texel 2p + (c & 1, c >> 1) of level l, so the four channels are the four key
// ranges that traversal chooses between. The source level is bound as the only mip level of its
// texture (lod 0) while the level above is rendered, which keeps reading and writing apart.
// Base texels hold cases, not counts: their counts come from the case table.
#include "common/histopyramid_channels.glsl"
#include "common/marching_cubes_cell.glsl"

uniform usampler2D u_source;
uniform bool u_sourceIsBase;
out uvec4 o_counts;

uint childTotal(ivec2 p)
{
    uvec4 v = texelFetch(u_source, p, 0);
    if (u_sourceIsBase) v = caseVertexCounts(v);
    return v.x + v.y + v.z + v.w;
}

void main()
{
    ivec2 first = 2 * ivec2(gl_FragCoord.xy);
    o_counts = uvec4(childTotal(first + channelOffset(0)), childTotal(first + channelOffset(1)),
                     childTotal(first + channelOffset(2)), childTotal(first + channelOffset(3)));
}
