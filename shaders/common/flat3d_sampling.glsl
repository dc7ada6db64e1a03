// Reading voxels from the flat-3D volume texture: slice z is the tile
// (z % u_volumeTilesPerRow, z / u_volumeTilesPerRow) of W x H texels (src/extraction/flat3d_layout.h).
//
// ISOVIEW_VOLUME_SAMPLER (usampler2D, isampler2D or sampler2D) is defined by the engine from the
// voxel type, so 16-bit CT keeps its exact integers; values convert to float exactly as
// Volume::valueAt does on the CPU, which is what makes the GPU and CPU classify every corner
// alike.

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

// The one inside rule of isoview: a corner is inside when its value >= the isovalue.
bool isInside(float v, float iso)
{
    return isFiniteValue(v) && v >= iso;
}

float finiteOr(float v, float fallback)
{
    return isFiniteValue(v) ? v : fallback;
}

// Index-space gradient by central differences, one-sided at the borders; non-finite neighbours
// count as the centre value, a non-finite centre has no gradient (same rules as indexGradient()
// in src/extraction/cpu_marching_cubes.cpp).
vec3 voxelGradient(ivec3 p)
{
    float c = fetchVoxel(p);
    if (!isFiniteValue(c)) return vec3(0.0);
    vec3 g = vec3(0.0);
    for (int a = 0; a < 3; ++a) {
        int n = u_volumeDims[a];
        ivec3 e = ivec3(0);
        e[a] = 1;
        if (n == 1) {
            g[a] = 0.0;
        } else if (p[a] > 0 && p[a] < n - 1) {
            g[a] = (finiteOr(fetchVoxel(p + e), c) - finiteOr(fetchVoxel(p - e), c)) * 0.5;
        } else if (p[a] == 0) {
            g[a] = finiteOr(fetchVoxel(p + e), c) - c;
        } else {
            g[a] = c - finiteOr(fetchVoxel(p - e), c);
        }
    }
    return g;
}
