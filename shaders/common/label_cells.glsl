// Marching cubes over a label map (ISOVIEW_LABELS), all labels in one pass: label L's surface
// is the isosurface at 0.5 of its indicator (1 where the voxel holds L), which is what the CPU
// reference extracts label by label (src/extraction/label_surfaces_cpu.h).
//
// A cell's labels are the distinct non-zero values of its 8 corners, in the order of the first
// corner holding each; label L's case has bit c set where corner c holds L. The cell's
// triangles are those of its labels' cases, label after label, each in case-table order.
//
// Vertices: an edge whose corners hold labels a != b carries a vertex of a's surface and one of
// b's (none for the background, 0), both at its midpoint with the normals of their own
// indicators. The vertex pyramid counts such edges (the cell code's crossed edges); edge k of
// the mesh has slots 2k (its lower corner's label) and 2k + 1 (its upper corner's). A slot whose
// label is 0 stays unused: written, labelled 0, named by no triangle.
#ifndef ISOVIEW_LABEL_CELLS
#define ISOVIEW_LABEL_CELLS

#include "common/flat3d_sampling.glsl"
#include "common/marching_cubes_cell.glsl"

// The labels at a cell's 8 corners; `voxel` is the cell's lowest voxel in the volume.
void fetchCornerLabels(ivec3 voxel, out float corners[8])
{
    for (int c = 0; c < 8; ++c)
        corners[c] = fetchVoxel(voxel + cornerOffset(c));
}

// The case of the label at corner `first` (corners before it hold other labels).
uint labelCase(float corners[8], int first)
{
    uint caseIndex = 0u;
    for (int c = first; c < 8; ++c) {
        if (corners[c] == corners[first]) caseIndex |= 1u << uint(c);
    }
    return caseIndex;
}

// The cell code (common/marching_cubes_cell.glsl): crossed edges and triangle count.
uint labelCellCode(float corners[8])
{
    uint crossed = 0u;
    for (int e = 0; e < 12; ++e) {
        int lower = kEdgeLowerCorner[e];
        if (corners[lower] != corners[lower + (1 << (e / 4))]) crossed |= 1u << uint(e);
    }
    if (crossed == 0u) return 0u; // one label throughout (the common case): nothing to count
    uint triangles = 0u;
    uint seen = 0u;
    for (int c = 0; c < 8; ++c) {
        if (((seen >> uint(c)) & 1u) != 0u) continue;
        uint caseIndex = labelCase(corners, c);
        seen |= caseIndex;
        if (corners[c] != 0.0) triangles += kCaseVertexCount[caseIndex] / 3u;
    }
    return crossed | (triangles << 12);
}

// Triangle `triangle` of a cell (counted over all its labels): its label, that label's case and
// its place in the case's triangle list.
struct LabelTriangle {
    float label;
    uint caseIndex;
    uint triangle;
};

LabelTriangle labelTriangle(float corners[8], uint triangle)
{
    LabelTriangle t = LabelTriangle(0.0, 0u, 0u);
    uint seen = 0u;
    for (int c = 0; c < 8; ++c) {
        if (((seen >> uint(c)) & 1u) != 0u) continue;
        uint caseIndex = labelCase(corners, c);
        seen |= caseIndex;
        if (corners[c] == 0.0) continue;
        uint count = kCaseVertexCount[caseIndex] / 3u;
        if (triangle < count) {
            t = LabelTriangle(corners[c], caseIndex, triangle);
            break;
        }
        triangle -= count;
    }
    return t;
}

#endif
