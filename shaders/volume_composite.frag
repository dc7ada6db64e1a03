// Blends the ray caster's reduced-resolution image (premultiplied colour) over the full-size
// frame, upscaled by the sampler's linear filtering; blended with (ONE, ONE_MINUS_SRC_ALPHA).
uniform sampler2D u_image;
uniform vec2 u_targetSize;

out vec4 o_color;

void main()
{
    o_color = texture(u_image, gl_FragCoord.xy / u_targetSize);
}
