// The orientation marker's arrows, in a square corner viewport: model space is physical
// directions (unit arrows along +x, +y, +z); only the camera's rotation applies, drawn
// orthographically so the marker keeps its size.
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;
layout(location = 2) in vec3 a_color;

uniform mat3 u_rotation; // physical -> view, rotation only
uniform float u_scale;   // NDC units per unit of arrow length

out vec3 v_normal; // view space
out vec3 v_color;

void main()
{
    vec3 p = u_rotation * a_position;
    v_normal = u_rotation * a_normal;
    v_color = a_color;
    // View space looks along -z: nearer points (larger z) get smaller depth.
    gl_Position = vec4(p.xy * u_scale, -p.z * u_scale * 0.5, 1.0);
}
