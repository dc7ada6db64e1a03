// The three vertex indices of triangle `triangle`: one traversal of the triangle pyramid finds
// its cell and place in the cell's triangle list, the case table its three edges, and a rank
// query on the vertex pyramid the welded vertex of each edge.
#ifndef ISOVIEW_TRIANGLE_INDICES
#define ISOVIEW_TRIANGLE_INDICES

#include "common/vertex_pyramid.glsl"

uvec3 triangleIndices(uint triangle)
{
    HpLocation loc = hpTraverse(3u * triangle);
    ivec3 edges;
    for (int corner = 0; corner < 3; ++corner) {
        ivec2 entry = ivec2(int(loc.localKey) + corner, int(loc.caseIndex));
        edges[corner] = int(texelFetch(u_caseTable, entry, 0).r);
    }
    return vertexIndicesOfEdges(loc.cell, edges);
}

#endif
