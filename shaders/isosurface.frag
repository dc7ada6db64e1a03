// Shades the extracted surface: a headlight with diffuse and specular terms. Back faces (seen
// when the camera is inside the surface) are lit with the flipped normal in a darker tone.
in vec3 v_normal;

uniform mat3 u_physicalToViewNormal;
uniform vec3 u_surfaceColor;
out vec4 o_color;

void main()
{
    vec3 n = u_physicalToViewNormal * v_normal;
    float len = length(n);
    n = len > 0.0 ? n / len : vec3(0.0, 0.0, 1.0);
    vec3 base = u_surfaceColor;
    if (!gl_FrontFacing) {
        n = -n;
        base *= 0.6;
    }
    vec3 toEye = vec3(0.0, 0.0, 1.0);
    float diffuse = max(dot(n, toEye), 0.0);
    float specular = pow(max(dot(reflect(-toEye, n), toEye), 0.0), 32.0);
    o_color = vec4(base * (0.2 + 0.8 * diffuse) + vec3(0.25 * specular), 1.0);
}
