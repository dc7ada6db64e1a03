// The three vertex indices of triangle `triangle`: one traversal of the triangle pyramid finds
// its cell and place in the cell's triangle list, the case table (shader constants) its three
// edges, and a rank query on the vertex pyramid the welded vertex of each edge.
#ifndef ISOVIEW_TRIANGLE_INDICES
#define ISOVIEW_TRIANGLE_INDICES

#include "common/vertex_pyramid.glsl"

uvec3 triangleIndices(uint triangle)
{
    HpLocation loc = hpTraverse(3u * triangle);
    ivec3 edges;
    for (int corner = 0; corner < 3; ++corner)
        edges[corner] = triangleEdge(loc.caseIndex, int(loc.localKey) + corner);
    return vertexIndicesOfEdges(loc.cell, edges);
}

#endif
