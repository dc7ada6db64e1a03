// Pass 2..n of the HistoPyramid build: reduce. Each texel of level l+1 stores in channel c the
// total of child texel 2p + (c & 1, c >> 1) of level l, so the four channels are the four key
// ranges that traversal chooses between. Both pyramids are reduced in one pass: the triangle
// pyramid (o_counts) and the vertex pyramid (o_vertexCounts), which share the base level. The
// source level is bound as the only mip level of its texture (lod 0) while the level above is
// rendered, which keeps reading and writing apart. Base texels hold cases, not counts: their
// triangle vertex counts come from the case table, their welded vertex counts from the edges
// the cells own.
#include "common/histopyramid_channels.glsl"
#include "common/marching_cubes_cell.glsl"

uniform usampler2D u_source;       // triangle level l (the base: cases)
uniform usampler2D u_vertexSource; // vertex level l (unused when l is the base)
uniform bool u_sourceIsBase;
// Level 2: u_source is the base, since the triangle pyramid stores no level 1; each child's
// triangle count is the sum of its four base texels'.
uniform bool u_trianglesFromBase;
layout(location = 0) out uvec4 o_counts;
layout(location = 1) out uvec4 o_vertexCounts;

uint total(uvec4 v)
{
    return v.x + v.y + v.z + v.w;
}

uint keysOfLevel1Texel(ivec2 t)
{
    uint keys = 0u;
    for (int c = 0; c < 4; ++c)
        keys += total(caseVertexCounts(texelFetch(u_source, 2 * t + channelOffset(c), 0)));
    return keys;
}

void main()
{
    ivec2 first = 2 * ivec2(gl_FragCoord.xy);
    // The four children lie in one block and one slice of it, two cells apart per texel, so
    // their first cells follow from the first child's (which costs integer divisions).
    ivec3 firstCell = u_sourceIsBase ? firstCellOfBaseTexel(first) : ivec3(0);
    for (int c = 0; c < 4; ++c) {
        ivec2 child = first + channelOffset(c);
        uvec4 v = texelFetch(u_source, child, 0);
        if (u_sourceIsBase) {
            o_counts[c] = total(caseVertexCounts(v));
            ivec3 childCell = firstCell + ivec3(2 * channelOffset(c), 0);
            o_vertexCounts[c] = total(cellVertexCounts(v, childCell));
        } else if (u_trianglesFromBase) {
            o_counts[c] = keysOfLevel1Texel(child);
            o_vertexCounts[c] = total(texelFetch(u_vertexSource, child, 0));
        } else {
            o_counts[c] = total(v);
            o_vertexCounts[c] = total(texelFetch(u_vertexSource, child, 0));
        }
    }
}
