// Frames the GL tests render into an OffscreenTarget and read back: the target's framebuffer
// name for SceneParams::targetFramebuffer, and an RGBA8 read-back addressed by pixel.
#pragma once

#include "gpu/offscreen_target.h"

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
    glm::ivec3 at(int x, int y) const
    {
        const std::size_t i = (std::size_t(y) * std::size_t(width) + std::size_t(x)) * 4;
        return {rgba[i], rgba[i + 1], rgba[i + 2]};
    }
};

} // namespace isoview::test
