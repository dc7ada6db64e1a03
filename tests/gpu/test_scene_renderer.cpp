// The scene renderer against answers known without it: the ray caster's silhouette of an opaque
// sphere is the isosurface's, a surface hides the volume behind it but not the volume in front
// of it, the step and resolution levers leave the image alone, the marker points where the
// axes point, one extraction serves any number of isovalue changes, a surface beyond the memory
// budget says why it is not drawn, odd sizes, every sampler type, the GL state the host had
// before a frame, a transparent background, the intensity projections (MIP, MinIP, average)
// pixel by pixel, a drag's half-resolution preview, and a GPU's drag frame drawn without its
// counts.
#include "core/error.h"
#include "extraction/cpu_marching_cubes.h"
#include "gpu/gl_loader.h"
#include "gpu/offscreen_target.h"
#include "gpu/scene_renderer.h"
#include "scene/orientation_marker_layout.h"
#include "scene/transfer_function.h"
#include "support/gl_frames.h"
#include "support/gl_test_context.h"
#include "support/scene_fixtures.h"
#include "support/synthetic_volumes.h"
#include "volume/volume_slab.h"

#include <epoxy/gl.h>
#include <glm/gtc/matrix_transform.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <numbers>
#include <vector>

namespace isoview::test {
namespace {

using gpu::FrameParams;
using gpu::SceneRenderer;

// Frames with their alpha: the background's is 255.
using Image = RgbaFrame;

// The synthetic volumes are 48^3 voxels around (23.5, 23.5, 23.5), seen along -z through an
// orthographic camera that maps 48 units onto the image: 2 pixels per voxel at 96 x 96.
constexpr glm::ivec2 kImageSize{96, 96};
constexpr glm::vec3 kCenter{23.5f};
constexpr float kPixelsPerVoxel = 2.0f;

FrameParams frontView()
{
    FrameParams p;
    p.view = glm::lookAt(kCenter + glm::vec3(0.0f, 0.0f, 100.0f), kCenter, {0.0f, 1.0f, 0.0f});
    p.projection = glm::ortho(-24.0f, 24.0f, -24.0f, 24.0f, 1.0f, 200.0f);
    p.backgroundTop = p.backgroundBottom = glm::vec3(0.0f);
    return p;
}

// What frontView() is shown with: one surface at isovalue, drawn in mode with the transfer
// function, without the orientation marker.
Scene frontScene(double isovalue, RenderMode mode, const TransferFunction& tf = {})
{
    Scene scene = oneSurfaceScene(isovalue);
    scene.renderMode = mode;
    scene.transferFunction = tf;
    scene.orientationMarker = false;
    return scene;
}

// The frame of scene drawn in mode.
RgbaFrame renderMode(SceneRenderer& renderer, Scene scene, RenderMode mode,
                     const FrameParams& params, glm::ivec2 size)
{
    scene.renderMode = mode;
    renderer.setScene(scene);
    return renderFrame(renderer, params, size);
}

// A transfer function whose opacity switches on at `threshold`: transparent below, opaque white
// from the threshold up.
TransferFunction opaqueAbove(double threshold)
{
    return TransferFunction(
        {{threshold - 0.05, glm::vec3(1.0f), 0.0f}, {threshold, glm::vec3(1.0f), 1.0f}});
}

// The pixels within `radius` pixels of the image centre.
template <class F> void forDisc(const Image& image, float radius, F f)
{
    const glm::vec2 c(float(image.width) * 0.5f, float(image.height) * 0.5f);
    for (int y = 0; y < image.height; ++y)
        for (int x = 0; x < image.width; ++x)
            if (glm::length(glm::vec2(float(x) + 0.5f, float(y) + 0.5f) - c) <= radius) f(x, y);
}

int maxChannelDifference(glm::ivec4 a, glm::ivec4 b)
{
    const glm::ivec4 d = glm::abs(a - b);
    return std::max({d.r, d.g, d.b});
}

double meanDifference(const Image& a, const Image& b)
{
    double sum = 0.0;
    for (std::size_t i = 0; i < a.rgba.size(); ++i)
        if (i % 4 != 3) sum += std::abs(int(a.rgba[i]) - int(b.rgba[i]));
    return sum / (double(a.width) * a.height * 3.0);
}

// Pixels where some channel differs by more than `threshold`.
std::size_t countDifferent(const Image& a, const Image& b, int threshold)
{
    std::size_t n = 0;
    for (int y = 0; y < a.height; ++y)
        for (int x = 0; x < a.width; ++x)
            if (maxChannelDifference(a.pixel(x, y), b.pixel(x, y)) > threshold) ++n;
    return n;
}

class SceneRendererTest : public GlTest {};

TEST_F(SceneRendererTest, EveryProgramRunsForEverySamplerType)
{
    SceneRenderer renderer;
    const std::array<Volume, 3> volumes = {
        makeTypedVolume<std::uint16_t>({20, 18, 16},
                                       [](auto i, auto j, auto k) { return (i + j + k) * 10; }),
        makeTypedVolume<std::int16_t>(
            {20, 18, 16}, [](auto i, auto j, auto k) { return int(i + j + k) * 10 - 200; }),
        makeSphere({20, 18, 16}, glm::vec3(9.5f, 8.5f, 7.5f), 6.0f)};
    for (const Volume& volume : volumes) {
        SCOPED_TRACE(scalarTypeName(volume.type()));
        ASSERT_NO_THROW(renderer.setVolume(volume));
        const ValueRange range = volume.storedRange();
        Scene scene = oneSurfaceScene(float((range.min + range.max) * 0.5));
        scene.transferFunction = opaqueAbove((range.min + range.max) * 0.5);
        for (RenderMode mode :
             {RenderMode::Surface, RenderMode::Volume, RenderMode::SurfaceAndVolume}) {
            FrameParams p;
            p.view = glm::lookAt(glm::vec3(40.0f, 30.0f, 50.0f), glm::vec3(10.0f), {0, 1, 0});
            p.projection = glm::perspective(0.6f, 1.0f, 1.0f, 200.0f);
            p.volumeResolutionScale = mode == RenderMode::Volume ? 0.5f : 1.0f;
            renderMode(renderer, scene, mode, p, {32, 32});
        }
        EXPECT_NO_THROW(gpu::throwOnGlError("rendering every mode"));
    }
}

TEST_F(SceneRendererTest, OpaqueVolumeSilhouetteIsTheIsosurfaceSilhouette)
{
    constexpr float radius = 16.0f;
    SceneRenderer renderer;
    renderer.setVolume(makeSphere({48, 48, 48}, kCenter, radius));
    const Scene scene = frontScene(0.0f, RenderMode::Surface, opaqueAbove(0.0));

    const Image surface = renderMode(renderer, scene, RenderMode::Surface, frontView(), kImageSize);
    FrameParams volumeParams = frontView();
    volumeParams.volumeShading = false; // white where opaque: the mask is the alpha
    const Image volume = renderMode(renderer, scene, RenderMode::Volume, volumeParams, kImageSize);

    std::size_t surfacePixels = 0;
    std::size_t volumePixels = 0;
    std::size_t disagreeing = 0;
    for (int y = 0; y < kImageSize.y; ++y) {
        for (int x = 0; x < kImageSize.x; ++x) {
            const bool s = surface.pixel(x, y).r > 0 || surface.pixel(x, y).g > 0;
            const bool v = volume.pixel(x, y).g > 127;
            surfacePixels += s;
            volumePixels += v;
            disagreeing += s != v;
        }
    }
    const double r = radius * kPixelsPerVoxel;
    const double disc = std::numbers::pi * r * r;
    const double perimeter = 2.0 * std::numbers::pi * r;
    EXPECT_NEAR(double(surfacePixels) / disc, 1.0, 0.03);
    EXPECT_NEAR(double(volumePixels) / disc, 1.0, 0.03);
    // At most a fifth of the rim's pixels may fall on different sides of the two silhouettes.
    EXPECT_LT(double(disagreeing), 0.2 * perimeter) << disagreeing << " pixels differ";
}

// A ball (value 10; the isosurface at 5) inside a shell of value -20 that the transfer function
// shows as translucent red; everything else is 0 and transparent.
Volume ballInShell(bool withBackHalfOfShell)
{
    return makeFloatField({48, 48, 48}, [=](glm::vec3 p) {
        const float r = glm::length(p - kCenter);
        if (r < 8.0f) return 10.0f;
        const bool back = p.z < kCenter.z; // away from the camera
        if (r > 12.0f && r < 16.0f && (withBackHalfOfShell || !back)) return -20.0f;
        return 0.0f;
    });
}

TransferFunction translucentRedBelow(double value, float opacity)
{
    const glm::vec3 red(1.0f, 0.15f, 0.1f);
    return TransferFunction({{-20.0, red, opacity}, {value, red, 0.0f}, {10.0, red, 0.0f}});
}

TEST_F(SceneRendererTest, SurfaceHidesTheVolumeBehindItButNotTheVolumeInFront)
{
    const auto renderBoth = [](bool backHalf, RenderMode mode) {
        SceneRenderer renderer;
        renderer.setVolume(ballInShell(backHalf));
        renderer.setScene(frontScene(5.0f, mode, translucentRedBelow(-12.0, 0.2f)));
        return renderFrame(renderer, frontView(), kImageSize);
    };
    const Image full = renderBoth(true, RenderMode::SurfaceAndVolume);
    const Image frontOnly = renderBoth(false, RenderMode::SurfaceAndVolume);
    const Image surfaceOnly = renderBoth(true, RenderMode::Surface);
    const Image volumeFull = renderBoth(true, RenderMode::Volume);
    const Image volumeFrontOnly = renderBoth(false, RenderMode::Volume);

    // Inside the ball's silhouette (radius 8 voxels = 16 px), the rays end on the surface: the
    // shell's back half, behind the ball, cannot change a pixel.
    int worstInside = 0;
    forDisc(full, 12.0f, [&](int x, int y) {
        worstInside =
            std::max(worstInside, maxChannelDifference(full.pixel(x, y), frontOnly.pixel(x, y)));
    });
    EXPECT_LE(worstInside, 1);

    // Without the surface the same rays go on through the (transparent) ball into the back
    // half, which then shows: the comparison above could fail.
    const int cx = kImageSize.x / 2;
    const int cy = kImageSize.y / 2;
    EXPECT_GT(maxChannelDifference(volumeFull.pixel(cx, cy), volumeFrontOnly.pixel(cx, cy)), 20);

    // The front half of the shell is composited over the surface: redder than the bare surface.
    const glm::ivec4 composite = full.pixel(cx, cy);
    const glm::ivec4 bare = surfaceOnly.pixel(cx, cy);
    EXPECT_GT(composite.r - composite.g, bare.r - bare.g + 30)
        << "composite " << composite.r << "," << composite.g << " bare " << bare.r << "," << bare.g;
    EXPECT_LT(composite.g, bare.g);

    // Beside the ball (10 voxels from the axis) no surface stops the rays: the back half shows.
    const int besideX = cx + int(10.0f * kPixelsPerVoxel);
    EXPECT_GT(maxChannelDifference(full.pixel(besideX, cy), frontOnly.pixel(besideX, cy)), 10);
}

TEST_F(SceneRendererTest, HalvingTheStepKeepsTheImage)
{
    SceneRenderer renderer;
    renderer.setVolume(ballInShell(true));
    Scene scene = frontScene(5.0f, RenderMode::Volume, translucentRedBelow(-12.0, 0.15f));
    renderer.setScene(scene);
    FrameParams p = frontView();
    p.backgroundTop = p.backgroundBottom = glm::vec3(0.3f);
    for (bool shading : {false, true}) {
        SCOPED_TRACE(shading ? "shaded" : "unshaded");
        p.volumeShading = shading;
        p.volumeStepVoxels = 0.5f;
        const Image coarse = renderFrame(renderer, p, kImageSize);
        p.volumeStepVoxels = 0.25f;
        const Image fine = renderFrame(renderer, p, kImageSize);

        if (!shading) {
            // The translucent shell (red 255, 38, 26) over grey 77 is neither absent nor opaque
            // at the centre.
            const glm::ivec4 centre = fine.pixel(kImageSize.x / 2, kImageSize.y / 2);
            EXPECT_GT(centre.r, 77 + 40);
            EXPECT_GT(centre.g, 38 + 5);
            EXPECT_LT(centre.g, 77 - 10);
        }
        // Without the opacity correction twice the samples would double the optical depth and
        // change the shell by far more than this.
        EXPECT_LT(meanDifference(coarse, fine), 1.5);
        EXPECT_LT(countDifferent(coarse, fine, 10), std::size_t(kImageSize.x * kImageSize.y / 100));
    }

    // An opaque volume stops the rays at once, whatever the step.
    scene.transferFunction = opaqueAbove(5.0);
    renderer.setScene(scene);
    p.volumeStepVoxels = 1.0f;
    const Image opaqueCoarse = renderFrame(renderer, p, kImageSize);
    p.volumeStepVoxels = 0.25f;
    const Image opaqueFine = renderFrame(renderer, p, kImageSize);
    EXPECT_LT(meanDifference(opaqueCoarse, opaqueFine), 1.5);
}

TEST_F(SceneRendererTest, ReducedResolutionIsUpscaledNotCropped)
{
    SceneRenderer renderer;
    renderer.setVolume(makeSphere({48, 48, 48}, kCenter, 16.0f));
    renderer.setScene(frontScene(0.0f, RenderMode::Volume, opaqueAbove(0.0)));
    FrameParams p = frontView();
    const Image full = renderFrame(renderer, p, kImageSize);
    p.volumeResolutionScale = 0.5f;
    const Image half = renderFrame(renderer, p, kImageSize);
    // The same disc, softer at the rim: the half-size image covers the whole viewport.
    EXPECT_LT(meanDifference(full, half), 6.0);
    const auto lit = [](const Image& image) {
        std::size_t n = 0;
        for (int y = 0; y < image.height; ++y)
            for (int x = 0; x < image.width; ++x)
                n += image.pixel(x, y).g > 60;
        return double(n);
    };
    EXPECT_NEAR(lit(half) / lit(full), 1.0, 0.05);
}

TEST(OrientationMarkerLayout, IdentityViewPutsXRightYUpZTowardTheEye)
{
    FrameParams p;
    p.viewportSize = {400, 300};
    const OrientationMarkerLayout layout = orientationMarkerLayout(p.view, p.viewportSize);
    ASSERT_GT(layout.radius, 10.0f);
    EXPECT_EQ(layout.center.x, layout.center.y); // a square in the bottom-left corner
    EXPECT_LT(layout.center.x + layout.radius, 150.0f);
    const glm::vec2 c = layout.center;
    EXPECT_NEAR(layout.axisTips[0].x, c.x + layout.radius, 1e-3);
    EXPECT_NEAR(layout.axisTips[0].y, c.y, 1e-3);
    EXPECT_NEAR(layout.axisTips[1].x, c.x, 1e-3);
    EXPECT_NEAR(layout.axisTips[1].y, c.y + layout.radius, 1e-3);
    EXPECT_NEAR(glm::distance(layout.axisTips[2], c), 0.0f, 1e-3);
    EXPECT_FLOAT_EQ(layout.tipDepth[2], 1.0f);

    // Turned 90 degrees about +y: +x goes away from the eye and +z points right.
    p.view = glm::rotate(glm::mat4(1.0f), glm::radians(90.0f), glm::vec3(0.0f, 1.0f, 0.0f));
    const OrientationMarkerLayout turned = orientationMarkerLayout(p.view, p.viewportSize);
    EXPECT_NEAR(turned.tipDepth[0], -1.0f, 1e-5);
    EXPECT_NEAR(turned.axisTips[2].x, c.x + layout.radius, 1e-3);
    // Translation and zoom of the camera do not move the marker.
    p.view = glm::translate(glm::scale(glm::mat4(1.0f), glm::vec3(3.0f)), {5.0f, -7.0f, 1.0f});
    const OrientationMarkerLayout moved = orientationMarkerLayout(p.view, p.viewportSize);
    EXPECT_NEAR(moved.axisTips[0].x, layout.axisTips[0].x, 1e-3);
}

TEST_F(SceneRendererTest, MarkerIsDrawnWhereItsLayoutSays)
{
    SceneRenderer renderer; // no volume: background and marker only
    Scene scene = noSurfaceScene();
    scene.orientationMarker = true;
    renderer.setScene(scene);
    FrameParams p = frontView();
    p.view = glm::mat4(1.0f);
    const glm::ivec2 size(320, 240);
    p.viewportSize = size;
    const OrientationMarkerLayout layout = orientationMarkerLayout(p.view, p.viewportSize);
    const Image image = renderFrame(renderer, p, size);
    const auto pixelAt = [&](glm::vec2 pos) { return image.pixel(int(pos.x), int(pos.y)); };
    const glm::vec2 c = layout.center;
    const glm::ivec4 xArrow = pixelAt(c + glm::vec2(layout.radius * 0.85f, 0.0f));
    const glm::ivec4 yArrow = pixelAt(c + glm::vec2(0.0f, layout.radius * 0.85f));
    EXPECT_GT(xArrow.r, xArrow.g + 60) << "the +x arrow is red";
    EXPECT_GT(yArrow.g, yArrow.r + 60) << "the +y arrow is green";
    // The +z arrow points at the eye: its blue tip covers the centre.
    const glm::ivec4 centre = pixelAt(c);
    EXPECT_GT(centre.b, centre.r + 60);
    // Outside the marker's square only the (black) background.
    EXPECT_EQ(pixelAt(c + glm::vec2(layout.radius * 2.5f, 0.0f)), glm::ivec4(0, 0, 0, 255));
}

TEST_F(SceneRendererTest, SeveralIsovaluesBeforeOneFrameExtractOnce)
{
    SceneRenderer renderer;
    const Volume sphere = makeSphere({32, 32, 32}, glm::vec3(15.5f), 10.0f);
    renderer.setVolume(sphere);
    EXPECT_FALSE(renderer.renderedIsovalue());
    Scene scene = frontScene(-1.0f, RenderMode::Surface);
    renderer.setScene(scene);
    showIsovalue(renderer, scene, 1.0f);
    showIsovalue(renderer, scene, 2.0f);
    EXPECT_FALSE(renderer.renderedIsovalue()) << "setScene only records the value";
    FrameParams p = frontView();
    renderFrame(renderer, p, {32, 32});
    ASSERT_TRUE(renderer.renderedIsovalue());
    EXPECT_EQ(*renderer.renderedIsovalue(), 2.0f);
    // The surface on the GPU is the one of the newest value, not of an earlier one.
    EXPECT_EQ(captureLive(renderer, scene).triangleCount(),
              extractIsosurfaceCpu(sphere, StoredValue(2.0f)).triangleCount());
    gpu::finishGpuWork();
    const FrameGpuTimes first = renderer.lastGpuTimes();
    ASSERT_TRUE(first.extractMs) << "a finished frame's times are collected without another frame";
    EXPECT_TRUE(first.surfaceMs);
    EXPECT_FALSE(first.volumeMs);

    // The next frame, with no new isovalue, extracts nothing: its timings have no extraction.
    renderFrame(renderer, p, {32, 32});
    gpu::finishGpuWork();
    const FrameGpuTimes second = renderer.lastGpuTimes();
    EXPECT_FALSE(second.extractMs);
    EXPECT_TRUE(second.surfaceMs);
    EXPECT_EQ(*renderer.renderedIsovalue(), 2.0f);

    // The same value again is no change either; a new volume forgets the isovalue.
    showIsovalue(renderer, scene, 2.0f);
    gpu::finishGpuWork();
    renderFrame(renderer, p, {32, 32});
    gpu::finishGpuWork();
    renderFrame(renderer, p, {32, 32});
    EXPECT_FALSE(renderer.lastGpuTimes().extractMs);
    renderer.setVolume(makeSphere({16, 16, 16}, glm::vec3(7.5f), 5.0f));
    EXPECT_FALSE(renderer.renderedIsovalue());
}

// With a memory budget, the live surface's mesh buffers get what the volume leaves of it: a
// surface beyond that draws nothing and says why, without throwing; one that fits is drawn
// again and the error is gone.
TEST_F(SceneRendererTest, ASurfaceBeyondWhatTheBudgetLeavesDrawsNothingAndSaysWhy)
{
    const Volume sphere = makeSphere({64, 64, 64}, glm::vec3(31.5f), 28.0f);
    const float smallIso = 25.0f; // a ball of radius 3
    const float largeIso = 0.0f;  // of radius 28
    std::uint64_t taken = 0;
    {
        SceneRenderer unlimited;
        unlimited.setVolume(sphere);
        const gpu::GpuMemoryUse use = unlimited.memoryUse();
        taken = use.volumeTextureBytes + use.pyramidBytes;
    }
    const std::uint64_t meshAllowance = 400'000;
    const IsoMesh large = extractIsosurfaceCpu(sphere, StoredValue(largeIso));
    ASSERT_GT(large.vertexCount() * 32 + large.indices.size() * 4, meshAllowance)
        << "the large surface must not fit";
    SceneRenderer::Options options;
    options.memoryBudgetBytes = taken + meshAllowance;
    SceneRenderer renderer(options);
    renderer.setVolume(sphere);
    Scene scene = frontScene(smallIso, RenderMode::Surface);
    FrameParams p = frontView();
    p.view = glm::lookAt(glm::vec3(31.5f, 31.5f, 150.0f), glm::vec3(31.5f), {0.0f, 1.0f, 0.0f});
    p.projection = glm::ortho(-32.0f, 32.0f, -32.0f, 32.0f, 1.0f, 300.0f);
    const auto litPixels = [](const Image& image) {
        std::size_t lit = 0;
        for (int y = 0; y < image.height; ++y)
            for (int x = 0; x < image.width; ++x)
                lit += maxChannelDifference(image.pixel(x, y), glm::ivec4(0)) > 8;
        return lit;
    };

    showIsovalue(renderer, scene, smallIso);
    EXPECT_GT(litPixels(renderFrame(renderer, p, kImageSize)), 0u);
    EXPECT_FALSE(renderer.surfaceError());

    showIsovalue(renderer, scene, largeIso);
    Image image;
    EXPECT_NO_THROW(image = renderFrame(renderer, p, kImageSize));
    EXPECT_EQ(litPixels(image), 0u) << "no part of a surface that does not fit is drawn";
    ASSERT_TRUE(renderer.surfaceError());
    EXPECT_NE(renderer.surfaceError()->find("the isosurface mesh buffers ("), std::string::npos)
        << *renderer.surfaceError();
    EXPECT_NE(renderer.surfaceError()->find(") do not fit in the " +
                                            gpu::formatBytes(meshAllowance) +
                                            " the GPU memory budget leaves them"),
              std::string::npos)
        << *renderer.surfaceError();

    showIsovalue(renderer, scene, smallIso);
    EXPECT_GT(litPixels(renderFrame(renderer, p, kImageSize)), 0u);
    EXPECT_FALSE(renderer.surfaceError());
    EXPECT_EQ(captureLive(renderer, scene).triangleCount(),
              extractIsosurfaceCpu(sphere, StoredValue(smallIso)).triangleCount());
}

TEST_F(SceneRendererTest, OddSizedFramebufferIsFilledEdgeToEdge)
{
    SceneRenderer renderer;
    renderer.setVolume(makeSphere({48, 48, 48}, kCenter, 16.0f));
    Scene scene = frontScene(0.0f, RenderMode::Surface);
    scene.orientationMarker = true;
    renderer.setScene(scene);
    const glm::ivec2 size(257, 131);
    gpu::OffscreenTarget target(size.x, size.y);
    target.bind();
    glClearColor(1.0f, 0.0f, 1.0f, 1.0f); // magenta: anything left of it was never drawn
    glClear(GL_COLOR_BUFFER_BIT);
    glClearColor(0.0f, 0.0f, 0.0f, 0.0f);
    FrameParams p = frontView();
    p.projection =
        glm::ortho(-24.0f * 257.0f / 131.0f, 24.0f * 257.0f / 131.0f, -24.0f, 24.0f, 1.0f, 200.0f);
    p.backgroundTop = {0.2f, 0.4f, 0.6f};
    p.backgroundBottom = {0.0f, 0.1f, 0.2f};
    p.viewportSize = size;
    p.targetFramebuffer = framebufferOf(target);
    renderer.render(p);
    const Image image{size.x, size.y, target.readPixels()};

    std::size_t magenta = 0;
    for (int y = 0; y < size.y; ++y)
        for (int x = 0; x < size.x; ++x)
            magenta += image.pixel(x, y) == glm::ivec4(255, 0, 255, 255);
    EXPECT_EQ(magenta, 0u);
    // The gradient runs from the bottom colour to the top colour (dither within 1/255).
    EXPECT_LE(maxChannelDifference(image.pixel(size.x - 1, 0), glm::ivec4(0, 26, 51, 255)), 2);
    EXPECT_LE(
        maxChannelDifference(image.pixel(size.x - 1, size.y - 1), glm::ivec4(51, 102, 153, 255)),
        2);
    // The sphere is in the middle, round: as wide as high.
    const glm::ivec4 middle = image.pixel(size.x / 2, size.y / 2);
    EXPECT_GT(middle.r, 150);
    const auto onSphere = [&](int x, int y) { return image.pixel(x, y).r > 60; };
    int width = 0;
    int height = 0;
    for (int x = 0; x < size.x; ++x)
        width += onSphere(x, size.y / 2);
    for (int y = 0; y < size.y; ++y)
        height += onSphere(size.x / 2, y);
    EXPECT_NEAR(width, height, 3);
    EXPECT_NEAR(double(width), 2.0 * 16.0 * 131.0 / 48.0, 4.0);
}

TEST_F(SceneRendererTest, HostGlStateIsRestored)
{
    SceneRenderer renderer;
    renderer.setVolume(makeSphere({24, 24, 24}, glm::vec3(11.5f), 8.0f));
    Scene scene = frontScene(0.0f, RenderMode::SurfaceAndVolume, opaqueAbove(-2.0));
    scene.orientationMarker = true;
    renderer.setScene(scene);
    gpu::OffscreenTarget target(64, 48);
    const GLuint fbo = framebufferOf(target);

    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glViewport(3, 4, 50, 40);
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_GEQUAL);
    glDepthMask(GL_FALSE);
    glClearColor(0.25f, 0.5f, 0.75f, 1.0f);
    glActiveTexture(GL_TEXTURE3);

