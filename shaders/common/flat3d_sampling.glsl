// Reading voxels from the flat-3D volume texture: slice z is the tile
// (z % u_volumeTilesPerRow, z / u_volumeTilesPerRow) of W x H texels (src/extraction/flat3d_layout.h).
//
// ISOVIEW_VOLUME_SAMPLER (usampler2D, isampler2D or sampler2D) is defined by the engine from the
// voxel type, so 16-bit CT keeps its exact integers; values convert to float exactly as
// Volume::valueAt does on the CPU, which is what makes the GPU and CPU classify every corner
// alike.
#ifndef ISOVIEW_FLAT3D_SAMPLING
#define ISOVIEW_FLAT3D_SAMPLING

uniform ISOVIEW_VOLUME_SAMPLER u_volume;
uniform ivec3 u_volumeDims;
uniform int u_volumeTilesPerRow;

// The first texel of slice z's tile.
ivec2 flatTileOrigin(int z)
{
    return ivec2(z % u_volumeTilesPerRow, z / u_volumeTilesPerRow) * u_volumeDims.xy;
}

// The voxel at a texel of the flat texture (a tile origin plus (x, y)).
float fetchVoxelAt(ivec2 texel)
{
    return float(texelFetch(u_volume, texel, 0).r);
}

float fetchVoxel(ivec3 p)
{
    return fetchVoxelAt(flatTileOrigin(p.z) + p.xy);
}

// NaN and +-Inf have an all-ones exponent. Tested on the bits, not with isnan(), so that no
// fast-math compiler can fold it away.
bool isFiniteValue(float v)
{
    return (floatBitsToUint(v) & 0x7F800000u) != 0x7F800000u;
}

// The one inside rule of isoview: a corner is inside when its value >= the isovalue, so +Inf
// is inside and -Inf and NaN are outside (isInsideIsosurface in cpu_marching_cubes.h). +Inf is
// tested on the bits and NaN kept out of the comparison, as no compiler must be trusted with
// either.
bool isInside(float v, float iso)
{
    return floatBitsToUint(v) == 0x7F800000u || (isFiniteValue(v) && v >= iso);
}

float finiteOr(float v, float fallback)
{
    return isFiniteValue(v) ? v : fallback;
}

// Values (of the field: fieldAt) and index-space gradients by central differences at both ends
// of the grid edge from p0 to p1 = p0 + e(axis): one-sided at the borders, non-finite neighbours counting as the centre
// value, no gradient at a non-finite centre (the rules of indexGradient() in
// src/extraction/cpu_marching_cubes.cpp). The two stencils share the line p0 - e .. p1 + e, so 12
// fetches serve both (4 along the edge, 2 x 4 across it), every lane doing the same work, and
// the flat tiles of the at most four slices involved are found once.
struct EdgeSamples {
    float v0;
    float v1;
    vec3 g0;
    vec3 g1;
};

// The field the surface is the isosurface of: the voxel values, or for a label map (label >= 0,
// ISOVIEW_LABELS) the indicator of one label, 1 where the voxel holds it and 0 elsewhere.
float fieldAt(ivec2 texel, float label)
{
#ifdef ISOVIEW_LABELS
    return fetchVoxelAt(texel) == label ? 1.0 : 0.0;
#else
    return fetchVoxelAt(texel);
#endif
}

// The flat tiles of slices z0 - 1 .. z0 + 2 (clamped to the volume) as four values, not an
// array: software rasterisers turn a per-lane array index into memory gathers, a choice among
// four values into three selects.
struct EdgeTiles {
    ivec2 t0, t1, t2, t3;
};

// The tile of slice z0 + dz, -1 <= dz <= 2 (coordinates clamped already keep their offset).
ivec2 tileAt(EdgeTiles t, int dz)
{
    return dz <= 0 ? (dz < 0 ? t.t0 : t.t1) : (dz == 1 ? t.t2 : t.t3);
}

float fetchNear(EdgeTiles t, int z0, ivec3 p, float label)
{
    return fieldAt(tileAt(t, p.z - z0) + p.xy, label);
}

// span: index distance between the two samples (2 inside, 1 at a border, 0 on a one-voxel axis)
float centralDifference(float lo, float hi, float centre, int span)
{
    return span == 0 ? 0.0 : (finiteOr(hi, centre) - finiteOr(lo, centre)) / float(span);
}

EdgeSamples sampleEdge(ivec3 p0, int axis, float label)
{
    ivec3 last = u_volumeDims - 1;
    ivec3 e = ivec3(equal(ivec3(0, 1, 2), ivec3(axis)));
    ivec3 p1 = p0 + e;
    // The slices are consecutive: one tile position by division, the others stepped from it
    // (integer division runs lane by lane on software rasterisers).
    int zFirst = clamp(p0.z - 1, 0, last.z);
    ivec2 firstTile = ivec2(zFirst % u_volumeTilesPerRow, zFirst / u_volumeTilesPerRow);
    ivec2 tiles[4];
    for (int i = 0; i < 4; ++i) {
        ivec2 tile = firstTile + ivec2(clamp(p0.z - 1 + i, 0, last.z) - zFirst, 0);
        for (int k = 0; k < 3; ++k) { // at most 3 slices on, with at least one tile per row
            if (tile.x >= u_volumeTilesPerRow) tile += ivec2(-u_volumeTilesPerRow, 1);
        }
        tiles[i] = tile * u_volumeDims.xy;
    }
    EdgeTiles t = EdgeTiles(tiles[0], tiles[1], tiles[2], tiles[3]);

    EdgeSamples s;
    s.v0 = fieldAt(t.t1 + p0.xy, label);
    s.v1 = fetchNear(t, p0.z, p1, label);
    ivec3 before = max(p0 - e, ivec3(0));
    ivec3 after = min(p1 + e, last);
    float vBefore = fetchNear(t, p0.z, before, label);
    float vAfter = fetchNear(t, p0.z, after, label);
    s.g0[axis] = centralDifference(vBefore, s.v1, s.v0, p1[axis] - before[axis]);
    s.g1[axis] = centralDifference(s.v0, vAfter, s.v1, after[axis] - p0[axis]);
    for (int k = 1; k <= 2; ++k) {
        int a = (axis + k) % 3;
        ivec3 f = ivec3(equal(ivec3(0, 1, 2), ivec3(a)));
        ivec3 lo0 = max(p0 - f, ivec3(0));
        ivec3 hi0 = min(p0 + f, last);
        ivec3 lo1 = max(p1 - f, ivec3(0));
        ivec3 hi1 = min(p1 + f, last);
        s.g0[a] = centralDifference(fetchNear(t, p0.z, lo0, label), fetchNear(t, p0.z, hi0, label),
                                    s.v0, hi0[a] - lo0[a]);
        s.g1[a] = centralDifference(fetchNear(t, p0.z, lo1, label), fetchNear(t, p0.z, hi1, label),
                                    s.v1, hi1[a] - lo1[a]);
    }
    if (!isFiniteValue(s.v0)) s.g0 = vec3(0.0);
    if (!isFiniteValue(s.v1)) s.g1 = vec3(0.0);
    return s;
}

#endif
