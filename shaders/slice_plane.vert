// One of the three slice planes in the 3D view: the index plane where axis u_axis equals
// u_planeIndex, spanning the volume's voxel centres [0, dims - 1] on its other two axes, from
// gl_VertexID alone (no vertex data). Two triangles per segment; a plane that runs along k is
// cut into one segment per slice interval when the stack has measured slice positions, so it
// bends with the stack exactly as the isosurface does (indexToPhysicalPoint).
#include "common/volume_geometry.glsl"

uniform mat4 u_physicalToClip;
uniform ivec3 u_volumeDims;
uniform int u_axis;          // the index axis held constant (0 = i, 1 = j, 2 = k)
uniform float u_planeIndex;  // its index
uniform int u_segments;      // along the plane's second in-plane axis

out vec3 v_index;

void main()
{
    const vec2 corners[6] =
        vec2[6](vec2(0, 0), vec2(1, 0), vec2(1, 1), vec2(0, 0), vec2(1, 1), vec2(0, 1));
    int segment = gl_VertexID / 6;
    vec2 c = corners[gl_VertexID % 6];
    // In-plane axes: (j, k) for an i plane, (i, k) for a j plane, (i, j) for a k plane; the
    // second is the one cut into segments.
    int first = u_axis == 0 ? 1 : 0;
    int second = u_axis == 2 ? 1 : 2;
    vec3 extent = vec3(max(u_volumeDims - 1, ivec3(0)));
    vec3 p;
    p[u_axis] = u_planeIndex;
    p[first] = c.x * extent[first];
    p[second] = (float(segment) + c.y) / float(u_segments) * extent[second];
    v_index = p;
    gl_Position = u_physicalToClip * vec4(indexToPhysicalPoint(p, u_volumeDims.z), 1.0);
}
