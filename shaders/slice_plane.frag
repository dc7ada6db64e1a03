// A slice plane's pixel: the voxel nearest to it on the plane (v_index holds the plane's index
// along its normal axis), through the window/level, in grey, opaque. Nearest, not interpolated:
// the slice views show voxel planes unresampled, and the 3D planes show the same pixels.
#include "common/flat3d_sampling.glsl"

// The window in stored units: grey = (stored - x) * y, clamped (y < 0 for a negative slope).
uniform vec2 u_window;

in vec3 v_index;
out vec4 o_color;

void main()
{
    ivec3 voxel = clamp(ivec3(floor(v_index + 0.5)), ivec3(0), u_volumeDims - 1);
    float v = fetchVoxel(voxel);
    // NaN shows black, as in the slice views; +-Inf clamp to white or black.
    bool isNan = (floatBitsToUint(v) & 0x7FFFFFFFu) > 0x7F800000u;
    float grey = isNan ? 0.0 : clamp((v - u_window.x) * u_window.y, 0.0, 1.0);
    o_color = vec4(vec3(grey), 1.0);
}
