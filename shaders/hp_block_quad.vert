// The block-limited build passes: one instance per block the isovalue can cross (the CPU lists
// them from the blocks' value ranges), each drawing its square of texels at the level being
// written (8 x 8 at the base, 4 x 4, 2 x 2, then one texel at the block level), so fragments
// run only where a surface can be. Four vertices, a triangle strip.
layout(location = 0) in uint a_block; // block index, one per instance

uniform int u_blocksPerRow;
uniform int u_blockSide;     // texels per block side at the level written
uniform vec2 u_targetExtent; // texels of the level written (the viewport)

void main()
{
    ivec2 corner = ivec2(gl_VertexID & 1, gl_VertexID >> 1);
    int block = int(a_block);
    ivec2 blockTexel = ivec2(block % u_blocksPerRow, block / u_blocksPerRow);
    vec2 p = vec2((blockTexel + corner) * u_blockSide);
    gl_Position = vec4(p / u_targetExtent * 2.0 - 1.0, 0.0, 1.0);
}
