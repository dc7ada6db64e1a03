// Pass 1 of the HistoPyramid build: classify. One fragment per base texel of a block the
// isovalue can cross classifies its 2 x 2 cells of one slice and stores, per channel, the
// cell's marching-cubes case (its vertex count is a table lookup away, as the paper caches the
// case beside the count). The 3 x 3 x 2 corners the four cells share are fetched once, and the
// flat-3D tiles of the two slices are found once per texel, not once per fetch.
#include "common/flat3d_sampling.glsl"
#include "common/marching_cubes_cell.glsl"
#ifdef ISOVIEW_LABELS
#include "common/label_cells.glsl"
#endif

uniform float u_isovalue;
out uvec4 o_cases;

void main()
{
    ivec3 first = firstCellOfBaseTexel(ivec2(gl_FragCoord.xy));
    ivec3 voxel = first + u_cellOrigin; // the first cell's lowest voxel in the volume
    // Corners beyond the volume (padding cells) are clamped; their cells are masked below.
    ivec3 last = u_volumeDims - 1;
    // The two slices' tiles: one found by division, the next stepped from it.
    int z0 = min(voxel.z, last.z);
    ivec2 tileAt0 = divMod(z0, u_volumeTilesPerRow).yx;
    ivec2 tileAt1 = tileAt0 + ivec2(min(voxel.z + 1, last.z) - z0, 0);
    if (tileAt1.x == u_volumeTilesPerRow) tileAt1 = ivec2(0, tileAt1.y + 1);
    ivec2 tile0 = tileAt0 * u_volumeDims.xy;
    ivec2 tile1 = tileAt1 * u_volumeDims.xy;
#ifdef ISOVIEW_LABELS
    // Label maps: the 3 x 3 x 2 corners' labels, then each cell's code (label_cells.glsl).
    float labels[18];
    for (int y = 0; y < 3; ++y) {
        for (int x = 0; x < 3; ++x) {
            ivec2 xy = min(voxel.xy + ivec2(x, y), last.xy);
            labels[y * 3 + x] = fetchVoxelAt(tile0 + xy);
            labels[9 + y * 3 + x] = fetchVoxelAt(tile1 + xy);
        }
    }
    uvec4 codes = uvec4(0u);
    for (int c = 0; c < 4; ++c) {
        ivec2 at = ivec2(c & 1, c >> 1);
        if (!isCell(first + ivec3(at, 0))) continue;
        float corners[8];
        for (int corner = 0; corner < 8; ++corner) {
            ivec3 o = cornerOffset(corner);
            corners[corner] = labels[o.z * 9 + (at.y + o.y) * 3 + (at.x + o.x)];
        }
        codes[c] = labelCellCode(corners);
    }
    o_cases = codes;
#else
    uint inside = 0u; // bit (z * 9 + y * 3 + x) for corner (x, y, z) of the 3 x 3 x 2 block
    for (int y = 0; y < 3; ++y) {
        for (int x = 0; x < 3; ++x) {
            ivec2 xy = min(voxel.xy + ivec2(x, y), last.xy);
            if (isInside(fetchVoxelAt(tile0 + xy), u_isovalue)) inside |= 1u << (y * 3 + x);
            if (isInside(fetchVoxelAt(tile1 + xy), u_isovalue)) inside |= 1u << (9 + y * 3 + x);
        }
    }
    uvec4 cases = uvec4(0u);
    for (int c = 0; c < 4; ++c) {
        ivec2 at = ivec2(c & 1, c >> 1);
        if (!isCell(first + ivec3(at, 0))) continue; // padding: no cell, no vertices
        uint caseIndex = 0u;
        for (int corner = 0; corner < 8; ++corner) {
            ivec3 o = cornerOffset(corner);
            int bit = o.z * 9 + (at.y + o.y) * 3 + (at.x + o.x);
            caseIndex |= ((inside >> bit) & 1u) << corner;
        }
        cases[c] = caseIndex;
    }
    o_cases = cases;
#endif
}
