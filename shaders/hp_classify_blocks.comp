// The build up to the block level, OpenGL 4.3 path: one invocation per active block classifies
// its 8 x 8 x 4 cells into the base level and writes its texels of levels 1 (vertex pyramid
// only: the triangle pyramid's level 1 is summed from the base by traversal), 2 and 3 of both
// pyramids (imageStore), the work of hp_base_level.frag and three passes of hp_reduce.frag.
//
// Each of the block's 9 x 9 x 5 corners is read once (405 fetches for 256 cells; the fragment
// pass shares corners only among the 4 cells of a texel: 1,152). Corners go slice by slice into
// 9-bit row masks (bit x: inside), and a cell's case is two bits from each of four rows. Corners
// beyond the volume are clamped and cells beyond the crop (padding of partial blocks) get case
// 0, as in the fragment pass. A cell slice is one quadrant of the block's 8 x 8 base texels, so
// it makes 4 level-1 texels, one level-2 texel and one channel of the block-level texel; the
// sums never leave registers. The block level was cleared first, so other blocks count zero.
// (Instanced quads of 8 x 8, 4 x 4, 2 x 2 and 1 x 1 texels per block cost a software rasteriser
// far more in setup than this work.)
#include "common/flat3d_sampling.glsl"
#include "common/histopyramid_channels.glsl"
#include "common/marching_cubes_cell.glsl"
#ifdef ISOVIEW_LABELS
#include "common/label_cells.glsl"
#endif

layout(local_size_x = 64) in;

layout(std430, binding = 3) readonly restrict buffer ActiveBlocks {
    uint activeBlocks[];
};
uniform uint u_activeBlockCount;
uniform float u_isovalue;
// The base is RGBA8UI (RGBA16UI codes for label maps), levels 1 and 2 RGBA8UI, the block level
// RGBA16UI (HistoPyramid's compact levels).
layout(binding = 0, HP_BASE_FORMAT) writeonly restrict uniform uimage2D u_base;
layout(binding = 1, rgba8ui) writeonly restrict uniform uimage2D u_level2;
layout(binding = 2, rgba16ui) writeonly restrict uniform uimage2D u_level3;
layout(binding = 3, rgba8ui) writeonly restrict uniform uimage2D u_vertexLevel1;
layout(binding = 4, rgba8ui) writeonly restrict uniform uimage2D u_vertexLevel2;
layout(binding = 5, rgba16ui) writeonly restrict uniform uimage2D u_vertexLevel3;

uint total(uvec4 v)
{
    return v.x + v.y + v.z + v.w;
}

// Inside bits of corner row y (9 corners from the block's first x) of one corner slice.
uint cornerRow(ivec2 tile, ivec3 voxel, ivec3 last)
{
    uint row = 0u;
    int y = min(voxel.y, last.y);
    for (int x = 0; x < 9; ++x) {
        float v = fetchVoxelAt(tile + ivec2(min(voxel.x + x, last.x), y));
        row |= uint(isInside(v, u_isovalue)) << uint(x);
    }
    return row;
}

// The case of the cell at x between corner rows y (r00 below, r01 above in z) and y + 1 (r10,
// r11): corner c sits at (c & 1, (c >> 1) & 1, (c >> 2) & 1).
uint caseOf(uint r00, uint r10, uint r01, uint r11, int x)
{
    uint s = uint(x);
    return ((r00 >> s) & 3u) | (((r10 >> s) & 3u) << 2) | (((r01 >> s) & 3u) << 4) |
           (((r11 >> s) & 3u) << 6);
}

#ifdef ISOVIEW_LABELS
// Label maps: the labels of the corner slices below and above the cell slice, 9 x 9 each (row
// y at [9 y]). Globals, so no call copies them.
float g_below[81];
float g_above[81];

void loadLabelSlice(ivec2 tile, ivec3 voxel, ivec3 last, bool above)
{
    for (int y = 0; y < 9; ++y) {
        int vy = min(voxel.y + y, last.y);
        for (int x = 0; x < 9; ++x) {
            float v = fetchVoxelAt(tile + ivec2(min(voxel.x + x, last.x), vy));
            if (above) {
                g_above[9 * y + x] = v;
            } else {
                g_below[9 * y + x] = v;
            }
        }
    }
}

