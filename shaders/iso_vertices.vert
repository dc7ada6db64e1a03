// Welded vertices, OpenGL 3.3 path: drawn as points with the rasterizer off, one per vertex of
// the vertex pyramid, captured by transform feedback in the layout of PackedVertex
// (iso_vertices.comp).
#include "common/surface_vertex.glsl"
#include "common/vertex_pyramid.glsl"
#ifdef ISOVIEW_LABELS
#include "common/label_vertex.glsl"
#endif

out vec3 v_position;
out vec3 v_normal;
flat out uint v_lowerVoxel;
flat out uint v_axis;

void main()
{
#ifdef ISOVIEW_LABELS
    // Two slots per labelled edge (common/label_cells.glsl): one point each.
    VpLocation loc = vpTraverse(uint(gl_VertexID) >> 1);
    SurfaceVertex v = labelVertexOnEdge(loc.cell, loc.edge, uint(gl_VertexID) & 1u);
#else
    VpLocation loc = vpTraverse(uint(gl_VertexID));
    SurfaceVertex v = surfaceVertexOnEdge(loc.cell, loc.edge, 0.0);
#endif
    v_position = v.position;
    v_normal = v.normal;
    v_lowerVoxel = v.lowerVoxel;
    v_axis = v.axis;
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