    FrameParams p = frontView();
    p.viewportSize = {64, 48};
    p.targetFramebuffer = fbo;
    p.volumeResolutionScale = 0.5f;
    renderer.render(p);

    GLint i = 0;
    std::array<GLint, 4> viewport{};
    glGetIntegerv(GL_VIEWPORT, viewport.data());
    EXPECT_EQ(viewport, (std::array<GLint, 4>{3, 4, 50, 40}));
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &i);
    EXPECT_EQ(GLuint(i), fbo);
    glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &i);
    EXPECT_EQ(GLuint(i), fbo);
    EXPECT_TRUE(glIsEnabled(GL_BLEND));
    glGetIntegerv(GL_BLEND_SRC_RGB, &i);
    EXPECT_EQ(i, GL_SRC_ALPHA);
    glGetIntegerv(GL_BLEND_DST_ALPHA, &i);
    EXPECT_EQ(i, GL_ONE);
    EXPECT_TRUE(glIsEnabled(GL_DEPTH_TEST));
    glGetIntegerv(GL_DEPTH_FUNC, &i);
    EXPECT_EQ(i, GL_GEQUAL);
    GLboolean depthMask = GL_TRUE;
    glGetBooleanv(GL_DEPTH_WRITEMASK, &depthMask);
    EXPECT_EQ(depthMask, GL_FALSE);
    EXPECT_FALSE(glIsEnabled(GL_SCISSOR_TEST));
    std::array<GLfloat, 4> clear{};
    glGetFloatv(GL_COLOR_CLEAR_VALUE, clear.data());
    EXPECT_EQ(clear, (std::array<GLfloat, 4>{0.25f, 0.5f, 0.75f, 1.0f}));
    glGetIntegerv(GL_ACTIVE_TEXTURE, &i);
    EXPECT_EQ(i, GL_TEXTURE3);
    glGetIntegerv(GL_CURRENT_PROGRAM, &i);
    EXPECT_EQ(i, 0);

    glDisable(GL_BLEND);
    glBlendFunc(GL_ONE, GL_ZERO);
    glDisable(GL_DEPTH_TEST);
    glDepthFunc(GL_LESS);
    glDepthMask(GL_TRUE);
    glClearColor(0.0f, 0.0f, 0.0f, 0.0f);
    glActiveTexture(GL_TEXTURE0);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    EXPECT_NO_THROW(gpu::throwOnGlError("rendering inside a host's state"));
}

