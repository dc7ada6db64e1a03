// The vertex pyramid: a second HistoPyramid over the same base level, counting per cell the
// crossed edges it owns (common/marching_cubes_cell.glsl, cellVertexCounts) instead of its
// triangle vertices. Traversing it enumerates every welded vertex once; ascending it (a rank
// query) turns a cell into the index of its first vertex, which is how a triangle corner finds
// the vertex its edge's owner computed.
//
// Its levels 1.. live in u_vp8, u_vp16 and u_vp32, with the formats of the triangle levels
// (a cell owns at most 12 edges, fewer than its up to 15 triangle vertices).
#ifndef ISOVIEW_VERTEX_PYRAMID
#define ISOVIEW_VERTEX_PYRAMID

#include "common/histopyramid_traverse.glsl"

uniform usampler2D u_vp8;
uniform usampler2D u_vp16;
uniform usampler2D u_vp32;

const int kEdgeAt[24] = int[24](MC_EDGE_AT); // [axis * 8 + lower corner] -> edge, -1: none

uvec4 vpCounts(int level, ivec2 p)
{
    if (level >= HP_FIRST_32BIT_LEVEL) return texelFetch(u_vp32, p, level - HP_FIRST_32BIT_LEVEL);
    if (level >= HP_FIRST_16BIT_LEVEL) return texelFetch(u_vp16, p, level - HP_FIRST_16BIT_LEVEL);
    return texelFetch(u_vp8, p, level - 1);
}

// The n-th (from 0) set bit of a 12-bit edge mask.
int nthEdge(uint mask, uint n)
{
    for (int e = 0; e < 12; ++e) {
        if (((mask >> uint(e)) & 1u) != 0u) {
            if (n == 0u) return e;
            --n;
        }
    }
    return 0;
}

// Sum of the channels before `channel`: the keys that come before that child.
uint countBefore(uvec4 counts, int channel)
{
    uvec4 before = uvec4(lessThan(ivec4(0, 1, 2, 3), ivec4(channel)));
    return counts.x * before.x + counts.y * before.y + counts.z * before.z + counts.w * before.w;
}

struct VpLocation {
    ivec3 cell;
    int edge; // an edge the cell owns, in the cell's numbering
};

// The cell and edge of welded vertex `key`.
VpLocation vpTraverse(uint key)
{
    ivec2 p = ivec2(0);
    HP_DESCEND_LEVELS(u_vp8, u_vp16, u_vp32)
    uvec4 cases = texelFetch(u_hpBase, p, 0);
    ivec3 first = firstCellOfBaseTexel(p);
    int channel = hpPickChild(cellVertexCounts(cases, first), key);
    VpLocation loc;
    loc.cell = first + ivec3(channelOffset(channel), 0);
    loc.edge = nthEdge(ownedCrossedEdges(loc.cell, cases[channel]), key);
    return loc;
}

// One step up from level LEVEL - 1 to LEVEL (a literal), for the levels in (ascendFrom,
// ascendTo] the pyramid has: adds the keys of the siblings before the child p sits in. The
// caller declares ascendFrom and ascendTo as constants, which the compiler folds. (One line:
// GLSL before 4.20 has no line continuation.)
#define HP_ASCEND(LEVEL, SAMPLER, LOD) if (LEVEL > ascendFrom && LEVEL <= ascendTo && LEVEL < u_hpLevelCount) { int child = (p.x & 1) | ((p.y & 1) << 1); p >>= 1; first += countBefore(texelFetch(SAMPLER, p, LOD), child); }

#ifdef HP_BLOCK_OFFSETS
// Compute path: the first vertex of every active block, found once per block by
// vp_block_offsets.comp, so a rank query ascends only within its block.
layout(std430, binding = 2) readonly restrict buffer BlockFirstVertex {
    uint blockFirstVertex[];
};
#endif

// The index of the first vertex a cell owns, and the cell's case.
uint vpFirstVertexOf(ivec3 cell, out uint caseIndex)
{
    BaseSlot slot = baseSlotOf(cell);
    uvec4 cases = texelFetch(u_hpBase, slot.texel, 0);
    caseIndex = cases[slot.channel];
    ivec3 texelFirstCell = cell - ivec3(channelOffset(slot.channel), 0);
    uint first = countBefore(cellVertexCounts(cases, texelFirstCell), slot.channel);
    ivec2 p = slot.texel;
    const int ascendFrom = 0;
#ifdef HP_BLOCK_OFFSETS
    const int ascendTo = HP_BLOCK_LEVEL;
    HP_ASCEND_LEVELS(u_vp8, u_vp16, u_vp32)
    first += blockFirstVertex[slot.block];
#else
    const int ascendTo = 1000;
    HP_ASCEND_LEVELS(u_vp8, u_vp16, u_vp32)
#endif
    return first;
}

// The index of the first vertex of the block at texel p of the block level.
uint vpFirstVertexOfBlock(ivec2 p)
{
    uint first = 0u;
    const int ascendFrom = HP_BLOCK_LEVEL;
    const int ascendTo = 1000;
    HP_ASCEND_LEVELS(u_vp8, u_vp16, u_vp32)
    return first;
}

// The welded vertices on a triangle's three edges of `cell`: each is found at its edge's owner
// (extraction/edge_ownership.h), after the owner's crossed edges numbered below it. The pyramid
// is asked once per distinct owner (corners of one triangle often share it).
uvec3 vertexIndicesOfEdges(ivec3 cell, ivec3 edges)
{
    uvec3 indices;
    ivec3 owners[3];
    uint firsts[3];
    uint cases[3];
    for (int k = 0; k < 3; ++k) {
        int edge = edges[k];
        int axis = edge / 4;
        ivec3 lower = cell + cornerOffset(kEdgeLowerCorner[edge]);
        owners[k] = min(lower, u_cellCount - 1);
        ivec3 o = lower - owners[k];
        int ownerEdge = kEdgeAt[axis * 8 + (o.x | (o.y << 1) | (o.z << 2))];
        if (k > 0 && owners[k] == owners[0]) {
            firsts[k] = firsts[0];
            cases[k] = cases[0];
        } else if (k > 1 && owners[k] == owners[1]) {
            firsts[k] = firsts[1];
            cases[k] = cases[1];
        } else {
            firsts[k] = vpFirstVertexOf(owners[k], cases[k]);
        }
        uint below = ownedCrossedEdges(owners[k], cases[k]) & ((1u << uint(ownerEdge)) - 1u);
        indices[k] = firsts[k] + edgeCount(below);
    }
    return indices;
}

#endif
