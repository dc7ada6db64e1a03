// Triangle indices, OpenGL 4.3 path: 8 invocations per active block share the triangles of the
// block. Its rank queries read each owner cell's first welded vertex from the cellFirstVertex
// the vertex pass wrote (common/vertex_pyramid.glsl).
#define HP_CELL_FIRST_VERTEX 1
#define HP_RANK_FROM_CELL_FIRST_VERTEX 1
#include "common/marching_cubes_cell.glsl"
#include "common/block_work_group.glsl"
#include "common/triangle_indices.glsl"

layout(std430, binding = 0) writeonly restrict buffer SurfaceIndices {
    uint indices[];
};
uniform uint u_indexCapacity;

void main()
{
    uint slot = blockSlotOfInvocation();
    if (slot >= u_activeBlockCount) return;
    uvec4 start = blockStarts[slot];
    ivec2 blockTexel = blockTexelOfSlot(slot);
    ivec3 blockFirstCell = firstCellOfBaseTexel(8 * blockTexel);
    for (uint t = laneInBlock(); t < start.z; t += kLanesPerBlock) {
        uint at = 3u * (start.x + t);
        if (at + 3u > u_indexCapacity) return;
        uvec3 corners = blockTriangleIndices(blockTexel, blockFirstCell, t);
        indices[at] = corners.x;
        indices[at + 1u] = corners.y;
        indices[at + 2u] = corners.z;
    }
}
