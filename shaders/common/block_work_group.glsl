// The compute vertex and index passes give each active block (its slot) 8 invocations, 8 blocks
// to a 64-wide work group (numbered across a 2D grid of groups); each invocation takes every 8th
// item of its block. On a software rasteriser 8 lanes are one SIMD vector, so a block's lanes run
// together and a small block idles no more than 7 of them (a block per 64-wide group measured
// twice as slow on llvmpipe); on a GPU a warp holds 4 blocks. block_starts.comp wrote where each
// block's items start and how many there are.
#ifndef ISOVIEW_BLOCK_WORK_GROUP
#define ISOVIEW_BLOCK_WORK_GROUP

layout(local_size_x = 64) in;

layout(std430, binding = 3) readonly restrict buffer ActiveBlocks {
    uint activeBlocks[];
};
layout(std430, binding = 4) readonly restrict buffer BlockStarts {
    uvec4 blockStarts[]; // {first triangle, first welded vertex, triangles, welded vertices}
};
uniform uint u_activeBlockCount;

const uint kLanesPerBlock = 8u;

// The active block this invocation works on; the lane is its place among the block's 8.
uint blockSlotOfInvocation()
{
    uint group = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
    return group * (gl_WorkGroupSize.x / kLanesPerBlock) + gl_LocalInvocationIndex / kLanesPerBlock;
}

uint laneInBlock()
{
    return gl_LocalInvocationIndex % kLanesPerBlock;
}

// The texel of active block `slot` at the block level.
ivec2 blockTexelOfSlot(uint slot)
{
    int block = int(activeBlocks[slot]);
    return ivec2(block % u_blocksPerRow, block / u_blocksPerRow);
}

#endif
