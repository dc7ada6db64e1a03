// The last build pass: one vertex sums the top level and writes a DrawArraysIndirectCommand
// {count, instanceCount, first, baseInstance} through transform feedback, so the extraction
// draw takes its vertex count from GPU memory without the CPU waiting for it.
#include "common/histopyramid_traverse.glsl"

flat out uint v_count;
flat out uint v_instanceCount;
flat out uint v_first;
flat out uint v_baseInstance;

void main()
{
    v_count = hpTotal(hpCounts(u_hpLevelCount - 1, ivec2(0)));
    v_instanceCount = 1u;
    v_first = 0u;
    v_baseInstance = 0u;
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
