// Triangle indices, OpenGL 4.3 path: one invocation per triangle, its rank queries ending at
// the block level (the blocks' first vertices come from vp_block_offsets.comp).
#define HP_BLOCK_OFFSETS 1
#include "common/compute_indexing.glsl"
#include "common/triangle_indices.glsl"

layout(std430, binding = 0) writeonly restrict buffer SurfaceIndices {
    uint indices[];
};
uniform uint u_indexCapacity;

void main()
{
    uint triangle = invocationIndex();
    if (3u * triangle + 3u > min(record[XR_INDEX_COUNT], u_indexCapacity)) return;
    uvec3 t = triangleIndices(triangle);
    indices[3u * triangle] = t.x;
    indices[3u * triangle + 1u] = t.y;
    indices[3u * triangle + 2u] = t.z;
}
