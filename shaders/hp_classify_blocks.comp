// The build's classify pass, OpenGL 4.3 path: one invocation per active block writes the cases
// of its 8 x 8 x 4 cells to the base level (imageStore), reading each of the block's 9 x 9 x 5
// corners once (405 fetches for 256 cells; the fragment pass, hp_base_level.frag, shares
// corners only among the 4 cells of a texel: 1,152). Corners go slice by slice into 9-bit row
// masks (bit x: inside), and a cell's case is two bits from each of four rows. Corners beyond
// the volume are clamped and cells beyond the crop (padding of partial blocks) get case 0, as in
// the fragment pass.
#include "common/flat3d_sampling.glsl"
#include "common/histopyramid_channels.glsl"
#include "common/marching_cubes_cell.glsl"

layout(local_size_x = 64) in;

layout(std430, binding = 3) readonly restrict buffer ActiveBlocks {
    uint activeBlocks[];
};
uniform uint u_activeBlockCount;
uniform float u_isovalue;
layout(binding = 0, rgba8ui) writeonly restrict uniform uimage2D u_base;

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
    int z = min(firstVoxel.z, last.z);
    ivec2 tile = divMod(z, u_volumeTilesPerRow).yx;
    for (int y = 0; y < 9; ++y)
        below[y] = cornerRow(tile * u_volumeDims.xy, firstVoxel + ivec3(0, y, 0), last);
    for (int slice = 0; slice < 4; ++slice) {
        // The next corner slice's tile, stepped from this one (no division).
        int zNext = min(firstVoxel.z + slice + 1, last.z);
        tile.x += zNext - z;
        if (tile.x >= u_volumeTilesPerRow) tile += ivec2(-u_volumeTilesPerRow, 1);
        z = zNext;
        for (int y = 0; y < 9; ++y)
            above[y] = cornerRow(tile * u_volumeDims.xy, firstVoxel + ivec3(0, y, 0), last);
        // The slice's 4 x 4 texels, in its quadrant of the block's 8 x 8.
        ivec2 quadrant = 8 * blockTexel + 4 * ivec2(slice & 1, slice >> 1);
        for (int ty = 0; ty < 4; ++ty) {
            for (int tx = 0; tx < 4; ++tx) {
                uvec4 cases;
                for (int c = 0; c < 4; ++c) {
                    ivec2 at = ivec2(2 * tx, 2 * ty) + channelOffset(c);
                    bool cell = isCell(firstCell + ivec3(at, slice));
                    cases[c] = cell ? caseOf(below[at.y], below[at.y + 1], above[at.y],
                                             above[at.y + 1], at.x)
                                    : 0u;
                }
                imageStore(u_base, quadrant + ivec2(tx, ty), cases);
            }
        }
        below = above;
    }
}
