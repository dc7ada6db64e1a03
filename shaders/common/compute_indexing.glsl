// Compute passes of the extraction (OpenGL 4.3): one invocation per item, items numbered across
// a 2D grid of 64-wide work groups (the x count of groups is capped at 65535), and the counts
// the build wrote on the GPU (the extraction record, binding 1).
#ifndef ISOVIEW_COMPUTE_INDEXING
#define ISOVIEW_COMPUTE_INDEXING

layout(local_size_x = 64) in;

layout(std430, binding = 1) readonly restrict buffer ExtractionRecord {
    uint record[];
};

uint invocationIndex()
{
    return (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * gl_WorkGroupSize.x +
           gl_LocalInvocationIndex;
}

#endif
