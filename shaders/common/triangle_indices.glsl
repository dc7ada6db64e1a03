// The three vertex indices of triangle `triangle`: one traversal of the triangle pyramid finds
// its cell and place in the cell's triangle list, the case table (shader constants) its three
// edges, and a rank query on the vertex pyramid the welded vertex of each edge.
#ifndef ISOVIEW_TRIANGLE_INDICES
#define ISOVIEW_TRIANGLE_INDICES

#include "common/vertex_pyramid.glsl"
#ifdef ISOVIEW_LABELS
#include "common/label_cells.glsl"

// Label maps: the key is the triangle's place among the cell's triangles over all its labels.
// The label's case gives the edges; each edge's vertex is the slot of that label's side
// (label_cells.glsl).
uvec3 indicesAt(HpLocation loc)
{
    float corners[8];
    fetchCornerLabels(loc.cell + u_cellOrigin, corners);
    LabelTriangle t = labelTriangle(corners, loc.localKey);
    ivec3 edges;
    for (int corner = 0; corner < 3; ++corner)
        edges[corner] = triangleEdge(t.caseIndex, 3 * int(t.triangle) + corner);
    uvec3 ranks = vertexIndicesOfEdges(loc.cell, edges);
    uvec3 slots;
    for (int corner = 0; corner < 3; ++corner) {
        uint side = corners[kEdgeLowerCorner[edges[corner]]] == t.label ? 0u : 1u;
        slots[corner] = 2u * ranks[corner] + side;
    }
    return slots;
}
#else
uvec3 indicesAt(HpLocation loc)
{
    ivec3 edges;
    for (int corner = 0; corner < 3; ++corner)
        edges[corner] = triangleEdge(loc.caseIndex, int(loc.localKey) + corner);
    return vertexIndicesOfEdges(loc.cell, edges);
}
#endif

uvec3 triangleIndices(uint triangle)
{
    return indicesAt(hpTraverse(HP_KEYS_PER_TRIANGLE * triangle));
}

// Triangle `triangle` of the block at blockTexel of the block level (counted from the block's
// first), whose first cell is blockFirstCell.
uvec3 blockTriangleIndices(ivec2 blockTexel, ivec3 blockFirstCell, uint triangle)
{
    return indicesAt(hpTraverseBlock(blockTexel, blockFirstCell, HP_KEYS_PER_TRIANGLE * triangle));
}

#endif
