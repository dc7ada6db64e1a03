// Pass 1 of the HistoPyramid build: classify. One fragment per base texel classifies its 2 x 2
// flat cells against the isovalue and stores, per channel, the cell's vertex count (low 4 bits)
// with its marching-cubes case cached above it (bits 4..11), as the paper caches the case
// beside the count.
#include "common/flat3d_sampling.glsl"
#include "common/marching_cubes_cell.glsl"
#include "common/histopyramid_channels.glsl"

uniform float u_isovalue;
out uvec4 o_packed;

uint classifyCell(ivec2 flatPos)
{
    ivec3 cell;
    if (!cellAtFlatPosition(flatPos, cell)) return 0u; // padding: no cell, no vertices
    uint caseIndex = 0u;
    for (int c = 0; c < 8; ++c) {
        if (isInside(fetchVoxel(cell + cornerOffset(c)), u_isovalue)) caseIndex |= 1u << c;
    }
    uint count = texelFetch(u_caseTable, ivec2(15, int(caseIndex)), 0).r;
    return count | (caseIndex << 4);
}

void main()
{
    ivec2 first = 2 * ivec2(gl_FragCoord.xy);
    o_packed = uvec4(classifyCell(first + channelOffset(0)), classifyCell(first + channelOffset(1)),
                     classifyCell(first + channelOffset(2)), classifyCell(first + channelOffset(3)));
}
