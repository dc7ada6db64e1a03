// The crop box clips volume rendering: outside the box's projection the frame is the
// background, inside it the cropped-away volume in front no longer shows, rays that never met
// the cropped part give the same pixels as before, and a crop back to the whole volume gives
// the uncropped frame bit for bit. A bricked volume (ray cast from a subsampled copy) is
// clipped at the same place.
#include "gpu/offscreen_target.h"
#include "gpu/scene_renderer.h"
#include "scene/transfer_function.h"
#include "support/gl_frames.h"
#include "support/gl_test_context.h"
#include "support/scene_fixtures.h"
#include "support/synthetic_volumes.h"

#include <epoxy/gl.h>
#include <glm/gtc/matrix_transform.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <vector>

namespace isoview::test {
namespace {

using gpu::FrameParams;
using gpu::SceneRenderer;

// Frames with their alpha: the background's is 255.
using Image = RgbaFrame;

// 48^3 voxels around (23.5, 23.5, 23.5) seen along -z (the camera at +z, so high k is in
// front) through an orthographic camera: 2 pixels per voxel at 96 x 96, voxel i's centre on
// pixel column 48 + 2 (i - 23.5).
constexpr glm::uvec3 kDims{48, 48, 48};
constexpr glm::vec3 kCenter{23.5f};
constexpr glm::ivec2 kSize{96, 96};

FrameParams frontView()
{
    FrameParams p;
    p.view = glm::lookAt(kCenter + glm::vec3(0.0f, 0.0f, 100.0f), kCenter, {0.0f, 1.0f, 0.0f});
    p.projection = glm::ortho(-24.0f, 24.0f, -24.0f, 24.0f, 1.0f, 200.0f);
    p.backgroundTop = p.backgroundBottom = glm::vec3(0.0f);
    return p;
}

// The volume alone, rendered through tf: no surface, no marker.
Scene volumeScene(const TransferFunction& tf)
{
    Scene scene = noSurfaceScene();
    scene.renderMode = RenderMode::Volume;
    scene.orientationMarker = false;
    scene.transferFunction = tf;
    return scene;
}

// Gives the renderer the scene cropped to box.
void setCrop(SceneRenderer& renderer, Scene& scene, const VoxelBox& box)
{
    scene.crop = box;
    renderer.setScene(scene);
}

// A translucent red shell (radius 8..16 voxels) around an empty core: a ray through the
// centre crosses the shell twice, in front and behind.
Volume shell()
{
    return makeFloatField(kDims, [](glm::vec3 p) {
        const float r = glm::length(p - kCenter);
        return r > 8.0f && r < 16.0f ? 1.0f : 0.0f;
    });
}

TransferFunction translucentRed()
{
    const glm::vec3 red(1.0f, 0.15f, 0.1f);
    return TransferFunction({{0.4, red, 0.0f}, {0.6, red, 0.15f}});
}

constexpr glm::ivec4 kBackground{0, 0, 0, 255};

bool isBackground(const Image& image, int x, int y)
{
    return image.pixel(x, y) == kBackground;
}

class VolumeCropTest : public GlTest {};

TEST_F(VolumeCropTest, OutsideTheBoxIsBackgroundAndRaysInsideItAreUnchanged)
{
    SceneRenderer renderer;
    renderer.setVolume(shell());
    Scene scene = volumeScene(translucentRed());
    renderer.setScene(scene);
    const Image whole = renderFrame(renderer, frontView(), kSize);
    ASSERT_FALSE(isBackground(whole, 48 + 2 * 10, 48)) << "the shell must show uncropped";

    // I from 0 to 23: the box's right face (i = 23) projects to column 47.
    setCrop(renderer, scene, {{0, 0, 0}, {23, 47, 47}});
    const Image left = renderFrame(renderer, frontView(), kSize);
    std::size_t shown = 0;
    for (int y = 0; y < kSize.y; ++y) {
        for (int x = 0; x < kSize.x; ++x) {
            if (x >= 48) {
                EXPECT_TRUE(isBackground(left, x, y)) << "column " << x << " row " << y;
            } else if (x <= 45) {
                // Rays along -z through the kept half meet the same voxels as before.
                EXPECT_EQ(left.pixel(x, y), whole.pixel(x, y)) << "column " << x << " row " << y;
                shown += !isBackground(left, x, y);
            }
        }
    }
    EXPECT_GT(shown, 500u);
}

TEST_F(VolumeCropTest, CroppingTheFrontRemovesWhatWasInFront)
{
    SceneRenderer renderer;
    renderer.setVolume(shell());
    Scene scene = volumeScene(translucentRed());
    renderer.setScene(scene);
    const Image whole = renderFrame(renderer, frontView(), kSize);

    // K from 0 to 23: the front half (toward the camera) is cut away, the back half stays.
    setCrop(renderer, scene, {{0, 0, 0}, {47, 47, 23}});
    const Image back = renderFrame(renderer, frontView(), kSize);
    const glm::ivec4 c0 = whole.pixel(48, 48);
    const glm::ivec4 c1 = back.pixel(48, 48);
    // Through the centre the ray crossed the shell twice; now once: about half as red.
    EXPECT_GT(c0.r, c1.r + 20) << "whole " << c0.r << ", back half " << c1.r;
    EXPECT_GT(c1.r, 20) << "the back half of the shell must still show";
    // Outside the shell's silhouette (radius 16 voxels = 32 px) there was nothing either way.
    EXPECT_TRUE(isBackground(back, 2, 2));
    EXPECT_TRUE(isBackground(back, 93, 48));

    // A box of no depth in front of everything shows nothing at all.
    setCrop(renderer, scene, {{0, 0, 47}, {47, 47, 47}});
    const Image none = renderFrame(renderer, frontView(), kSize);
    for (int y = 0; y < kSize.y; y += 3)
        for (int x = 0; x < kSize.x; x += 3)
            ASSERT_TRUE(isBackground(none, x, y)) << "column " << x << " row " << y;
}

TEST_F(VolumeCropTest, ResetCropGivesTheUncroppedFrameBitForBit)
{
    SceneRenderer renderer;
    renderer.setVolume(shell());
    Scene scene = volumeScene(translucentRed());
    renderer.setScene(scene);
    FrameParams p = frontView();
    p.view = glm::lookAt(kCenter + glm::vec3(60.0f, 40.0f, 70.0f), kCenter, {0.0f, 1.0f, 0.0f});
    const Image before = renderFrame(renderer, p, kSize);
    setCrop(renderer, scene, {{5, 6, 7}, {30, 31, 32}});
    const Image cropped = renderFrame(renderer, p, kSize);
    EXPECT_NE(cropped.rgba, before.rgba);
    setCrop(renderer, scene, VoxelBox::whole(kDims));
    EXPECT_EQ(renderFrame(renderer, p, kSize).rgba, before.rgba);
    // A new volume forgets the crop of the scene given before it.
    setCrop(renderer, scene, {{5, 6, 7}, {30, 31, 32}});
    renderer.setVolume(shell());
    EXPECT_EQ(renderFrame(renderer, p, kSize).rgba, before.rgba);
}

TEST_F(VolumeCropTest, BrickedVolumeIsClippedAtTheSamePlace)
{
    // 48 x 48 slices: 5 x 5 fit a 256-texel texture, so 48 slices take two slabs and the ray
    // caster reads a copy subsampled by 2 (index i there is voxel 2 i here).
    SceneRenderer::Options options;
    options.maxTextureSize = 256;
    SceneRenderer renderer(options);
    renderer.setVolume(shell());
    ASSERT_GT(renderer.brickCount(), 1u);
    Scene scene = volumeScene(translucentRed());
    setCrop(renderer, scene, {{0, 0, 0}, {23, 47, 47}});
    const Image left = renderFrame(renderer, frontView(), kSize);
    std::size_t shownLeft = 0;
    for (int y = 0; y < kSize.y; ++y) {
        for (int x = 48; x < kSize.x; ++x)
            EXPECT_TRUE(isBackground(left, x, y)) << "column " << x << " row " << y;
        for (int x = 0; x < 46; ++x)
            shownLeft += !isBackground(left, x, y);
    }
    EXPECT_GT(shownLeft, 500u);
}

// Wall time of one frame, rendered and finished (glFinish), the best of `runs`.
double bestFrameMs(SceneRenderer& renderer, const FrameParams& params, glm::ivec2 size, int runs)
{
    gpu::OffscreenTarget target(size.x, size.y);
    FrameParams p = params;
    p.viewportSize = size;
    p.targetFramebuffer = framebufferOf(target);
    double best = 1e300;
    for (int i = 0; i < runs; ++i) {
        const auto start = std::chrono::steady_clock::now();
        renderer.render(p);
        glFinish();
        const std::chrono::duration<double, std::milli> ms =
            std::chrono::steady_clock::now() - start;
        best = std::min(best, ms.count());
    }
    return best;
}

TEST_F(VolumeCropTest, ACropMakesTheRaysCheaper)
{
    // Translucent everywhere (no ray ends early), unshaded: the cost is the samples taken.
    // ISOVIEW_CROP_BENCH_SIZE=256 measures a 256^3 volume instead (figures in the commit
    // message).
    const char* sizeText = std::getenv("ISOVIEW_CROP_BENCH_SIZE");
    const std::uint32_t n = sizeText ? std::uint32_t(std::max(32, std::atoi(sizeText))) : 128u;
    const float half = float(n) / 2.0f;
    SceneRenderer renderer;
    renderer.setVolume(makeFloatField({n, n, n}, [](glm::vec3 p) {
        return 0.5f + 0.25f * std::sin(0.21f * p.x) * std::cos(0.17f * p.y + 0.13f * p.z);
    }));
    Scene scene = volumeScene(
        TransferFunction({{0.0, glm::vec3(0.8f), 0.02f}, {1.0, glm::vec3(1.0f), 0.02f}}));
    renderer.setScene(scene);
    FrameParams p = frontView();
    const glm::vec3 centre(half - 0.5f);
    p.view = glm::lookAt(centre + glm::vec3(0.6f, 0.5f, 1.0f) * float(n) * 2.0f, centre,
                         {0.0f, 1.0f, 0.0f});
    p.projection =
        glm::ortho(-half * 1.2f, half * 1.2f, -half * 1.2f, half * 1.2f, 1.0f, float(n) * 8.0f);
    p.volumeShading = false;
    const glm::ivec2 size{128, 128};
    bestFrameMs(renderer, p, size, 1); // compiles and uploads
    const double whole = bestFrameMs(renderer, p, size, 2);
    // The central eighth of the volume: rays through about a quarter of the pixels, half as
    // long.
    setCrop(renderer, scene, {glm::uvec3(n / 4), glm::uvec3(n * 3 / 4 - 1)});
    const double cropped = bestFrameMs(renderer, p, size, 2);
    std::cout << n << "^3 volume, 128 x 128 frame: " << whole << " ms uncropped, " << cropped
              << " ms with the central eighth\n";
    EXPECT_LT(cropped, 0.6 * whole);
}

} // namespace
} // namespace isoview::test
