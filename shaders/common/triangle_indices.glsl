// The three vertex indices of triangle `triangle`: one traversal of the triangle pyramid finds
// its cell and place in the cell's triangle list, the case table (shader constants) its three
// edges, and a rank query on the vertex pyramid the welded vertex of each edge.
#ifndef ISOVIEW_TRIANGLE_INDICES
#define ISOVIEW_TRIANGLE_INDICES

#include "common/vertex_pyramid.glsl"

uvec3 indicesAt(HpLocation loc)
{
    ivec3 edges;
    for (int corner = 0; corner < 3; ++corner)
        edges[corner] = triangleEdge(loc.caseIndex, int(loc.localKey) + corner);
    return vertexIndicesOfEdges(loc.cell, edges);
}

uvec3 triangleIndices(uint triangle)
{
    return indicesAt(hpTraverse(3u * triangle));
}

// Triangle `triangle` of the block at blockTexel of the block level (counted from the block's
// first), whose first cell is blockFirstCell.
uvec3 blockTriangleIndices(ivec2 blockTexel, ivec3 blockFirstCell, uint triangle)
{
    return indicesAt(hpTraverseBlock(blockTexel, blockFirstCell, 3u * triangle));
}

#endif
