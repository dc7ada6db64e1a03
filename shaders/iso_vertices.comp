// Welded vertices, OpenGL 4.3 path: one invocation per vertex of the vertex pyramid computes its
// position and normal once and stores them at its key, the index every triangle corner on that
// edge will name.
#include "common/compute_indexing.glsl"
#include "common/surface_vertex.glsl"
#include "common/vertex_pyramid.glsl"

// 32 bytes, the layout the draw's vertex array and the capture read (gpu/surface_buffers.h).
struct PackedVertex {
    float px, py, pz;
    float nx, ny, nz;
    uint lowerVoxel;
    uint axis;
};
layout(std430, binding = 0) writeonly restrict buffer SurfaceVertices {
    PackedVertex vertices[];
};
uniform uint u_vertexCapacity;

void main()
{
    uint key = invocationIndex();
    if (key >= min(record[XR_VERTEX_COUNT], u_vertexCapacity)) return;
    VpLocation loc = vpTraverse(key);
    SurfaceVertex v = surfaceVertexOnEdge(loc.cell, loc.edge);
    vertices[key] = PackedVertex(v.position.x, v.position.y, v.position.z, v.normal.x, v.normal.y,
                                 v.normal.z, v.lowerVoxel, v.axis);
}
