// The build's reduction up to the block level, OpenGL 4.3 path: one invocation per active block
// reads the block's 64 base texels (cases) and writes its texels of levels 1, 2 and 3 of both
// pyramids, the same sums hp_reduce.frag makes in three passes. Three passes of instanced quads
// of 4 x 4, 2 x 2 and 1 x 1 texels cost a software rasteriser far more in setup than the sums
// themselves. The block level was cleared first, so other blocks count zero there.
#include "common/histopyramid_channels.glsl"
#include "common/marching_cubes_cell.glsl"

layout(local_size_x = 64) in;

layout(std430, binding = 3) readonly restrict buffer ActiveBlocks {
    uint activeBlocks[];
};
uniform uint u_activeBlockCount;
uniform usampler2D u_source; // the base level

// Levels 1 and 2 are RGBA8UI, the block level RGBA16UI (HistoPyramid's compact levels).
layout(binding = 0, rgba8ui) writeonly restrict uniform uimage2D u_level1;
layout(binding = 1, rgba8ui) writeonly restrict uniform uimage2D u_level2;
layout(binding = 2, rgba16ui) writeonly restrict uniform uimage2D u_level3;
layout(binding = 3, rgba8ui) writeonly restrict uniform uimage2D u_vertexLevel1;
layout(binding = 4, rgba8ui) writeonly restrict uniform uimage2D u_vertexLevel2;
layout(binding = 5, rgba16ui) writeonly restrict uniform uimage2D u_vertexLevel3;

ivec3 g_blockOrigin; // the block's first cell

uint total(uvec4 v)
{
    return v.x + v.y + v.z + v.w;
}

// (triangle vertices, welded vertices) of the four cells of base texel p.
uvec2 baseTexelTotals(ivec2 p)
{
    uvec4 cases = texelFetch(u_source, p, 0);
    ivec2 within = p & 7;
    int slice = (within.x >> 2) + 2 * (within.y >> 2);
    ivec3 first = g_blockOrigin + ivec3(2 * (within.x & 3), 2 * (within.y & 3), slice);
    return uvec2(total(caseVertexCounts(cases)), total(cellVertexCounts(cases, first)));
}

// Writes level-1 texel p of both pyramids; returns its totals.
uvec2 reduceLevel1(ivec2 p)
{
    ivec2 child = 2 * p;
    uvec2 c0 = baseTexelTotals(child + channelOffset(0));
    uvec2 c1 = baseTexelTotals(child + channelOffset(1));
    uvec2 c2 = baseTexelTotals(child + channelOffset(2));
    uvec2 c3 = baseTexelTotals(child + channelOffset(3));
    uvec4 triangles = uvec4(c0.x, c1.x, c2.x, c3.x);
    uvec4 vertices = uvec4(c0.y, c1.y, c2.y, c3.y);
    imageStore(u_level1, p, triangles);
    imageStore(u_vertexLevel1, p, vertices);
    return uvec2(total(triangles), total(vertices));
}

uvec2 reduceLevel2(ivec2 p)
{
    ivec2 child = 2 * p;
    uvec2 c0 = reduceLevel1(child + channelOffset(0));
    uvec2 c1 = reduceLevel1(child + channelOffset(1));
    uvec2 c2 = reduceLevel1(child + channelOffset(2));
    uvec2 c3 = reduceLevel1(child + channelOffset(3));
    uvec4 triangles = uvec4(c0.x, c1.x, c2.x, c3.x);
    uvec4 vertices = uvec4(c0.y, c1.y, c2.y, c3.y);
    imageStore(u_level2, p, triangles);
    imageStore(u_vertexLevel2, p, vertices);
    return uvec2(total(triangles), total(vertices));
}

void main()
{
    uint i = (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * gl_WorkGroupSize.x +
             gl_LocalInvocationIndex;
    if (i >= u_activeBlockCount) return;
    int block = int(activeBlocks[i]);
    ivec2 p = ivec2(block % u_blocksPerRow, block / u_blocksPerRow);
    g_blockOrigin = firstCellOfBaseTexel(8 * p);
    ivec2 child = 2 * p;
    uvec2 c0 = reduceLevel2(child + channelOffset(0));
    uvec2 c1 = reduceLevel2(child + channelOffset(1));
    uvec2 c2 = reduceLevel2(child + channelOffset(2));
    uvec2 c3 = reduceLevel2(child + channelOffset(3));
    imageStore(u_level3, p, uvec4(c0.x, c1.x, c2.x, c3.x));
    imageStore(u_vertexLevel3, p, uvec4(c0.y, c1.y, c2.y, c3.y));
}
