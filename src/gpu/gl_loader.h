// The one seam through which the engine reaches OpenGL. Entry points are resolved by libepoxy
// from whatever context is current (EGL for the CLI, tests and benchmarks; the window system's
// context in the viewer), so this file is the only place that knows how.
//
// GL side effects: none beyond glGet* queries. Thread: the thread that owns the context.
#pragma once

#include "core/error.h"
#include "gpu/gpu_info.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace isoview::gpu {

// Queries the current context. Throws GlError when no context is current or it is older than
// OpenGL 3.3 core.
GlCapabilities queryCapabilities(const GlFeatureLimits& limits = {});

// Memory the GPU can still give, in bytes, where it says: NVIDIA's GL_NVX_gpu_memory_info,
// AMD's GL_ATI_meminfo, or, for Mesa's software renderers (whose textures live in system
// memory), the system's available memory. nullopt when nothing says. Needs a current context.
std::optional<std::uint64_t> availableGpuMemory();

// Routes KHR_debug messages into the "gl" logger (errors as errors, the rest as debug). Does
// nothing when the context lacks KHR_debug.
void installDebugMessageLogger();

// Throws GlError with `what` and the pending glGetError codes, if any. For setup paths only:
// glGetError synchronises with the driver, so the per-frame path never calls it.
void throwOnGlError(const char* what);

// The driver could not allocate GPU memory (GL_OUT_OF_MEMORY after glTexImage* or
// glBufferData). The message names what was being allocated and its size; SceneRenderer adds
// the volume's figures and what the user can do.
class GpuMemoryError : public GlError {
public:
    using GlError::GlError;
};

// Call right after allocations (glTexImage*, glBufferData), before anything uses them: throws
// GpuMemoryError naming `what` and `bytes` when the driver reports GL_OUT_OF_MEMORY, GlError
// with the codes for any other pending error. Setup paths only, like throwOnGlError.
void throwOnGlAllocationError(std::string_view what, std::uint64_t bytes);

// A size for messages, in decimal units: "850 kB", "5.6 MB", "1.25 GB".
std::string formatBytes(std::uint64_t bytes);

} // namespace isoview::gpu