TEST_F(SceneRendererTest, VolumeWithoutTransferFunctionShowsOnlyTheBackground)
{
    SceneRenderer renderer;
    renderer.setVolume(makeSphere({24, 24, 24}, glm::vec3(11.5f), 8.0f));
    Scene scene = noSurfaceScene();
    scene.renderMode = RenderMode::Volume;
    scene.orientationMarker = false;
    renderer.setScene(scene);
    const Image image = renderFrame(renderer, frontView(), {40, 40});
    for (int y = 0; y < 40; ++y)
        for (int x = 0; x < 40; ++x)
            ASSERT_EQ(image.pixel(x, y), glm::ivec4(0, 0, 0, 255));
}

TEST_F(SceneRendererTest, ATransparentBackgroundLeavesOnlyTheSceneOpaque)
{
    SceneRenderer renderer;
    renderer.setVolume(ballInShell(true));
    // The ball's surface opaque, the shell a translucent volume around it.
    renderer.setScene(
        frontScene(5.0f, RenderMode::SurfaceAndVolume, translucentRedBelow(-12.0, 0.2f)));
    FrameParams params = frontView();
    params.backgroundTop = params.backgroundBottom = glm::vec3(0.2f, 0.4f, 0.6f);
    params.transparentBackground = true;
    const Image image = renderFrame(renderer, params, kImageSize);
    const int cx = kImageSize.x / 2;
    const int cy = kImageSize.y / 2;
    EXPECT_EQ(image.pixel(0, 0), glm::ivec4(0)); // no background colour, no coverage
    EXPECT_EQ(image.pixel(cx, cy).a, 255);       // the surface
    // The shell beside the ball covers part of the pixel, its colour premultiplied (red at most
    // its alpha).
    const glm::ivec4 shell = image.pixel(cx + int(15.0f * kPixelsPerVoxel), cy);
    EXPECT_GT(shell.a, 20);
    EXPECT_LT(shell.a, 255);
    EXPECT_LE(shell.r, shell.a + 1);
}

