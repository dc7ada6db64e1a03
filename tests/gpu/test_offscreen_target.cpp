// The offscreen target's two read-backs: RGBA bytes, and the window system's 32-bit words
// 0xAARRGGBB into rows of a caller's stride (what the viewer's render thread reads its frames
// into). Both give the same pixels, bottom row first, and the BGRA read writes nothing past
// each row's width.
#include "gpu/offscreen_target.h"
#include "support/gl_frames.h"
#include "support/gl_test_context.h"

#include <epoxy/gl.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace isoview::test {
namespace {

class OffscreenTargetTest : public GlTest {};

// A different colour in every pixel (scissored clears), so that a swapped channel, a mirrored
// row order or a wrong stride all show.
void paintEveryPixel(gpu::OffscreenTarget& target)
{
    glBindFramebuffer(GL_FRAMEBUFFER, framebufferOf(target));
    glViewport(0, 0, target.width(), target.height());
    glEnable(GL_SCISSOR_TEST);
    for (int y = 0; y < target.height(); ++y) {
        for (int x = 0; x < target.width(); ++x) {
            glScissor(x, y, 1, 1);
            glClearColor(float(10 + 20 * x) / 255.0f, float(200 - 30 * y) / 255.0f,
                         float(7 * (x + y)) / 255.0f, float(255 - x) / 255.0f);
            glClear(GL_COLOR_BUFFER_BIT);
        }
    }
    glDisable(GL_SCISSOR_TEST);
}

TEST_F(OffscreenTargetTest, TheBgraReadBackHasTheRgbaPixelsInWindowSystemWords)
{
    gpu::OffscreenTarget target(5, 3); // an odd width: rows are not 4-pixel aligned
    paintEveryPixel(target);
    const std::vector<std::uint8_t> rgba = target.readPixels();
    ASSERT_EQ(rgba.size(), 5u * 3u * 4u);
    // Bottom row first: pixel (x, y) was cleared at GL's row y.
    EXPECT_EQ(rgba[(1 * 5 + 2) * 4 + 0], 10 + 20 * 2);
    EXPECT_EQ(rgba[(1 * 5 + 2) * 4 + 1], 200 - 30 * 1);

    const std::size_t stride = 5 * 4 + 12; // padding after each row, as image rows may have
    std::vector<std::uint8_t> words(stride * 3, 0xAB);
    target.readPixelsBgra(words.data(), stride);
    for (int y = 0; y < 3; ++y) {
        for (int x = 0; x < 5; ++x) {
            const std::uint8_t* in = &rgba[std::size_t(y * 5 + x) * 4];
            std::uint32_t word = 0;
            std::memcpy(&word, &words[std::size_t(y) * stride + std::size_t(x) * 4], 4);
            const std::uint32_t expected = (std::uint32_t(in[3]) << 24) |
                                           (std::uint32_t(in[0]) << 16) |
                                           (std::uint32_t(in[1]) << 8) | std::uint32_t(in[2]);
            EXPECT_EQ(word, expected) << "pixel " << x << ", " << y;
        }
        for (std::size_t pad = 5 * 4; pad < stride; ++pad)
            EXPECT_EQ(words[std::size_t(y) * stride + pad], 0xAB) << "row " << y << " overran";
    }
}

} // namespace
} // namespace isoview::test
