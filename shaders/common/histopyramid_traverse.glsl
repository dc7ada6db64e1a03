// HistoPyramid traversal (Dyken et al., section 3.2): walk from the 1 x 1 top level down to the
// base, at each level choosing the child whose key range holds the key and subtracting the
// range's start.
//
// Levels live in four textures by the size of their counts (compact integer levels):
//   u_hpBase  level 0, RGBA8UI: per cell its marching-cubes case (the count is a table lookup)
//   u_hp8     levels 2 .. HP_FIRST_16BIT_LEVEL-1 as mip levels, RGBA8UI (counts <= 240); level 1
//             is not stored: its texel's counts are the keys of four base texels, summed from
//             their cases on the way down (hpDescendFromLevel1)
//   u_hp16    levels HP_FIRST_16BIT_LEVEL .. HP_FIRST_32BIT_LEVEL-1, RGBA16UI (<= 61440)
//   u_hp32    levels HP_FIRST_32BIT_LEVEL and up, RGBA32UI
// Channel c of a texel at level l holds the total of child texel 2p + (c & 1, c >> 1) at l-1.
#ifndef ISOVIEW_HISTOPYRAMID_TRAVERSE
#define ISOVIEW_HISTOPYRAMID_TRAVERSE

#include "common/histopyramid_channels.glsl"
#include "common/marching_cubes_cell.glsl"

uniform usampler2D u_hpBase;
uniform usampler2D u_hp8;
uniform usampler2D u_hp16;
uniform usampler2D u_hp32;
uniform int u_hpLevelCount;

// Counts of texel p at a level (the count pass; traversal unrolls its levels instead).
uvec4 hpCounts(int level, ivec2 p)
{
    if (level >= HP_FIRST_32BIT_LEVEL) return texelFetch(u_hp32, p, level - HP_FIRST_32BIT_LEVEL);
    if (level >= HP_FIRST_16BIT_LEVEL) return texelFetch(u_hp16, p, level - HP_FIRST_16BIT_LEVEL);
    return texelFetch(u_hp8, p, level - 2); // level >= 2
}

uint hpTotal(uvec4 counts)
{
    return counts.x + counts.y + counts.z + counts.w;
}

// The child whose range [start, start + count) holds key; key becomes local to it.
int hpPickChild(uvec4 counts, inout uint key)
{
    uint a = counts.x;
    uint b = a + counts.y;
    uint c = b + counts.z;
    if (key < a) return 0;
    if (key < b) { key -= a; return 1; }
    if (key < c) { key -= b; return 2; }
    key -= c;
    return 3;
}

struct HpLocation {
    ivec3 cell;     // the cell
    uint caseIndex; // its cached marching-cubes case
    uint localKey;  // which vertex of the case's triangle list
};

// One step down from level LEVEL (a literal) if the pyramid has it: the sampler and mip level are
// constants, which a level loop could not give (dynamic mip levels cost dearly on software
// rasterisers). HP_DESCEND_LEVELS (from the engine) lists every possible level, top first, for
// the vertex pyramid; HP_TRIANGLE_DESCEND_LEVELS stops at level 2 for the triangle pyramid.
// (One line: GLSL before 4.20 has no line continuation.)
#define HP_DESCEND(LEVEL, SAMPLER, LOD) if (LEVEL < u_hpLevelCount) p = 2 * p + channelOffset(hpPickChild(texelFetch(SAMPLER, p, LOD), key));

// The last step of the triangle pyramid, from level-1 texel p: the keys of its four base texels
// from their cases (four fetches where a stored level would take one, but a quarter byte per
// cell less memory; the chosen texel's cases come back, so the base is not fetched again).
ivec2 hpDescendFromLevel1(ivec2 p, inout uint key, out uvec4 cases)
{
    ivec2 first = 2 * p;
    uvec4 c0 = texelFetch(u_hpBase, first, 0);
    uvec4 c1 = texelFetch(u_hpBase, first + ivec2(1, 0), 0);
    uvec4 c2 = texelFetch(u_hpBase, first + ivec2(0, 1), 0);
    uvec4 c3 = texelFetch(u_hpBase, first + ivec2(1, 1), 0);
    uvec4 keys = uvec4(hpTotal(caseVertexCounts(c0)), hpTotal(caseVertexCounts(c1)),
                       hpTotal(caseVertexCounts(c2)), hpTotal(caseVertexCounts(c3)));
    int child = hpPickChild(keys, key);
    cases = child == 0 ? c0 : child == 1 ? c1 : child == 2 ? c2 : c3;
    return first + channelOffset(child);
}

// The base texel reached with its cases, key local to it, and the texel's first cell: the cell
// and its place in the case's list.
HpLocation hpLocateInCases(uvec4 cases, ivec3 texelFirstCell, uint key)
{
    int channel = hpPickChild(caseVertexCounts(cases), key);
    HpLocation loc;
    loc.cell = texelFirstCell + ivec3(channelOffset(channel), 0);
    loc.caseIndex = cases[channel];
    loc.localKey = key;
    return loc;
}

// Descends a pyramid (its level samplers given) from the top to the base texel whose range holds
// key; key becomes local to that texel.
ivec2 hpDescendFromTop(usampler2D s8, usampler2D s16, usampler2D s32, inout uint key)
{
    ivec2 p = ivec2(0);
    HP_DESCEND_LEVELS(s8, s16, s32)
    return p;
}

// The same within one block, from its texel at the block level, key counting from the block's
// first.
ivec2 hpDescendInBlock(usampler2D s8, usampler2D s16, usampler2D s32, ivec2 blockTexel,
                       inout uint key)
{
    ivec2 p = blockTexel;
    HP_DESCEND_BLOCK_LEVELS(s8, s16, s32)
    return p;
}

HpLocation hpTraverse(uint key)
{
    ivec2 p = ivec2(0);
    HP_TRIANGLE_DESCEND_LEVELS(u_hp8, u_hp16, u_hp32)
    uvec4 cases;
    p = hpDescendFromLevel1(p, key, cases);
    return hpLocateInCases(cases, firstCellOfBaseTexel(p), key);
}

// Traversal of one block's part of the pyramid (the block's first cell given): key counts from
// the block's first triangle vertex.
HpLocation hpTraverseBlock(ivec2 blockTexel, ivec3 blockFirstCell, uint key)
{
    ivec2 p = blockTexel;
    HP_TRIANGLE_DESCEND_BLOCK_LEVELS(u_hp8, u_hp16, u_hp32)
    uvec4 cases;
    p = hpDescendFromLevel1(p, key, cases);
    return hpLocateInCases(cases, blockFirstCell + cellOffsetInBlock(p & 7), key);
}

// Sum of the channels before `channel`: the keys that come before that child.
uint countBefore(uvec4 counts, int channel)
{
    uvec4 before = uvec4(lessThan(ivec4(0, 1, 2, 3), ivec4(channel)));
    return counts.x * before.x + counts.y * before.y + counts.z * before.z + counts.w * before.w;
}

// One step up from level LEVEL - 1 to LEVEL (a literal), for the levels the pyramid has: adds
// to `first` the keys of the siblings before the child p sits in. (One line: GLSL before 4.20
// has no line continuation.)
#define HP_ASCEND(LEVEL, SAMPLER, LOD) if (LEVEL < u_hpLevelCount) { int child = (p.x & 1) | ((p.y & 1) << 1); p >>= 1; first += countBefore(texelFetch(SAMPLER, p, LOD), child); }

#endif
