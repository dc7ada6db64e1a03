// One welded vertex of the isosurface: placed on its grid edge by linear interpolation, with
// the central-difference gradients at both edge ends taken to physical space (anisotropic
// spacing, direction, per-slice positions), interpolated and flipped to point outward. The
// same arithmetic as the CPU reference (src/extraction/cpu_marching_cubes.cpp).
#ifndef ISOVIEW_SURFACE_VERTEX
#define ISOVIEW_SURFACE_VERTEX

#include "common/flat3d_sampling.glsl"
#include "common/marching_cubes_cell.glsl"
#include "common/volume_geometry.glsl"

uniform float u_isovalue;

struct SurfaceVertex {
    vec3 position;   // index space
    vec3 normal;     // physical space, unit (zero where the gradient vanishes)
    uint lowerVoxel; // linear index of the edge's lower voxel
    uint axis;       // the edge's axis: with lowerVoxel, the vertex's EdgeKey
};

// cell: a pyramid cell (common/marching_cubes_cell.glsl); label: whose indicator's surface, for
// a label map (ignored otherwise)
SurfaceVertex surfaceVertexOnEdge(ivec3 cell, int edge, float label)
{
    int axis = edge / 4;
    ivec3 p0 = cell + u_cellOrigin + cornerOffset(kEdgeLowerCorner[edge]);
    ivec3 p1 = p0;
    p1[axis] += 1;

    EdgeSamples s = sampleEdge(p0, axis, label);
    // edgeCrossing() of cpu_marching_cubes.h: at the finite end when the other end is not.
    bool finite0 = isFiniteValue(s.v0);
    bool finite1 = isFiniteValue(s.v1);
    float t = finite0 && finite1 ? (u_isovalue - s.v0) / (s.v1 - s.v0)
              : finite0          ? 0.0
              : finite1          ? 1.0
                                 : 0.5;
    SurfaceVertex v;
    v.position = vec3(p0);
    v.position[axis] += t;
    vec3 n = mix(voxelGradientToPhysical(p0.z, u_volumeDims.z) * s.g0,
                 voxelGradientToPhysical(p1.z, u_volumeDims.z) * s.g1, t);
    v.normal = length(n) > 0.0 ? -normalize(n) : vec3(0.0);
    v.lowerVoxel = uint(p0.x) + uint(u_volumeDims.x) * (uint(p0.y) + uint(u_volumeDims.y) * uint(p0.z));
    v.axis = uint(axis);
    return v;
}

#endif
