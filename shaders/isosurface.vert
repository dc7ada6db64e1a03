// Draws the extracted mesh: every welded vertex once (indexed), its index-space position mapped
// to physical space (per slice for tilted or unevenly spaced stacks) and on to the clip space of
// the camera.
#include "common/volume_geometry.glsl"

layout(location = 0) in vec3 a_position; // index space
layout(location = 1) in vec3 a_normal;   // physical space, unit

uniform ivec3 u_volumeDims;
uniform mat4 u_physicalToClip;

out vec3 v_normal;

void main()
{
    v_normal = a_normal;
    gl_Position = u_physicalToClip * vec4(indexToPhysicalPoint(a_position, u_volumeDims.z), 1.0);
}
