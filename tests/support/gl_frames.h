// Frames the GL tests render into an OffscreenTarget and read back: the target's framebuffer
// name for FrameParams::targetFramebuffer, an RGBA8 read-back addressed by pixel, and one
// SceneRenderer frame rendered offscreen and read back.
//
// Contract: every function needs the test's GL context current (GlTest); renderFrame() creates
// and destroys its own OffscreenTarget and waits for the GPU (the read-back). Throws GlError
// where OffscreenTarget does (an incomplete framebuffer).
//
// Example:
//   const RgbaFrame frame = renderFrame(renderer, params, {96, 96});
//   EXPECT_EQ(frame.pixel(0, 0), glm::ivec4(0, 0, 0, 255));
#pragma once

#include "gpu/offscreen_target.h"
#include "gpu/scene_renderer.h"

#include <epoxy/gl.h>
#include <glm/glm.hpp>

#include <cstdint>
#include <vector>

namespace isoview::test {

// The framebuffer object the target draws into; the current binding is left as it was.
GLuint framebufferOf(const gpu::OffscreenTarget& target);

// An RGBA8 frame as OffscreenTarget::readPixels gives it: bottom row first.
struct RgbaFrame {
    int width = 0;
    int height = 0;
    std::vector<std::uint8_t> rgba;

    // The colour of pixel (x, y), counted from the bottom left, without alpha.
    glm::ivec3 at(int x, int y) const { return glm::ivec3(pixel(x, y)); }

    // The same pixel with its alpha.
    glm::ivec4 pixel(int x, int y) const
    {
        const std::size_t i = (std::size_t(y) * std::size_t(width) + std::size_t(x)) * 4;
        return {rgba[i], rgba[i + 1], rgba[i + 2], rgba[i + 3]};
    }
};

// One frame of renderer drawn into a fresh size.x x size.y OffscreenTarget and read back.
// params' viewportSize and targetFramebuffer are set here; the rest is the caller's.
RgbaFrame renderFrame(gpu::SceneRenderer& renderer, gpu::FrameParams params, glm::ivec2 size);

} // namespace isoview::test
