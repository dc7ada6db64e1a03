// Resolves weighted blended order-independent transparency (McGuire & Bavoil 2013) over the
// opaque frame, blended as SRC_ALPHA, ONE_MINUS_SRC_ALPHA: the weighted average colour of the
// translucent layers, covering 1 - revealage of what lies behind them.
uniform sampler2D u_accumulation; // rgb: sum of colour * alpha * weight; a: product of 1 - alpha
uniform sampler2D u_weight;       // r: sum of alpha * weight
out vec4 o_color;

void main()
{
    ivec2 texel = ivec2(gl_FragCoord.xy);
    vec4 accumulation = texelFetch(u_accumulation, texel, 0);
    float revealage = accumulation.a;
    if (revealage >= 1.0) discard; // no translucent layer here
    float weight = texelFetch(u_weight, texel, 0).r;
    o_color = vec4(accumulation.rgb / max(weight, 1e-5), 1.0 - revealage);
}