// Tiles of 8 x 8 voxels across x and y, each its own value, in three slabs along the view
// axis: `high` nearest the camera, 0 in the middle, `low` at the back. Every ray of frontView()
// runs along one (x, y), so its maximum is its tile's high, its minimum its tile's low.
float tileHigh(int tx, int ty)
{
    return 100.0f + 5.0f * float(tx * 6 + ty);
}
float tileLow(int tx, int ty)
{
    return -tileHigh(tx, ty);
}

TEST_F(SceneRendererTest, IntensityProjectionsShowEachRaysMaximumMinimumOrMeanThroughTheWindow)
{
    SceneRenderer renderer;
    renderer.setVolume(makeFloatField({48, 48, 48}, [](glm::vec3 p) {
        const int tx = int(p.x) / 8;
        const int ty = int(p.y) / 8;
        if (p.z >= 32.0f) return tileHigh(tx, ty);
        return p.z < 16.0f ? tileLow(tx, ty) : 0.0f;
    }));
    // A live surface through every tile, which the projections must not draw; the window maps
    // -300 to black and 300 to white.
    Scene scene = frontScene(50.0, RenderMode::Surface);
    scene.slices.window = {0.0, 600.0};
    const auto expected = [](float value) { return 255.0f * (value + 300.0f) / 600.0f; };

    struct Case {
        RenderMode mode;
        float (*value)(int, int);
        float tolerance; // grey levels
    };
    // The mean of samples half a voxel apart, starting at a jittered point, is the field's mean
    // along the ray (0 by symmetry) to within a fraction of the step: a level more of slack.
    const Case cases[] = {
        {RenderMode::MaximumIntensity, tileHigh, 1.0f},
        {RenderMode::MinimumIntensity, tileLow, 1.0f},
        {RenderMode::AverageIntensity, [](int, int) { return 0.0f; }, 2.0f},
    };
    for (const Case& c : cases) {
        const Image image = renderMode(renderer, scene, c.mode, frontView(), kImageSize);
        std::size_t compared = 0;
        for (int py = 1; py < kImageSize.y - 1; ++py) {
            for (int px = 1; px < kImageSize.x - 1; ++px) {
                // The pixel's ray runs at index (x, y) = (p - 0.5) / 2; trilinear samples mix
                // voxels floor(x) and floor(x) + 1, both in one tile unless floor(x) ends one.
                const int ix = int(std::floor((float(px) - 0.5f) / 2.0f));
                const int iy = int(std::floor((float(py) - 0.5f) / 2.0f));
                if (ix % 8 == 7 || iy % 8 == 7) continue;
                const float want = expected(c.value(ix / 8, iy / 8));
                const glm::ivec4 got = image.pixel(px, py);
                ASSERT_NEAR(float(got.r), want, c.tolerance)
                    << renderModeName(c.mode) << " at pixel " << px << ", " << py;
                ASSERT_EQ(got.r, got.g);
                ASSERT_EQ(got.r, got.b);
                ++compared;
            }
        }
        EXPECT_GT(compared, std::size_t(kImageSize.x * kImageSize.y / 2));
    }
}

