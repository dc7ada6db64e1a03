// An OpenGL core-profile context with no window and no display server, through EGL: the GPU's
// device platform where the driver offers it (NVIDIA, Mesa), else Mesa's surfaceless platform
// (llvmpipe on machines without a GPU). The CLI, the benchmarks and the tests run the engine on
// it; rendering goes to framebuffer objects.
//
// Example:
//   HeadlessContext context;            // throws GlError when no context can be made
//   SceneRenderer scene;                // uses the context made current above
#pragma once

#include <memory>
#include <string>

namespace isoview::gpu {

class HeadlessContext {
public:
    struct Options {
        int major = 4; // the newest version asked first; falls back to 4.3, 4.0, 3.3
        int minor = 5;
        bool debug = false; // a KHR_debug context whose messages go to the "gl" logger
    };

    // Creates the context and makes it current on this thread. Throws GlError saying which EGL
    // platforms were tried and why each failed.
    HeadlessContext();
    explicit HeadlessContext(const Options& options);
    ~HeadlessContext();
    HeadlessContext(const HeadlessContext&) = delete;
    HeadlessContext& operator=(const HeadlessContext&) = delete;

    void makeCurrent();
    // Which EGL platform and device the context lives on, e.g. "EGL device (NVIDIA)".
    const std::string& platformDescription() const;

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

} // namespace isoview::gpu
