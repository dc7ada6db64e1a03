// What the GPU engine reports about the GPU it runs on: the context's capabilities and the
// memory the volume and its pyramid take. Plain data, no GL types: a facade header that the
// window and the CLI read.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace isoview::gpu {

struct GlCapabilities {
    int major = 0;
    int minor = 0;
    std::string renderer; // GL_RENDERER, e.g. "llvmpipe (LLVM 15.0.6, 256 bits)"
    std::string vendor;
    std::string version; // GL_VERSION string
    std::uint32_t maxTextureSize = 0;
    // GL 4.3 compute shaders: the extraction runs in compute passes sized on the GPU (indirect
    // dispatch and indexed indirect draw); without them, transform feedback with the counts
    // read back once per isovalue (the 3.3 path).
    bool computeExtraction = false;
    // KHR_debug: object labels and the debug message callback.
    bool debugOutput = false;
    // Mesa's llvmpipe or softpipe: the CPU draws, binning on the calling thread and rasterising
    // on worker threads once flushed (see drawIndexedTriangles in surface_buffers.h).
    bool softwareRasterizer = false;

    std::string summary() const; // "renderer, OpenGL x.y"
};

// Options that narrow what the engine uses below what the context offers, so that the 3.3
// floor can be tested on a 4.x driver.
struct GlFeatureLimits {
    bool limitToGl33 = false;
};

struct GpuMemoryUse {
    std::size_t volumeTextureBytes = 0;
    std::size_t pyramidBytes = 0; // both pyramids
    std::size_t meshBytes = 0;    // the welded mesh's vertex and index buffers and, on the compute
                                  // path, its per-cell first-vertex index (capacity)
    std::uint64_t voxels = 0;
};

} // namespace isoview::gpu
