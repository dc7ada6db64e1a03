// Welded vertices, OpenGL 4.3 path: 8 invocations per active block share the vertices of the
// block's part of the vertex pyramid; each computes a vertex's position and normal once and
// stores them at its key, the index every triangle corner on that edge will name. The first vertex of
// each cell also leaves its key in cellFirstVertex[], where the index pass finds it.
#define HP_CELL_FIRST_VERTEX 1
#include "common/marching_cubes_cell.glsl"
#include "common/block_work_group.glsl"

layout(std430, binding = 5) writeonly restrict buffer CellFirstVertex {
    uint cellFirstVertex[];
};

#include "common/surface_vertex.glsl"
#include "common/vertex_pyramid.glsl"
#ifdef ISOVIEW_LABELS
#include "common/label_vertex.glsl"
#endif

// 32 bytes, the layout the draw's vertex array and the capture read (gpu/surface_buffers.h).
struct PackedVertex {
    float px, py, pz;
    float nx, ny, nz;
    uint lowerVoxel;
    uint axis; // and the label above its 2 bits (SurfaceVertex.axis)
};
layout(std430, binding = 0) writeonly restrict buffer SurfaceVertices {
    PackedVertex vertices[];
};
uniform uint u_vertexCapacity;

void main()
{
    uint slot = blockSlotOfInvocation();
    if (slot >= u_activeBlockCount) return;
    uvec4 start = blockStarts[slot];
    ivec2 blockTexel = blockTexelOfSlot(slot);
    ivec3 blockFirstCell = firstCellOfBaseTexel(8 * blockTexel);
    for (uint v = laneInBlock(); v < start.w; v += kLanesPerBlock) {
        uint key = start.y + v;
        if (HP_SLOTS_PER_EDGE * (key + 1u) > u_vertexCapacity) return;
        VpLocation loc = vpTraverseBlock(blockTexel, blockFirstCell, v);
        if (loc.rank == 0u) {
            cellFirstVertex[slot * 256u + cellWithinBlock(loc.baseTexel, loc.channel)] = key;
        }
#ifdef ISOVIEW_LABELS
        for (uint side = 0u; side < 2u; ++side) {
            SurfaceVertex s = labelVertexOnEdge(loc.cell, loc.edge, side);
            vertices[2u * key + side] =
                PackedVertex(s.position.x, s.position.y, s.position.z, s.normal.x, s.normal.y,
                             s.normal.z, s.lowerVoxel, s.axis);
        }
#else
        SurfaceVertex s = surfaceVertexOnEdge(loc.cell, loc.edge, 0.0);
        vertices[key] = PackedVertex(s.position.x, s.position.y, s.position.z, s.normal.x,
                                     s.normal.y, s.normal.z, s.lowerVoxel, s.axis);
#endif
    }
}
