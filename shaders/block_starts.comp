// Compute path, between the build and the vertex and index passes: for each active block (one
// invocation each), where its part of the mesh starts and how big it is, so those passes run
// one work group per block and descend the pyramids from the block level only. Also each
// block's slot (its place in the active list), where cellFirstVertex[] keeps its cells. Its first
// invocation also writes the extraction record from the pyramids' tops.
#include "common/compute_indexing.glsl"
#include "common/vertex_pyramid.glsl"

layout(std430, binding = 2) writeonly restrict buffer BlockSlots {
    uint blockSlot[];
};
layout(std430, binding = 3) readonly restrict buffer ActiveBlocks {
    uint activeBlocks[];
};
// {first triangle, first welded vertex, triangles, welded vertices} per active block (vertices:
// counted edges, each with HP_SLOTS_PER_EDGE slots).
layout(std430, binding = 4) writeonly restrict buffer BlockStarts {
    uvec4 blockStarts[];
};
uniform uint u_activeBlockCount;
// The extraction record (gpu/extraction_record.h), which the 3.3 path writes with
// extraction_record.vert: the draw command, empty when the mesh buffers cannot hold the mesh.
layout(std430, binding = 1) writeonly restrict buffer ExtractionRecord {
    uint record[];
};
uniform uint u_vertexCapacity;
uniform uint u_indexCapacity;

void main()
{
    uint i = invocationIndex();
    if (i == 0u) {
        // Keys are triangle vertices, or triangles for label maps; a counted edge has a slot
        // per label side for label maps (common/marching_cubes_cell.glsl).
        uint indices = hpTotal(hpCounts(u_hpLevelCount - 1, ivec2(0))) * (3u / HP_KEYS_PER_TRIANGLE);
        uint vertices = hpTotal(vpCounts(u_hpLevelCount - 1, ivec2(0))) * HP_SLOTS_PER_EDGE;
        bool fits = indices <= u_indexCapacity && vertices <= u_vertexCapacity;
        // DrawElementsIndirectCommand {count, instanceCount, firstIndex, baseVertex, baseInstance}
        record[0] = fits ? indices : 0u;
        record[1] = 1u;
        record[2] = 0u;
        record[3] = 0u;
        record[4] = 0u;
        record[XR_INDEX_COUNT] = indices;
        record[XR_VERTEX_COUNT] = vertices;
    }
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
    blockStarts[i] = uvec4(firstKey / HP_KEYS_PER_TRIANGLE, first, keys / HP_KEYS_PER_TRIANGLE, vertices);
}
