// Index space -> physical (patient/world millimetres), as VolumeGeometry does on the CPU.
//
// Regular grids use one affine map. Stacks that are unevenly spaced or sheared (gantry tilt)
// keep every slice where the scanner measured it: u_sliceOrigins holds the physical position of
// voxel (0, 0, k) per slice (texel k), and a point between slices k0 and k0 + 1 is interpolated
// between them; the in-plane axes stay those of u_indexToPhysical.
#ifndef ISOVIEW_VOLUME_GEOMETRY
#define ISOVIEW_VOLUME_GEOMETRY

uniform mat4 u_indexToPhysical;     // the nominal affine map
uniform mat3 u_gradientToPhysical;  // its inverse transpose (regular grids)
uniform sampler2D u_sliceOrigins;   // D x 1 RGBA32F

// Programs that run per vertex are built for one kind of grid (ISOVIEW_MEASURED_SLICES 0 or 1,
// gpu/shader_defines.h): software rasterisers run both sides of a branch, so a uniform test
// would cost every vertex of a regular grid the slice-origin fetches (and, per welded vertex,
// two 3x3 inverses). The others decide per draw by u_hasSliceOrigins.
#ifdef ISOVIEW_MEASURED_SLICES
bool measuredSlices()
{
    return ISOVIEW_MEASURED_SLICES != 0;
}
#else
uniform bool u_hasSliceOrigins;
bool measuredSlices()
{
    return u_hasSliceOrigins;
}
#endif

vec3 sliceOrigin(int k)
{
    return texelFetch(u_sliceOrigins, ivec2(k, 0), 0).xyz;
}

// The slice interval a slice coordinate is interpolated in (VolumeGeometry::sliceIntervalAt).
int sliceIntervalAt(float k, int sliceCount)
{
    int last = sliceCount - 1;
    return min(int(floor(clamp(k, 0.0, float(last)))), max(last - 1, 0));
}

vec3 indexToPhysicalPoint(vec3 p, int sliceCount)
{
    if (!measuredSlices()) return (u_indexToPhysical * vec4(p, 1.0)).xyz;
    float k = clamp(p.z, 0.0, float(sliceCount - 1));
    int k0 = sliceIntervalAt(k, sliceCount);
    int k1 = min(k0 + 1, sliceCount - 1);
    vec3 origin = mix(sliceOrigin(k0), sliceOrigin(k1), k - float(k0));
    return origin + u_indexToPhysical[0].xyz * p.x + u_indexToPhysical[1].xyz * p.y;
}

// Maps the central-difference gradient at a voxel of slice k to physical space (inverse
// transpose of the Jacobian whose third column is the step the difference stencil spans), as
// VolumeGeometry::voxelGradientToPhysical does, so normals stay right for anisotropic, tilted
// and unevenly spaced grids.
mat3 voxelGradientToPhysical(int k, int sliceCount)
{
    if (!measuredSlices()) return u_gradientToPhysical;
    int below = max(k - 1, 0);
    int above = min(k + 1, sliceCount - 1);
    vec3 step = (sliceOrigin(above) - sliceOrigin(below)) / float(above - below);
    mat3 jacobian = mat3(u_indexToPhysical[0].xyz, u_indexToPhysical[1].xyz, step);
    return transpose(inverse(jacobian));
}

#endif
