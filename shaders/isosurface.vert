// Extraction in the vertex shader (Dyken et al., section 4): drawn with exactly as many
// vertices as the pyramid counts and no vertex data, each invocation takes gl_VertexID as its
// key, traverses the pyramid to its cell and the vertex's place in the cell's triangle list,
// reads the edge from the case table and places itself on the edge by linear interpolation.
// Normals are central-difference gradients at both edge ends, taken to physical space
// (anisotropic spacing, direction, per-slice positions), interpolated and flipped to point
// outward.
#include "common/flat3d_sampling.glsl"
#include "common/marching_cubes_cell.glsl"
#include "common/histopyramid_traverse.glsl"
#include "common/volume_geometry.glsl"

uniform float u_isovalue;
uniform mat4 u_physicalToClip;

out vec3 v_position;      // index space (captured for export)
out vec3 v_normal;        // physical space, unit
flat out uvec2 v_edgeKey; // (linear index of the edge's lower voxel, axis): exact welding

void main()
{
    HpLocation loc = hpTraverse(uint(gl_VertexID));
    ivec3 cell = loc.cell;
    int edge = int(texelFetch(u_caseTable, ivec2(int(loc.localKey), int(loc.caseIndex)), 0).r);
    int axis = edge / 4;
    ivec3 p0 = cell + cornerOffset(kEdgeLowerCorner[edge]);
    ivec3 p1 = p0;
    p1[axis] += 1;

    EdgeSamples s = sampleEdge(p0, axis);
    float t = (isFiniteValue(s.v0) && isFiniteValue(s.v1)) ? (u_isovalue - s.v0) / (s.v1 - s.v0)
                                                           : 0.5;
    vec3 position = vec3(p0);
    position[axis] += t;

    // Physical gradients at both edge ends, interpolated.
    vec3 n = mix(voxelGradientToPhysical(p0.z, u_volumeDims.z) * s.g0,
                 voxelGradientToPhysical(p1.z, u_volumeDims.z) * s.g1, t);
    v_normal = length(n) > 0.0 ? -normalize(n) : vec3(0.0);
    v_position = position;
    uint linear = uint(p0.x) + uint(u_volumeDims.x) * (uint(p0.y) + uint(u_volumeDims.y) * uint(p0.z));
    v_edgeKey = uvec2(linear, uint(axis));
    gl_Position = u_physicalToClip * vec4(indexToPhysicalPoint(position, u_volumeDims.z), 1.0);
}
