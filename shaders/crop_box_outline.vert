// The crop box's outline and face handles (crop_box_outline.h): physical-space points, the
// handles' corners pushed out by a fixed number of pixels so they keep their size on screen.
layout(location = 0) in vec3 a_physical;
layout(location = 1) in vec2 a_offsetPixels; // (0, 0) for the edges
layout(location = 2) in float a_face;        // the handle's face 0..5; -1 for the edges
layout(location = 3) in float a_border;      // 1 for a handle's dark rim

uniform mat4 u_physicalToClip;
uniform vec2 u_viewportSize;

flat out int v_face;
flat out int v_border;

void main()
{
    vec4 clip = u_physicalToClip * vec4(a_physical, 1.0);
    clip.xy += a_offsetPixels * 2.0 / u_viewportSize * clip.w;
    gl_Position = clip;
    v_face = int(a_face);
    v_border = int(a_border);
}
