// Direct volume rendering: one ray per pixel through the volume in index space (voxel (i, j, k)
// at the point (i, j, k)), drawn as a full-screen triangle (fullscreen_triangle.vert).
//
// Per fragment:
//   1. The ray: the pixel's points on the near and far planes, unprojected to index space
//      (u_clipToIndex = inverse(physicalToClip * indexToPhysical), the nominal geometry).
//   2. Its extent: the slab intersection with the crop box [u_clipFirst, u_clipLast] (the whole
//      volume [0, dims - 1] uncropped), cut short at the opaque surface (u_surfaceDepth,
//      unprojected the same way), so nothing behind the surface shows.
//   3. March front to back from a per-pixel jittered start (hides wood-grain rings), sampling
//      by trilinear interpolation done here: the texture holds integers, which GL never filters.
//   4. Classify: stored value -> transfer-function lookup (u_valueToLut folds the rescale and
//      the lookup's real range into one multiply-add); opacity corrected for the step length.
//   5. Composite front to back in premultiplied colour; stop once the pixel is nearly opaque.
// Intensity projections (u_projection 1, 2, 3) replace 4 and 5: the ray keeps the maximum,
// minimum or mean of its samples, shown grey through the window (u_valueToGrey), opaque.
#include "common/flat3d_sampling.glsl"
#include "common/volume_geometry.glsl"

uniform mat4 u_clipToIndex;
uniform vec2 u_targetSize;            // pixels of the framebuffer drawn into
uniform sampler2D u_transferFunction; // N x 1 RGBA over the volume's real range
uniform vec2 u_valueToLut;            // lookup coordinate = stored * x + y
uniform sampler2D u_surfaceDepth;     // window-space depth of the surface; 1 where none
uniform float u_stepVoxels;           // ray step in index units
uniform float u_referenceLength;      // mm of ray over which a lookup opacity holds
uniform int u_maxSteps;
uniform vec3 u_clipFirst;             // crop box in index space, inside [0, dims - 1]
uniform vec3 u_clipLast;
uniform bool u_shading;
uniform int u_projection;  // 0 composite, 1 maximum, 2 minimum, 3 average (RayProjection)
uniform vec2 u_valueToGrey; // grey = stored * x + y, before clamping to [0, 1]

out vec4 o_color;

vec3 unproject(vec2 ndc, float ndcDepth)
{
    vec4 p = u_clipToIndex * vec4(ndc, ndcDepth, 1.0);
    return p.xyz / p.w;
}

// Trilinear interpolation of the 8 voxels around p (clamped to the volume).
float sampleVolume(vec3 p)
{
    ivec3 last = u_volumeDims - 1;
    p = clamp(p, vec3(0.0), vec3(last));
    ivec3 i0 = min(ivec3(floor(p)), max(last - 1, ivec3(0)));
    ivec3 i1 = min(i0 + 1, last);
    vec3 f = p - vec3(i0);
    float c000 = fetchVoxel(i0);
    float c100 = fetchVoxel(ivec3(i1.x, i0.y, i0.z));
    float c010 = fetchVoxel(ivec3(i0.x, i1.y, i0.z));
    float c110 = fetchVoxel(ivec3(i1.x, i1.y, i0.z));
    float c001 = fetchVoxel(ivec3(i0.x, i0.y, i1.z));
    float c101 = fetchVoxel(ivec3(i1.x, i0.y, i1.z));
    float c011 = fetchVoxel(ivec3(i0.x, i1.y, i1.z));
    float c111 = fetchVoxel(i1);
    float c00 = mix(c000, c100, f.x);
    float c10 = mix(c010, c110, f.x);
    float c01 = mix(c001, c101, f.x);
    float c11 = mix(c011, c111, f.x);
    return mix(mix(c00, c10, f.y), mix(c01, c11, f.y), f.z);
}

// A well-mixed integer hash of the pixel, mapped to [0, 1): the same jitter every frame, so
// still images are stable.
float pixelJitter(vec2 fragCoord)
{
    uvec2 q = uvec2(fragCoord);
    uint h = (q.x * 0x8da6b343u) ^ (q.y * 0xd8163841u);
    h ^= h >> 16;
    h *= 0x7feb352du;
    h ^= h >> 15;
    h *= 0x846ca68bu;
    h ^= h >> 16;
    return float(h >> 8) * (1.0 / 16777216.0);
}

