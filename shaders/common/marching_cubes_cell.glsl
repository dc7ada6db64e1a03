// Marching-cubes cells as the HistoPyramid sees them.
//
// The (W-1) x (H-1) x (D-1) cells are laid out flat: cell tiles of (W-1) x (H-1), u_cellTilesPerRow
// to a row; each pyramid base texel covers 2 x 2 flat cells, channel c holding the cell at
// offset (c & 1, c >> 1). MC_EDGE_LOWER_CORNER (defined by the engine from
// src/extraction/marching_cubes_tables.h) gives the lower corner of each edge; corner c sits at
// offset (c & 1, (c >> 1) & 1, (c >> 2) & 1).

// 16 x 256 R8UI: row = case; columns 0..14 the edge of each triangle vertex, column 15 the
// vertex count of the case.
uniform usampler2D u_caseTable;
uniform ivec3 u_cellCount;
uniform int u_cellTilesPerRow;

const int kEdgeLowerCorner[12] = int[12](MC_EDGE_LOWER_CORNER);

ivec3 cornerOffset(int corner)
{
    return ivec3(corner & 1, (corner >> 1) & 1, (corner >> 2) & 1);
}

// The cell at a flat position, or false for positions in padding (outside every cell tile).
bool cellAtFlatPosition(ivec2 flatPos, out ivec3 cell)
{
    ivec2 tile = flatPos / u_cellCount.xy;
    ivec2 within = flatPos - tile * u_cellCount.xy;
    int z = tile.y * u_cellTilesPerRow + tile.x;
    cell = ivec3(within, z);
    return tile.x < u_cellTilesPerRow && z < u_cellCount.z;
}
