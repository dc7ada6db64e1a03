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
    // Only the view-space normal's z matters under a headlight on the view axis: the diffuse
    // term is n.z, and the reflected eye ray's z is 2 n.z^2 - 1.
    vec3 n = u_physicalToViewNormal * v_normal;
    float len2 = dot(n, n);
    float nz = len2 > 0.0 ? n.z * inversesqrt(len2) : 1.0;
#ifdef ISOVIEW_LABELS
    vec3 base = v_labelColor.rgb;
#else
    vec3 base = u_surfaceColor;
#endif
    if (!gl_FrontFacing) {
        nz = -nz;
        base *= 0.6;
    }
    float diffuse = max(nz, 0.0);
    // pow(r, 32.0) as five squarings: software rasterisers run pow as exp2(log2(r) * 32), far
    // dearer per fragment.
    float r = max(2.0 * nz * nz - 1.0, 0.0);
    r *= r;
    r *= r;
    r *= r;
    r *= r;
    float specular = r * r;
    vec3 shaded = base * (0.2 + 0.8 * diffuse) + vec3(0.25 * specular);
#ifdef ISOVIEW_TRANSLUCENT
    // The paper's depth weight (its equation 10): nearer layers count more where several
    // overlap; clamped so that half floats hold the sums.
#ifdef ISOVIEW_LABELS
    float alpha = v_labelColor.a;
#else
    float alpha = u_opacity;
#endif
    float nearness = 1.0 - gl_FragCoord.z;
    float weight = alpha * clamp(3e3 * nearness * nearness * nearness, 1e-2, 3e3);
    o_color = vec4(shaded * weight, alpha);
    o_weight = vec4(weight, 0.0, 0.0, 0.0);
#else
    o_color = vec4(shaded, 1.0);
#endif
}
