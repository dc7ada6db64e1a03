// The one seam through which the engine reaches OpenGL. Entry points are resolved by libepoxy
// from whatever context is current (EGL for the CLI, tests and benchmarks; the window system's
// context in the viewer), so this file is the only place that knows how.
//
// GL side effects: none beyond glGet* queries. Thread: the thread that owns the context.
#pragma once

#include <cstdint>
#include <string>

namespace isoview::gl {

struct GlCapabilities {
    int major = 0;
    int minor = 0;
    std::string renderer; // GL_RENDERER, e.g. "llvmpipe (LLVM 15.0.6, 256 bits)"
    std::string vendor;
    std::string version;  // GL_VERSION string
    std::uint32_t maxTextureSize = 0;
    // GL 4.0 indirect draws: the vertex count stays on the GPU (no read-back per frame).
    bool indirectDraw = false;
    // KHR_debug: object labels and the debug message callback.
    bool debugOutput = false;

    std::string summary() const; // "renderer, OpenGL x.y"
};

// Options that narrow what the engine uses below what the context offers, so that the 3.3
// floor can be tested on a 4.x driver.
struct GlFeatureLimits {
    bool limitToGl33 = false;
};

// Queries the current context. Throws GlError when no context is current or it is older than
// OpenGL 3.3 core.
GlCapabilities queryCapabilities(const GlFeatureLimits& limits = {});

// Routes KHR_debug messages into the "gl" logger (errors as errors, the rest as debug). Does
// nothing when the context lacks KHR_debug.
void installDebugMessageLogger();

// Throws GlError with `what` and the pending glGetError codes, if any. For setup paths only:
// glGetError synchronises with the driver, so the per-frame path never calls it.
void throwOnGlError(const char* what);

} // namespace isoview::gl
