// The one seam through which the engine reaches OpenGL. Entry points are resolved by libepoxy
// from whatever context is current (EGL for the CLI, tests and benchmarks; the window system's
// context in the viewer), so this file is the only place that knows how.
//
// GL side effects: none beyond glGet* queries. Thread: the thread that owns the context.
#pragma once

#include "gpu/gpu_info.h"

#include <cstdint>
#include <optional>

namespace isoview::gl {

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

} // namespace isoview::gl
