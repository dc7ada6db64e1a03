// Marching-cubes cells as the HistoPyramid sees them (src/extraction/pyramid_layout.h).
//
// Cells come in blocks of HP_BLOCK_CELLS_X x HP_BLOCK_CELLS_Y x HP_BLOCK_CELLS_Z (8 x 8 x 4); a
// block is an 8 x 8 square of base texels, blocks row by row, u_blocksPerRow to a row. A base
// texel covers 2 x 2 cells of one slice, channel c holding the cell at offset (c & 1, c >> 1);
// the block's slices sit in its 2 x 2 quadrants of 4 x 4 texels. MC_EDGE_LOWER_CORNER (from
// src/extraction/marching_cubes_tables.h) gives the lower corner of each edge; corner c sits at
// offset (c & 1, (c >> 1) & 1, (c >> 2) & 1). MC_VERTEX_COUNTS is the vertex count of each case.

#ifndef ISOVIEW_MARCHING_CUBES_CELL
#define ISOVIEW_MARCHING_CUBES_CELL

uniform ivec3 u_cellCount;
// Pyramid cells are those of the crop box: pyramid cell c is volume cell c + u_cellOrigin.
uniform ivec3 u_cellOrigin;
uniform ivec3 u_blockCount;
uniform int u_blocksPerRow;

const int kEdgeLowerCorner[12] = int[12](MC_EDGE_LOWER_CORNER);
const uint kCaseVertexCount[256] = uint[256](MC_VERTEX_COUNTS);
// The case table's triangle edges, 4 bits each: vertices 0-7 of case c in [2c], 8-14 in [2c + 1].
const uint kTriangleEdges[512] = uint[512](MC_TRIANGLE_EDGES);

// The edge carrying vertex `vertex` (< the case's vertex count) of case `caseIndex`.
int triangleEdge(uint caseIndex, int vertex)
{
    uint fields = kTriangleEdges[2 * int(caseIndex) + (vertex >> 3)];
    return int((fields >> uint(4 * (vertex & 7))) & 15u);
}

ivec3 cornerOffset(int corner)
{
    return ivec3(corner & 1, (corner >> 1) & 1, (corner >> 2) & 1);
}

// Edge numbering (extraction/marching_cubes_tables.h): edge 4a + k runs along axis a, its lower
// corner has the other two axes' bits from k (lower axis first). As arithmetic, not tables:
// ALU ops cost software rasterisers less than per-lane table reads.
ivec3 edgeLowerOffset(int edge)
{
    int a = edge >> 2;
    int b0 = edge & 1;
    int b1 = (edge >> 1) & 1;
    return ivec3(a == 0 ? 0 : b0, a == 0 ? b0 : (a == 1 ? 0 : b1), a == 2 ? 0 : b1);
}

// The edge along axis a whose lower corner is at offset o (o[a] == 0) from the cell's first.
int edgeFromLowerOffset(int a, ivec3 o)
{
    int k = a == 0 ? (o.y | (o.z << 1)) : (a == 1 ? (o.x | (o.z << 1)) : (o.x | (o.y << 1)));
    return 4 * a + k;
}

// (n / d, n % d) for 0 <= n < 2^22 and d > 0, without integer division, which software
// rasterisers run lane by lane: the float quotient is off by at most one, then corrected.
ivec2 divMod(int n, int d)
{
    int q = int(float(n) / float(d));
    int r = n - q * d;
    if (r < 0) {
        --q;
        r += d;
    } else if (r >= d) {
        ++q;
        r -= d;
    }
    return ivec2(q, r);
}

// The first cell of base texel p: its channel c holds that cell + (c & 1, c >> 1, 0). The cells
// may lie beyond u_cellCount (padding of partial blocks).
// The first cell of base texel `within` (0..7, 0..7) of a block, from the block's first cell.
ivec3 cellOffsetInBlock(ivec2 within)
{
    return ivec3(2 * (within.x & 3), 2 * (within.y & 3), (within.x >> 2) + 2 * (within.y >> 2));
}

ivec3 firstCellOfBaseTexel(ivec2 p)
{
    ivec2 blockTexel = p >> 3;
    int block = blockTexel.y * u_blocksPerRow + blockTexel.x;
    ivec2 row = divMod(block, u_blockCount.x); // (block row over all slices, x)
    ivec2 slab = divMod(row.x, u_blockCount.y); // (z, y)
    ivec3 blockPos = ivec3(row.y, slab.y, slab.x);
    ivec3 origin = blockPos * ivec3(HP_BLOCK_CELLS_X, HP_BLOCK_CELLS_Y, HP_BLOCK_CELLS_Z);
    return origin + cellOffsetInBlock(p & 7);
}

bool isCell(ivec3 cell)
{
    return all(lessThan(cell, u_cellCount));
}

// Where a cell's case lives in the base level: the inverse of firstCellOfBaseTexel.
struct BaseSlot {
    ivec2 texel;
    int channel;
    int block; // PyramidLayout::blockIndex
};

