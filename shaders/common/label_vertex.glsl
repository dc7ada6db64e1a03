// One vertex slot of an edge of a label map whose corners hold different labels
// (common/label_cells.glsl): side 0 is the vertex of the lower corner's label, side 1 that of
// the upper corner's. Each sits at the edge's midpoint with the normal of its own label's
// indicator, and carries its label above the axis bits (SurfaceVertex.axis). A side holding the
// background (0) is an unused slot: labelled 0, no normal, named by no triangle.
#ifndef ISOVIEW_LABEL_VERTEX
#define ISOVIEW_LABEL_VERTEX

#include "common/label_cells.glsl"
#include "common/surface_vertex.glsl"

SurfaceVertex labelVertexOnEdge(ivec3 cell, int edge, uint side)
{
    int axis = edge / 4;
    ivec3 p0 = cell + u_cellOrigin + cornerOffset(kEdgeLowerCorner[edge]);
    ivec3 end = p0;
    end[axis] += int(side);
    float label = fetchVoxel(end);
    if (label != 0.0) {
        SurfaceVertex v = surfaceVertexOnEdge(cell, edge, label);
        v.axis |= uint(label) << 2;
        return v;
    }
    SurfaceVertex unused;
    unused.position = vec3(p0);
    unused.position[axis] += 0.5;
    unused.normal = vec3(0.0);
    unused.lowerVoxel =
        uint(p0.x) + uint(u_volumeDims.x) * (uint(p0.y) + uint(u_volumeDims.y) * uint(p0.z));
    unused.axis = uint(axis);
    return unused;
}

#endif
