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

uvec4 vpCounts(int level, ivec2 p)
{
    if (level >= HP_FIRST_32BIT_LEVEL) return texelFetch(u_vp32, p, level - HP_FIRST_32BIT_LEVEL);
    if (level >= HP_FIRST_16BIT_LEVEL) return texelFetch(u_vp16, p, level - HP_FIRST_16BIT_LEVEL);
    return texelFetch(u_vp8, p, level - 1);
}

// The n-th (from 0) set bit of a 12-bit edge mask: the lowest after clearing n of them (n is
// almost always 0 to 2; GLSL before 4.00 has no findLSB, so the 3.3 path scans).
int nthEdge(uint mask, uint n)
{
#if __VERSION__ >= 400
    for (uint k = 0u; k < n; ++k)
        mask &= mask - 1u;
    return findLSB(mask);
#else
    for (int e = 0; e < 12; ++e) {
        if (((mask >> uint(e)) & 1u) != 0u) {
            if (n == 0u) return e;
            --n;
        }
    }
    return 0;
#endif
}

struct VpLocation {
    ivec3 cell;
    int edge;        // an edge the cell owns, in the cell's numbering
    uint rank;       // which of the cell's welded vertices (0: its first)
    ivec2 baseTexel; // where the cell's case lives in the base level
    int channel;     // the cell's channel there
};

// The base texel p reached, key local to it, and the texel's first cell: the cell and the edge
// of that vertex.
VpLocation vpLocateInBaseTexel(ivec2 p, ivec3 first, uint key)
{
    uvec4 cases = texelFetch(u_hpBase, p, 0);
    int channel = hpPickChild(cellVertexCounts(cases, first), key);
    VpLocation loc;
    loc.cell = first + ivec3(channelOffset(channel), 0);
    loc.edge = nthEdge(ownedCrossedEdges(loc.cell, cases[channel]), key);
    loc.rank = key;
    loc.baseTexel = p;
    loc.channel = channel;
    return loc;
}

// The cell and edge of welded vertex `key`.
VpLocation vpTraverse(uint key)
{
    ivec2 p = hpDescendFromTop(u_vp8, u_vp16, u_vp32, key);
    return vpLocateInBaseTexel(p, firstCellOfBaseTexel(p), key);
}

// The same within one block (the block's first cell given): key counts from the block's first
// welded vertex.
VpLocation vpTraverseBlock(ivec2 blockTexel, ivec3 blockFirstCell, uint key)
{
    ivec2 p = hpDescendInBlock(u_vp8, u_vp16, u_vp32, blockTexel, key);
    return vpLocateInBaseTexel(p, blockFirstCell + cellOffsetInBlock(p & 7), key);
}

#ifdef HP_CELL_FIRST_VERTEX
// Compute path: the vertex pass writes each cell's first welded vertex to cellFirstVertex[], 256
// cells per active block at its slot (blockSlot[], block_starts.comp), so the index pass's rank
// queries are two reads instead of a climb up the vertex pyramid. The vertex pass declares
// cellFirstVertex[]; the index pass defines HP_RANK_FROM_CELL_FIRST_VERTEX and reads both
// through buffer textures, which software rasterisers gather as vectors where a storage buffer
// read at a per-lane address runs lane by lane (gpu/texel_buffer_view.h).
uint cellWithinBlock(ivec2 baseTexel, int channel)
{
    ivec2 within = baseTexel & 7;
    return uint((((within.y << 3) | within.x) << 2) | channel);
}
#endif

#ifdef HP_RANK_FROM_CELL_FIRST_VERTEX
// The index of the first vertex a cell owns (the cell owns at least one: it owns a crossed
// edge), and the cell's case.
uniform usamplerBuffer u_blockSlots;      // blockSlot[]
uniform usamplerBuffer u_cellFirstVertex; // cellFirstVertex[]

uint vpFirstVertexOf(ivec3 cell, out uint caseIndex)
{
    BaseSlot slot = baseSlotOf(cell);
    caseIndex = texelFetch(u_hpBase, slot.texel, 0)[slot.channel];
    uint blockSlotIndex = texelFetch(u_blockSlots, slot.block).x;
    uint at = blockSlotIndex * 256u + cellWithinBlock(slot.texel, slot.channel);
    return texelFetch(u_cellFirstVertex, int(at)).x;
}
#else
// The index of the first vertex a cell owns, and the cell's case: a rank query climbing the
// vertex pyramid from the cell to the top.
uint vpFirstVertexOf(ivec3 cell, out uint caseIndex)
{
    BaseSlot slot = baseSlotOf(cell);
    uvec4 cases = texelFetch(u_hpBase, slot.texel, 0);
    caseIndex = cases[slot.channel];
    ivec3 texelFirstCell = cell - ivec3(channelOffset(slot.channel), 0);
    uint first = countBefore(cellVertexCounts(cases, texelFirstCell), slot.channel);
    ivec2 p = slot.texel;
    HP_ASCEND_LEVELS(u_vp8, u_vp16, u_vp32)
    return first;
}
#endif

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
        int axis = edge >> 2;
        ivec3 lower = cell + edgeLowerOffset(edge);
        owners[k] = min(lower, u_cellCount - 1);
        ivec3 o = lower - owners[k];
        int ownerEdge = edgeFromLowerOffset(axis, o);
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
