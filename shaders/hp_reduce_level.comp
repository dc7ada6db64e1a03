// The build's reduction above the block level, OpenGL 4.3 path: level l+1 of both pyramids
// from level l, one invocation per texel of level l+1, the same sums as hp_reduce.frag. A
// compute dispatch costs a software rasteriser far less than a render pass (framebuffer switch,
// triangle setup, binning) for these small levels. HP_TARGET_FORMAT (rgba16ui or rgba32ui) is
// the written level's storage format.
#include "common/histopyramid_channels.glsl"

layout(local_size_x = 8, local_size_y = 8) in;

uniform usampler2D u_source;       // the triangle pyramid, level l at mip u_sourceLod
uniform usampler2D u_vertexSource; // the vertex pyramid, the same
uniform int u_sourceLod;
uniform ivec2 u_targetExtent;
layout(binding = 0, HP_TARGET_FORMAT) writeonly restrict uniform uimage2D u_target;
layout(binding = 1, HP_TARGET_FORMAT) writeonly restrict uniform uimage2D u_vertexTarget;

uint total(uvec4 v)
{
    return v.x + v.y + v.z + v.w;
}

void main()
{
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (any(greaterThanEqual(p, u_targetExtent))) return;
    uvec4 triangles;
    uvec4 vertices;
    for (int c = 0; c < 4; ++c) {
        ivec2 child = 2 * p + channelOffset(c);
        triangles[c] = total(texelFetch(u_source, child, u_sourceLod));
        vertices[c] = total(texelFetch(u_vertexSource, child, u_sourceLod));
    }
    imageStore(u_target, p, triangles);
    imageStore(u_vertexTarget, p, vertices);
}
