// Shades the extracted surface: a headlight with diffuse and specular terms. Back faces (seen
// when the camera is inside the surface) are lit with the flipped normal in a darker tone.
//
// Built twice. Opaque, it writes the colour. With ISOVIEW_TRANSLUCENT defined it writes the
// accumulation of weighted blended order-independent transparency (McGuire & Bavoil 2013),
// blended by the caller as colour ONE,ONE and alpha ZERO,ONE_MINUS_SRC_ALPHA: target 0 gathers
// the weighted premultiplied colour and the revealage (product of 1 - alpha), target 1 the
// weights' sum. (Two programs rather than a branch: software rasterizers pay for both sides.)
in vec3 v_normal;
#ifdef ISOVIEW_LABELS
flat in vec4 v_labelColor; // the label's colour and opacity (isosurface.vert)
#endif

uniform mat3 u_physicalToViewNormal;
uniform vec3 u_surfaceColor;
#ifdef ISOVIEW_TRANSLUCENT
uniform float u_opacity;
layout(location = 0) out vec4 o_color;
layout(location = 1) out vec4 o_weight;
#else
out vec4 o_color;
#endif

void main()
{
    vec3 n = u_physicalToViewNormal * v_normal;
    float len = length(n);
    n = len > 0.0 ? n / len : vec3(0.0, 0.0, 1.0);
#ifdef ISOVIEW_LABELS
    vec3 base = v_labelColor.rgb;
#else
    vec3 base = u_surfaceColor;
#endif
    if (!gl_FrontFacing) {
        n = -n;
        base *= 0.6;
    }
    vec3 toEye = vec3(0.0, 0.0, 1.0);
    float diffuse = max(dot(n, toEye), 0.0);
    float specular = pow(max(dot(reflect(-toEye, n), toEye), 0.0), 32.0);
    vec3 shaded = base * (0.2 + 0.8 * diffuse) + vec3(0.25 * specular);
#ifdef ISOVIEW_TRANSLUCENT
    // The paper's depth weight (its equation 10): nearer layers count more where several
    // overlap; clamped so that half floats hold the sums.
#ifdef ISOVIEW_LABELS
    float alpha = v_labelColor.a;
#else
    float alpha = u_opacity;
#endif
    float weight = alpha * clamp(3e3 * pow(1.0 - gl_FragCoord.z, 3.0), 1e-2, 3e3);
    o_color = vec4(shaded * weight, alpha);
    o_weight = vec4(weight, 0.0, 0.0, 0.0);
#else
    o_color = vec4(shaded, 1.0);
#endif
}
