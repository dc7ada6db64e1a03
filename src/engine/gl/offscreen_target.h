// A framebuffer with an RGBA8 colour and a 24-bit depth attachment, for rendering without a
// window (benchmarks, image tests, screenshots from the CLI).
//
// GL side effects: bind() binds the framebuffer and sets the viewport (not restored: the caller
// owns the frame); readPixels() waits for the GPU.
#pragma once

#include "engine/gl/gl_objects.h"

#include <cstdint>
#include <vector>

namespace isoview::gl {

class OffscreenTarget {
public:
    // Throws GlError when the framebuffer is incomplete.
    OffscreenTarget(int width, int height);

    void bind() const;
    int width() const { return m_width; }
    int height() const { return m_height; }
    // RGBA8 pixels, bottom row first.
    std::vector<std::uint8_t> readPixels() const;

private:
    int m_width;
    int m_height;
    Texture m_color;
    Texture m_depth;
    Framebuffer m_framebuffer;
};

// Blocks until the GPU has finished all submitted work (glFinish). For benchmarks and tests;
// never in the frame loop.
void finishGpuWork();

} // namespace isoview::gl
