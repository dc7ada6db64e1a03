// Compute path, between the build and the vertex and index passes: for each active block (one
// invocation each), where its part of the mesh starts and how big it is, so those passes run
// one work group per block and descend the pyramids from the block level only. Also each
// block's slot (its place in the active list), where cellFirstVertex[] keeps its cells.
#include "common/compute_indexing.glsl"
#include "common/vertex_pyramid.glsl"

layout(std430, binding = 2) writeonly restrict buffer BlockSlots {
    uint blockSlot[];
};
layout(std430, binding = 3) readonly restrict buffer ActiveBlocks {
    uint activeBlocks[];
};
// {first triangle, first welded vertex, triangles, welded vertices} per active block.
layout(std430, binding = 4) writeonly restrict buffer BlockStarts {
    uvec4 blockStarts[];
};
uniform uint u_activeBlockCount;

void main()
{
    uint i = invocationIndex();
    if (i >= u_activeBlockCount) return;
    int block = int(activeBlocks[i]);
    blockSlot[block] = i;
    ivec2 at = ivec2(block % u_blocksPerRow, block / u_blocksPerRow);
    // Rank queries from the block level up: the keys of every block before this one.
    ivec2 p = at;
    uint first = 0u;
    HP_ASCEND_ABOVE_BLOCK_LEVELS(u_hp8, u_hp16, u_hp32)
    uint firstKey = first;
    p = at;
    first = 0u;
    HP_ASCEND_ABOVE_BLOCK_LEVELS(u_vp8, u_vp16, u_vp32)
    uint keys = hpTotal(hpCounts(HP_BLOCK_LEVEL, at));
    uint vertices = hpTotal(vpCounts(HP_BLOCK_LEVEL, at));
    blockStarts[i] = uvec4(firstKey / 3u, first, keys / 3u, vertices);
}
