// A framebuffer with an RGBA8 colour and a 24-bit depth attachment, for rendering without a
// window (benchmarks, image tests, screenshots from the CLI). Part of the GPU facade: no GL types
// here; framebuffer() is the name FrameParams::targetFramebuffer takes.
//
// Contract: construction, use and destruction need the creating context current.
// GL side effects: bind() binds the framebuffer and sets the viewport (not restored: the caller
// owns the frame); readPixels() waits for the GPU and restores what it changes.
//
// Example:
//   OffscreenTarget target(800, 600);
//   scene.render({..., .viewportSize = {800, 600}, .targetFramebuffer = target.framebuffer()});
//   std::vector<std::uint8_t> rgba = target.readPixels();
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace isoview::gpu {

class OffscreenTarget {
public:
    // Throws GlError when the framebuffer is incomplete.
    OffscreenTarget(int width, int height);
    ~OffscreenTarget();
    OffscreenTarget(OffscreenTarget&&) noexcept;
    OffscreenTarget& operator=(OffscreenTarget&&) noexcept;

    void bind() const;
    unsigned int framebuffer() const;
    int width() const { return m_width; }
    int height() const { return m_height; }
    // RGBA8 pixels, bottom row first.
    std::vector<std::uint8_t> readPixels() const;
    // The same pixels as 32-bit words 0xAARRGGBB (bytes B, G, R, A on little-endian machines,
    // the layout of the window systems' 32-bit images), bottom row first, `stride` bytes from
    // one row to the next in `out` (at least width * 4; out holds height rows).
    void readPixelsBgra(std::uint8_t* out, std::size_t stride) const;

private:
    struct Attachments;
    int m_width;
    int m_height;
    std::unique_ptr<Attachments> m_attachments;
};

// Blocks until the GPU has finished all submitted work (glFinish). For benchmarks and tests;
// never in the frame loop.
void finishGpuWork();

} // namespace isoview::gpu
