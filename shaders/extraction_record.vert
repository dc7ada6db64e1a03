// The last build pass: one vertex sums the top levels of both pyramids and writes the
// extraction record (gpu/extraction_record.h) through transform feedback: the indexed draw
// command and the true counts. The commands
// cover at most the capacity of the mesh buffers; when either count exceeds its buffer the draw
// is empty rather than wrong, and the engine grows the buffers and runs again.
#include "common/vertex_pyramid.glsl"

uniform uint u_vertexCapacity;
uniform uint u_indexCapacity;

flat out uvec4 v_record0;
flat out uvec4 v_record1;

void main()
{
    // As block_starts.comp: keys and counted edges in indices and vertex slots.
    uint indices = hpTotal(hpCounts(u_hpLevelCount - 1, ivec2(0))) * (3u / HP_KEYS_PER_TRIANGLE);
    uint vertices = hpTotal(vpCounts(u_hpLevelCount - 1, ivec2(0))) * HP_SLOTS_PER_EDGE;
    bool fits = indices <= u_indexCapacity && vertices <= u_vertexCapacity;
    // {count, instanceCount, firstIndex, baseVertex}, {baseInstance, index count, vertex count, 0}
    v_record0 = uvec4(fits ? indices : 0u, 1u, 0u, 0u);
    v_record1 = uvec4(0u, indices, vertices, 0u);
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
