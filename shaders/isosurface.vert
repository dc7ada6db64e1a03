// Draws the extracted mesh: every welded vertex once (indexed), its index-space position mapped
// to physical space (per slice for tilted or unevenly spaced stacks) and on to the clip space of
// the camera.
//
// Label maps (ISOVIEW_LABELS): each vertex carries its label (above the axis bits), whose colour
// and opacity come from u_labelStyles (RGBA8, 256 labels a row). The opaque program draws the
// opaque labels, the translucent one (ISOVIEW_TRANSLUCENT) those in between; a label hidden or
// of the other pass is sent outside the clip volume, so its triangles are dropped before
// rasterisation. Vertices move u_labelInsetMm inside their own label (against the outward
// normal), so where two labels touch their coincident surfaces are apart in depth.
#include "common/volume_geometry.glsl"

layout(location = 0) in vec3 a_position; // index space
layout(location = 1) in vec3 a_normal;   // physical space, unit

uniform ivec3 u_volumeDims;
uniform mat4 u_physicalToClip;

out vec3 v_normal;

#ifdef ISOVIEW_LABELS
layout(location = 2) in uint a_axisAndLabel;
uniform sampler2D u_labelStyles;
uniform float u_labelInsetMm;
flat out vec4 v_labelColor;
#endif

void main()
{
    v_normal = a_normal;
    vec3 physical = indexToPhysicalPoint(a_position, u_volumeDims.z);
#ifdef ISOVIEW_LABELS
    uint label = a_axisAndLabel >> 2;
    vec4 style = texelFetch(u_labelStyles, ivec2(int(label & 255u), int(label >> 8)), 0);
#ifdef ISOVIEW_TRANSLUCENT
    bool drawn = style.a > 0.0 && style.a < 1.0;
#else
    bool drawn = style.a == 1.0;
#endif
    if (label == 0u || !drawn) {
        gl_Position = vec4(2.0, 2.0, 2.0, 1.0); // beyond every clip plane: the triangle goes
        return;
    }
    v_labelColor = style;
    physical -= a_normal * u_labelInsetMm;
#endif
    gl_Position = u_physicalToClip * vec4(physical, 1.0);
}
