// Compute path, between the build and the index pass: the first welded vertex of each active
// block (one invocation per block ascends the vertex pyramid from the block level to the top),
// so the index pass's rank queries stop at the block level.
#include "common/compute_indexing.glsl"
#include "common/vertex_pyramid.glsl"

layout(std430, binding = 0) writeonly restrict buffer BlockFirstVertex {
    uint blockFirstVertex[];
};
layout(std430, binding = 2) readonly restrict buffer ActiveBlocks {
    uint activeBlocks[];
};
uniform uint u_activeBlockCount;

void main()
{
    uint i = invocationIndex();
    if (i >= u_activeBlockCount) return;
    int block = int(activeBlocks[i]);
    ivec2 p = ivec2(block % u_blocksPerRow, block / u_blocksPerRow);
    blockFirstVertex[block] = vpFirstVertexOfBlock(p);
}
