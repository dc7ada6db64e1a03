// Compute passes of the extraction (OpenGL 4.3) with one invocation per item: items numbered
// across a 2D grid of 64-wide work groups (the x count of groups is capped at 65535).
#ifndef ISOVIEW_COMPUTE_INDEXING
#define ISOVIEW_COMPUTE_INDEXING

layout(local_size_x = 64) in;

uint invocationIndex()
{
    return (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * gl_WorkGroupSize.x +
           gl_LocalInvocationIndex;
}

#endif