// The code of the cell at `at` of the cell slice between g_below and g_above.
uint labelCodeAt(ivec2 at)
{
    float corners[8];
    for (int c = 0; c < 8; ++c) {
        ivec3 o = cornerOffset(c);
        int i = 9 * (at.y + o.y) + at.x + o.x;
        corners[c] = o.z == 0 ? g_below[i] : g_above[i];
    }
    return labelCellCode(corners);
}
#endif

void main()
{
    uint i = (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * gl_WorkGroupSize.x +
             gl_LocalInvocationIndex;
    if (i >= u_activeBlockCount) return;
    int block = int(activeBlocks[i]);
    ivec2 blockTexel = ivec2(block % u_blocksPerRow, block / u_blocksPerRow);
    ivec3 firstCell = firstCellOfBaseTexel(8 * blockTexel);
    ivec3 firstVoxel = firstCell + u_cellOrigin;
    ivec3 last = u_volumeDims - 1;

    // Rows of the lower corner slice (below) and the upper one (above) of the cell slice.
    uint below[9];
    uint above[9];
    uvec4 level3Triangles;
    uvec4 level3Vertices;
    int z = min(firstVoxel.z, last.z);
    ivec2 tile = divMod(z, u_volumeTilesPerRow).yx;
#ifdef ISOVIEW_LABELS
    loadLabelSlice(tile * u_volumeDims.xy, firstVoxel, last, false);
#else
    for (int y = 0; y < 9; ++y)
        below[y] = cornerRow(tile * u_volumeDims.xy, firstVoxel + ivec3(0, y, 0), last);
#endif
    for (int slice = 0; slice < 4; ++slice) {
        // The next corner slice's tile, stepped from this one (no division).
        int zNext = min(firstVoxel.z + slice + 1, last.z);
        tile.x += zNext - z;
        if (tile.x >= u_volumeTilesPerRow) tile += ivec2(-u_volumeTilesPerRow, 1);
        z = zNext;
#ifdef ISOVIEW_LABELS
        loadLabelSlice(tile * u_volumeDims.xy, firstVoxel, last, true);
#else
        for (int y = 0; y < 9; ++y)
            above[y] = cornerRow(tile * u_volumeDims.xy, firstVoxel + ivec3(0, y, 0), last);
#endif
        // The slice's 4 x 4 base texels, in its quadrant of the block's 8 x 8: level-1 texel q
        // of the quadrant covers base texels 2 * offset(q) + offset(c).
        ivec2 quadrant = 8 * blockTexel + 4 * channelOffset(slice);
        uvec4 level2Triangles;
        uvec4 level2Vertices;
        for (int q = 0; q < 4; ++q) {
            uvec4 level1Triangles;
            uvec4 level1Vertices;
            for (int c1 = 0; c1 < 4; ++c1) {
                ivec2 t = 2 * channelOffset(q) + channelOffset(c1);
                uvec4 cases;
                for (int c = 0; c < 4; ++c) {
                    ivec2 at = 2 * t + channelOffset(c);
                    bool cell = isCell(firstCell + ivec3(at, slice));
#ifdef ISOVIEW_LABELS
                    cases[c] = cell ? labelCodeAt(at) : 0u;
#else
                    cases[c] = cell ? caseOf(below[at.y], below[at.y + 1], above[at.y],
                                             above[at.y + 1], at.x)
                                    : 0u;
#endif
                }
                imageStore(u_base, quadrant + t, cases);
                level1Triangles[c1] = total(caseVertexCounts(cases));
                level1Vertices[c1] = total(cellVertexCounts(cases, firstCell + ivec3(2 * t, slice)));
            }
            ivec2 p1 = quadrant / 2 + channelOffset(q);
            imageStore(u_vertexLevel1, p1, level1Vertices);
            level2Triangles[q] = total(level1Triangles);
            level2Vertices[q] = total(level1Vertices);
        }
        ivec2 p2 = 2 * blockTexel + channelOffset(slice);
        imageStore(u_level2, p2, level2Triangles);
        imageStore(u_vertexLevel2, p2, level2Vertices);
        level3Triangles[slice] = total(level2Triangles);
        level3Vertices[slice] = total(level2Vertices);
#ifdef ISOVIEW_LABELS
        g_below = g_above;
#else
        below = above;
#endif
    }
    imageStore(u_level3, blockTexel, level3Triangles);
    imageStore(u_vertexLevel3, blockTexel, level3Vertices);
}