// A preview frame (FrameParams::previewLiveSurface) draws the surface of the volume halved by
// 2 x 2 x 2 means, the CPU reference's triangles of halfResolution(), where the full surface
// lies, and extracts nothing at full resolution; a capture still takes the full surface at the
// newest isovalue, and a frame without the flag draws it.
TEST_F(SceneRendererTest, APreviewFrameDrawsTheHalvedVolumesSurfaceAndCapturesTheFullOne)
{
    VolumeGeometry geometry;
    geometry.spacing = glm::dvec3(48.0 / 128.0); // 128^3 voxels (the least with a preview) in view
    const auto sphere =
        std::make_shared<const Volume>(makeSphere({128, 128, 128}, kCenter, 16.0f, geometry));
    SceneRenderer renderer;
    renderer.setVolume(*sphere);
    Scene scene = frontScene(0.0, RenderMode::Surface);
    scene.volume = sphere;
    renderer.setScene(scene);
    FrameParams p = frontView();
    const RgbaFrame full = renderFrame(renderer, p, kImageSize);
    ASSERT_FALSE(renderer.livePreviewShown());
    const std::uint64_t extractions = renderer.liveExtractions();

    showIsovalue(renderer, scene, 2.0);
    p.previewLiveSurface = true;
    renderFrame(renderer, p, kImageSize);
    ASSERT_TRUE(renderer.livePreviewShown());
    EXPECT_EQ(renderer.renderedIsovalue(), 2.0);
    EXPECT_EQ(renderer.liveExtractions(), extractions) << "the full surface waits";
    const Volume half = halfResolution(*sphere);
    EXPECT_EQ(renderer.vertexCount(),
              3 * extractIsosurfaceCpu(half, StoredValue(2.0f)).triangleCount());
    // Back at isovalue 0 the preview covers the full surface's pixels: same place, same size.
    showIsovalue(renderer, scene, 0.0);
    const RgbaFrame preview = renderFrame(renderer, p, kImageSize);
    EXPECT_LT(countDifferent(preview, full, 60), std::size_t(kImageSize.x * kImageSize.y / 50));
    EXPECT_EQ(captureLive(renderer, scene).triangleCount(),
              extractIsosurfaceCpu(*sphere, StoredValue(0.0f)).triangleCount());

    p.previewLiveSurface = false;
    renderFrame(renderer, p, kImageSize);
    EXPECT_FALSE(renderer.livePreviewShown());
    EXPECT_EQ(renderer.vertexCount(),
              3 * extractIsosurfaceCpu(*sphere, StoredValue(0.0f)).triangleCount());
    // A small volume gets no preview: its full surface is drawn.
    const auto small = std::make_shared<const Volume>(makeSphere({32, 32, 32}, kCenter, 10.0f));
    renderer.setVolume(*small);
    scene.volume = small;
    renderer.setScene(scene);
    p.previewLiveSurface = true;
    renderFrame(renderer, p, kImageSize);
    EXPECT_FALSE(renderer.livePreviewShown());
}

