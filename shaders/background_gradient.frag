// The viewer's backdrop: a vertical gradient from u_bottom to u_top, dithered by just under half
// an 8-bit step so that it shows no bands on large screens (and exact colours stay exact).
uniform vec3 u_top;
uniform vec3 u_bottom;
uniform float u_height; // pixels

out vec4 o_color;

float dither(vec2 fragCoord)
{
    uvec2 q = uvec2(fragCoord);
    uint h = (q.x * 0x27d4eb2du) ^ (q.y * 0x165667b1u);
    h ^= h >> 15;
    h *= 0x2c1b3c6du;
    h ^= h >> 12;
    return (float(h & 0xffffu) / 65535.0 - 0.5) * (0.98 / 255.0);
}

void main()
{
    float t = clamp(gl_FragCoord.y / u_height, 0.0, 1.0);
    vec3 color = mix(u_bottom, u_top, t * t * (3.0 - 2.0 * t));
    o_color = vec4(color + vec3(dither(gl_FragCoord.xy)), 1.0);
}