// Headlight shading with the gradient (central differences of the interpolated field) as the
// normal; two-sided, since a density's gradient has no preferred side. Only boundaries get
// shaded: the shading fades in with the gradient's magnitude (in lookup-table units per mm), so
// the noise inside homogeneous tissue, whose gradient points anywhere, keeps its flat colour
// instead of turning into dark speckle.
vec3 shade(vec3 p, vec3 color, vec3 toEyePhysical)
{
    vec3 g = vec3(sampleVolume(p + vec3(1.0, 0.0, 0.0)) - sampleVolume(p - vec3(1.0, 0.0, 0.0)),
                  sampleVolume(p + vec3(0.0, 1.0, 0.0)) - sampleVolume(p - vec3(0.0, 1.0, 0.0)),
                  sampleVolume(p + vec3(0.0, 0.0, 1.0)) - sampleVolume(p - vec3(0.0, 0.0, 1.0)));
    vec3 n = u_gradientToPhysical * (0.5 * g);
    float len = length(n);
    if (!isFiniteValue(len) || len == 0.0) return color;
    float boundary = smoothstep(0.004, 0.03, len * abs(u_valueToLut.x));
    float facing = abs(dot(n / len, toEyePhysical));
    float specular = pow(facing, 40.0);
    vec3 shaded = color * (0.3 + 0.7 * facing) + vec3(0.25 * specular);
    return mix(color, shaded, boundary);
}

// The ray's maximum, minimum or mean sample, grey through the window; no sample (every one
// non-finite): nothing drawn.
void projectRay(vec3 origin, vec3 dir, float t, int steps)
{
    const float kHuge = 3.0e38;
    float extreme = u_projection == 2 ? kHuge : -kHuge;
    float sum = 0.0;
    int count = 0;
    for (int s = 0; s < steps; ++s, t += u_stepVoxels) {
        float value = sampleVolume(origin + dir * t);
        if (!isFiniteValue(value)) continue;
        extreme = u_projection == 2 ? min(extreme, value) : max(extreme, value);
        sum += value;
        ++count;
    }
    if (count == 0) discard;
    float value = u_projection == 3 ? sum / float(count) : extreme;
    float grey = clamp(value * u_valueToGrey.x + u_valueToGrey.y, 0.0, 1.0);
    o_color = vec4(vec3(grey), 1.0);
}

void main()
{
    vec2 uv = gl_FragCoord.xy / u_targetSize;
    vec2 ndc = uv * 2.0 - 1.0;
    vec3 origin = unproject(ndc, -1.0);
    vec3 farPoint = unproject(ndc, 1.0);
    float farT = length(farPoint - origin);
    vec3 dir = (farPoint - origin) / farT;

    // Slab test against the crop box; axes the ray runs parallel to get a huge finite inverse.
    vec3 safeDir = mix(dir, vec3(1e-20), lessThan(abs(dir), vec3(1e-20)));
    vec3 inv = 1.0 / safeDir;
    vec3 ta = (u_clipFirst - origin) * inv;
    vec3 tb = (u_clipLast - origin) * inv;
    vec3 tNear = min(ta, tb);
    vec3 tFar = max(ta, tb);
    float tEnter = max(max(tNear.x, tNear.y), max(tNear.z, 0.0));
    float tExit = min(min(min(tFar.x, tFar.y), tFar.z), farT);

    float depth = texture(u_surfaceDepth, uv).r;
    if (depth < 1.0) {
        vec3 surface = unproject(ndc, depth * 2.0 - 1.0);
        tExit = min(tExit, dot(surface - origin, dir));
    }
    if (!(tExit > tEnter)) discard;

    if (u_projection != 0) {
        float start = tEnter + pixelJitter(gl_FragCoord.xy) * u_stepVoxels;
        projectRay(origin, dir, start,
                   min(int(ceil((tExit - start) / u_stepVoxels)), u_maxSteps));
        return;
    }

    // Opacity correction: a lookup opacity a holds over u_referenceLength mm; a step of s mm
    // lets 1 - (1 - a)^(s / u_referenceLength) through, so the step size leaves the image be.
    mat3 linear = mat3(u_indexToPhysical);
    vec3 dirPhysical = linear * dir;
    float stepPhysical = u_stepVoxels * length(dirPhysical);
    float opacityExponent = stepPhysical / u_referenceLength;
    vec3 toEye = -normalize(dirPhysical);

    float t = tEnter + pixelJitter(gl_FragCoord.xy) * u_stepVoxels;
    int steps = min(int(ceil((tExit - t) / u_stepVoxels)), u_maxSteps);
    vec4 acc = vec4(0.0);
    for (int s = 0; s < steps; ++s, t += u_stepVoxels) {
        vec3 p = origin + dir * t;
        float value = sampleVolume(p);
        if (!isFiniteValue(value)) continue;
        vec4 tf = texture(u_transferFunction, vec2(value * u_valueToLut.x + u_valueToLut.y, 0.5));
        if (tf.a <= 0.0) continue;
        float alpha = 1.0 - pow(1.0 - min(tf.a, 1.0), opacityExponent);
        vec3 color = u_shading ? shade(p, tf.rgb, toEye) : tf.rgb;
        acc.rgb += (1.0 - acc.a) * alpha * color;
        acc.a += (1.0 - acc.a) * alpha;
        if (acc.a > 0.99) break; // early ray termination
    }
    o_color = acc;
}
