// The last build pass: one vertex sums the top levels of both pyramids and writes the
// extraction record (gpu/extraction_record.h) through transform feedback: the indexed draw
// command, the work-group counts of the two compute passes and the true counts. The commands
// cover at most the capacity of the mesh buffers; when either count exceeds its buffer the draw
// is empty rather than wrong, and the engine grows the buffers and runs again.
#include "common/vertex_pyramid.glsl"

uniform uint u_vertexCapacity;
uniform uint u_indexCapacity;

flat out uvec4 v_record0;
flat out uvec4 v_record1;
flat out uvec4 v_record2;
flat out uvec4 v_record3;

// Work groups of 64 for `items`, as (x, y) with x <= 65535 (the guaranteed limit).
uvec2 workGroups(uint items)
{
    uint groups = (items + 63u) / 64u;
    uint perRow = 32768u;
    return uvec2(min(groups, perRow), (groups + perRow - 1u) / perRow);
}

void main()
{
    uint indices = hpTotal(hpCounts(u_hpLevelCount - 1, ivec2(0)));
    uint vertices = hpTotal(vpCounts(u_hpLevelCount - 1, ivec2(0)));
    bool fits = indices <= u_indexCapacity && vertices <= u_vertexCapacity;
    uvec2 vertexGroups = workGroups(min(vertices, u_vertexCapacity));
    uvec2 triangleGroups = workGroups(min(indices, u_indexCapacity) / 3u);
    // {count, instanceCount, firstIndex, baseVertex}, {baseInstance, vertex groups x, y, 1},
    // {triangle groups x, y, 1, index count}, {vertex count, 0, 0, 0}
    v_record0 = uvec4(fits ? indices : 0u, 1u, 0u, 0u);
    v_record1 = uvec4(0u, vertexGroups, 1u);
    v_record2 = uvec4(triangleGroups, 1u, indices);
    v_record3 = uvec4(vertices, 0u, 0u, 0u);
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