BaseSlot baseSlotOf(ivec3 cell)
{
    ivec3 blockCells = ivec3(HP_BLOCK_CELLS_X, HP_BLOCK_CELLS_Y, HP_BLOCK_CELLS_Z);
    ivec3 block = cell / blockCells;
    ivec3 local = cell - block * blockCells;
    int index = block.x + u_blockCount.x * (block.y + u_blockCount.y * block.z);
    ivec2 blockTexel = divMod(index, u_blocksPerRow).yx;
    BaseSlot slot;
    slot.texel = blockTexel * 8 + ivec2(local.z & 1, local.z >> 1) * 4 + (local.xy >> 1);
    slot.channel = (local.x & 1) | ((local.y & 1) << 1);
    slot.block = index;
    return slot;
}

// Edge ownership (src/extraction/edge_ownership.h): the crossed edges of each case, the edges a
// cell owns by which far faces of the grid it touches; computed, not looked up (see below).

// Set bits of a 12-bit mask (bitCount needs GLSL 4.00).
uint edgeCount(uint mask)
{
    uint v = mask - ((mask >> 1) & 0x5555u);
    v = (v & 0x3333u) + ((v >> 2) & 0x3333u);
    v = (v + (v >> 4)) & 0x0F0Fu;
    return (v + (v >> 8)) & 0x1Fu;
}

// Label maps (ISOVIEW_LABELS): a base channel holds a cell's code, not its case (cases are
// per label). Bits 0-11: the edges whose two corners hold different labels, "crossed" as an
// isosurface crosses an edge; each has a pair of vertex slots (common/label_cells.glsl). Bits
// 12-15: the cell's triangles over all its labels (at most 8), the pyramid's keys. Without
// labels a key is a triangle vertex, as in the paper.
#ifdef ISOVIEW_LABELS
#define HP_KEYS_PER_TRIANGLE 1u
#define HP_SLOTS_PER_EDGE 2u
uint crossedEdgesOf(uint code)
{
    return code & 0xFFFu;
}
uint keyCount(uint code)
{
    return code >> 12;
}
#else
#define HP_KEYS_PER_TRIANGLE 3u
#define HP_SLOTS_PER_EDGE 1u
// The edges whose corners the case puts on different sides, by bit arithmetic (ALU ops cost
// software rasterisers less than per-lane table reads): x edges join corners c and c + 1 for
// c = 0, 2, 4, 6; y edges c and c + 2 for c = 0, 1, 4, 5; z edges c and c + 4 for c = 0..3.
uint crossedEdgesOf(uint caseIndex)
{
    uint x = (caseIndex ^ (caseIndex >> 1u)) & 0x55u;
    x = (x | (x >> 1u)) & 0x33u;
    x = (x | (x >> 2u)) & 0x0Fu;
    uint y = (caseIndex ^ (caseIndex >> 2u)) & 0x33u;
    y = (y | (y >> 2u)) & 0x0Fu;
    uint z = (caseIndex ^ (caseIndex >> 4u)) & 0x0Fu;
    return x | (y << 4u) | (z << 8u);
}
uint keyCount(uint caseIndex)
{
    return kCaseVertexCount[caseIndex];
}
#endif

// The crossed edges a cell owns: one welded vertex each, in ascending edge order.
uint ownedCrossedEdges(ivec3 cell, uint caseIndex)
{
    // A cell owns the edges at its lower corner and, on the grid's far faces, those whose lower
    // corner lies only on far faces: per axis, edge k of 4 has the other axes' bits of k.
    uvec3 f = uvec3(equal(cell, u_cellCount - 1));
    uint xs = 1u | (f.y << 1u) | (f.z << 2u) | ((f.y & f.z) << 3u);
    uint ys = 1u | (f.x << 1u) | (f.z << 2u) | ((f.x & f.z) << 3u);
    uint zs = 1u | (f.x << 1u) | (f.y << 2u) | ((f.x & f.y) << 3u);
    return crossedEdgesOf(caseIndex) & (xs | (ys << 4u) | (zs << 8u));
}

// Welded vertices owned by the four cells of a base texel whose first cell is `first`.
uvec4 cellVertexCounts(uvec4 cases, ivec3 first)
{
    return uvec4(edgeCount(ownedCrossedEdges(first, cases.x)),
                 edgeCount(ownedCrossedEdges(first + ivec3(1, 0, 0), cases.y)),
                 edgeCount(ownedCrossedEdges(first + ivec3(0, 1, 0), cases.z)),
                 edgeCount(ownedCrossedEdges(first + ivec3(1, 1, 0), cases.w)));
}

// Keys (triangle vertices; triangles for label maps) of the four cells of a base texel from
// their cached cases (codes).
uvec4 caseVertexCounts(uvec4 cases)
{
    return uvec4(keyCount(cases.x), keyCount(cases.y), keyCount(cases.z), keyCount(cases.w));
}

#endif
