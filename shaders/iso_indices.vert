// Triangle indices, OpenGL 3.3 path: drawn as points with the rasterizer off, one per triangle,
// its three indices captured by transform feedback.
#include "common/triangle_indices.glsl"

flat out uvec3 v_indices;

void main()
{
    v_indices = triangleIndices(uint(gl_VertexID));
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
