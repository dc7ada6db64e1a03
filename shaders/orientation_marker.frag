// Shades the orientation marker with a headlight, so the arrows read as solid shapes.
in vec3 v_normal;
in vec3 v_color;

out vec4 o_color;

void main()
{
    float len = length(v_normal);
    vec3 n = len > 0.0 ? v_normal / len : vec3(0.0, 0.0, 1.0);
    float diffuse = abs(n.z);
    float specular = pow(diffuse, 24.0);
    o_color = vec4(v_color * (0.35 + 0.65 * diffuse) + vec3(0.25 * specular), 1.0);
}