// A GPU's drag frame (FrameParams::liveSurfaceWithoutCountWait) draws the live surface from
// the GPU's record without reading its counts back; on llvmpipe the renderer is told to take
// that path (Options::gpuDrawPath). A mesh its buffers cannot hold yet draws nothing (never a
// part of one) and the frame, once read back, says so; the next frame of the scene draws it
// whole. A mesh that fits is the reference image at once and is not unconfirmed. (Also run on
// GPUs by packaging/gpu-check.sh.)
TEST_F(SceneRendererTest, ADragFrameDrawnWithoutCountsIsWholeOrEmptyAndSaysSo)
{
    const Volume sphere = makeSphere({48, 48, 48}, kCenter, 20.0f);
    SceneRenderer reference;
    reference.setVolume(sphere);
    SceneRenderer::Options options;
    options.gpuDrawPath = true;
    SceneRenderer gpuPath(options);
    gpuPath.setVolume(sphere);
    const FrameParams still = frontView();
    FrameParams drag = still;
    drag.liveSurfaceWithoutCountWait = true;
    const auto frameAt = [&](SceneRenderer& renderer, double isovalue, const FrameParams& p) {
        renderer.setScene(frontScene(isovalue, RenderMode::Surface));
        return renderFrame(renderer, p, kImageSize);
    };

    // The mesh buffers start empty: the first frame's record draws no triangle.
    const Image empty = frameAt(gpuPath, 6.0, drag);
    EXPECT_TRUE(gpuPath.surfaceUnconfirmed());
    for (int y = 0; y < empty.height; ++y)
        for (int x = 0; x < empty.width; ++x)
            ASSERT_EQ(empty.pixel(x, y), glm::ivec4(0, 0, 0, 255)) << x << ", " << y;
    const Image whole = frameAt(reference, 6.0, still);
    EXPECT_FALSE(reference.surfaceUnconfirmed());
    ASSERT_GT(countDifferent(whole, empty, 0), std::size_t(kImageSize.x * kImageSize.y / 8));

    // The same scene again: the counts are read, the buffers grow, the surface is whole.
    EXPECT_EQ(countDifferent(frameAt(gpuPath, 6.0, drag), whole, 0), 0u);
    EXPECT_FALSE(gpuPath.surfaceUnconfirmed());

    // A smaller sphere fits the grown buffers: drawn from the record, the reference image.
    const Image smaller = frameAt(gpuPath, 10.0, drag);
    EXPECT_FALSE(gpuPath.surfaceUnconfirmed()) << "read back: the counts say it fitted";
    EXPECT_EQ(countDifferent(smaller, frameAt(reference, 10.0, still), 0), 0u);
    EXPECT_GT(countDifferent(smaller, whole, 0), 0u);

    // One of nearly three times the area does not: empty again, and said so.
    EXPECT_EQ(countDifferent(frameAt(gpuPath, -3.0, drag), empty, 0), 0u);
    EXPECT_TRUE(gpuPath.surfaceUnconfirmed());
}

} // namespace
} // namespace isoview::test
