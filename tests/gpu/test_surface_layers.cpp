// Several surfaces in one scene (SceneRenderer::setSurfaces): every layer's mesh is the CPU
// reference's at its isovalue while the live one is dragged, after a crop and in bricks; the
// translucent ones are composited by weighted blended transparency with the blend its maths
// predicts, whatever the order of the layers and whichever is live; the renderer's GL objects
// go with it.
#include "extraction/cpu_marching_cubes.h"
#include "gpu/gl_loader.h"
#include "gpu/gl_objects.h"
#include "gpu/offscreen_target.h"
#include "gpu/scene_renderer.h"
#include "support/gl_test_context.h"
#include "support/mesh_compare.h"
#include "support/synthetic_volumes.h"

#include <epoxy/gl.h>
#include <glm/gtc/matrix_transform.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace isoview::test {
namespace {

using gl::SceneParams;
using gl::SceneRenderer;
using gl::SurfaceLayer;

// Two interleaved surfaces of one field, optionally on an unevenly spaced, sheared stack.
Volume wavyField(bool sheared)
{
    VolumeGeometry g;
    g.spacing = {0.8, 0.9, 1.7};
    if (sheared) {
        double z = 0.0;
        for (std::uint32_t k = 0; k < 30; ++k) {
            g.sliceOrigins.emplace_back(0.0, 0.15 * k, z);
            z += k % 3 == 0 ? 2.5 : 1.5;
        }
    }
    return makeFloatField(
        {40, 36, 30},
        [](glm::vec3 p) {
            return std::sin(0.31f * p.x) * std::cos(0.23f * p.y) + std::sin(0.19f * p.z + 0.4f);
        },
        g);
}

void expectSame(const IsoMesh& gpu, const IsoMesh& cpu, const std::string& what)
{
    const MeshComparison c = compareMeshes(gpu, cpu);
    SCOPED_TRACE(what + ": " + c.describe());
    EXPECT_GT(cpu.triangleCount(), 100u) << "the case should exercise real geometry";
    EXPECT_EQ(c.trianglesA, c.trianglesB);
    EXPECT_EQ(c.verticesA, c.verticesB);
    EXPECT_EQ(c.unmatchedTriangles, 0u);
    EXPECT_EQ(c.unmatchedVertices, 0u);
    EXPECT_LE(c.maxPositionDistance, 1e-3);
    EXPECT_EQ(c.normalsBeyondOneDegree, 0u);
}

SceneRenderer::Options options(bool gl33, std::uint32_t maxTexture = 0)
{
    SceneRenderer::Options o;
    o.limitToGl33 = gl33;
    o.maxTextureSize = maxTexture;
    return o;
}

constexpr std::uint32_t kStored = 1;
constexpr std::uint32_t kLive = 2;
constexpr double kStoredIso = 0.2;

std::vector<SurfaceLayer> twoLayers(double liveIso)
{
    SurfaceLayer stored{.id = kStored, .isovalue = kStoredIso};
    SurfaceLayer live{.id = kLive, .isovalue = liveIso, .color = {0.2f, 0.4f, 0.9f}};
    return {stored, live};
}

class SurfaceLayersTest : public GlPathTest {};

// Dragging the live layer re-extracts it alone; the stored one keeps its mesh; a crop
// re-extracts both for the new cells. 128-texel textures put the volume in 5 bricks.
TEST_P(SurfaceLayersTest, EachLayerIsTheCpuReferenceWhileTheLiveOneIsDragged)
{
    const Volume volume = wavyField(false);
    for (std::uint32_t maxTexture : {0u, 128u}) {
        SCOPED_TRACE(maxTexture == 0 ? "one brick" : "bricked");
        SceneRenderer scene(options(limitToGl33(), maxTexture));
        scene.setVolume(volume);
        EXPECT_EQ(scene.brickCount(), maxTexture == 0 ? 1u : 5u);
        scene.setSurfaces(twoLayers(-0.5), kLive);
        EXPECT_EQ(scene.extractedIsovalue(kStored), std::nullopt);
        scene.extractSurface();
        const IsoMesh storedReference = extractIsosurfaceCpu(volume, float(kStoredIso));
        expectSame(scene.capture(kStored), storedReference, "stored layer");
        expectSame(scene.capture(kLive), extractIsosurfaceCpu(volume, -0.5f), "live layer");
        EXPECT_EQ(scene.extractedIsovalue(kStored), kStoredIso);
        EXPECT_EQ(scene.extractedIsovalue(kLive), -0.5);
        EXPECT_TRUE(scene.capture(99).indices.empty()) << "an unknown id has no mesh";

        for (double iso : {-0.3, 0.6, 1.1}) {
            scene.setIsovalue(iso);
            scene.extractSurface();
            const IsoMesh live = scene.capture(kLive);
            expectSame(live, extractIsosurfaceCpu(volume, float(iso)), "dragged live layer");
            EXPECT_EQ(scene.capture().indices, live.indices) << "capture() is the live layer's";
            EXPECT_EQ(scene.vertexCount(), live.indices.size());
            expectSame(scene.capture(kStored), storedReference, "stored layer during the drag");
            EXPECT_EQ(scene.extractedIsovalue(kStored), kStoredIso);
        }

        const VoxelBox crop{{3, 5, 2}, {30, 28, 21}};
        scene.setCrop(crop);
        EXPECT_EQ(scene.extractedIsovalue(kStored), std::nullopt) << "stale until extracted";
        scene.extractSurface();
        expectSame(scene.capture(kStored), extractIsosurfaceCpu(volume, float(kStoredIso), crop),
                   "stored layer, cropped");
        expectSame(scene.capture(kLive), extractIsosurfaceCpu(volume, 1.1f, crop),
                   "live layer, cropped");
    }
}

// A new isovalue of a stored layer, a live layer that becomes stored and hidden layers.
TEST_P(SurfaceLayersTest, StoredLayersFollowTheirIsovalueAndVisibility)
{
    const Volume volume = wavyField(false);
    SceneRenderer scene(options(limitToGl33()));
    scene.setVolume(volume);
    std::vector<SurfaceLayer> layers = twoLayers(-0.5);
    layers[0].visible = false;
    scene.setSurfaces(layers, kLive);
    scene.extractSurface();
    EXPECT_EQ(scene.extractedIsovalue(kStored), std::nullopt) << "hidden: not extracted";

    layers[0].visible = true;
    layers[0].isovalue = 0.4;
    scene.setSurfaces(layers, kLive);
    scene.extractSurface();
    expectSame(scene.capture(kStored), extractIsosurfaceCpu(volume, 0.4f), "shown layer");

    // The other one becomes live: the previous live one is stored at its isovalue.
    scene.setSurfaces(layers, kStored);
    scene.setIsovalue(0.1);
    scene.extractSurface();
    expectSame(scene.capture(kLive), extractIsosurfaceCpu(volume, -0.5f), "formerly live");
    expectSame(scene.capture(kStored), extractIsosurfaceCpu(volume, 0.1f), "newly live");
    EXPECT_GT(scene.memoryUse().meshBytes, 0u);
}

// --- Compositing -------------------------------------------------------------------------

struct Image {
    int width = 0;
    int height = 0;
    std::vector<std::uint8_t> rgba; // bottom row first

    glm::ivec3 at(int x, int y) const
    {
        const std::size_t i = (std::size_t(y) * std::size_t(width) + std::size_t(x)) * 4;
        return {rgba[i], rgba[i + 1], rgba[i + 2]};
    }
};

GLuint framebufferOf(const gl::OffscreenTarget& target)
{
    GLint previous = 0;
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &previous);
    target.bind();
    GLint id = 0;
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &id);
    glBindFramebuffer(GL_FRAMEBUFFER, GLuint(previous));
    return GLuint(id);
}

// A 48^3 distance field around (23.5, 23.5, 23.5): value = 20 - distance, so isovalue 0 is a
// sphere of radius 20 and isovalue 10 one of radius 10 inside it. Seen along -z through an
// orthographic camera at 2 pixels per voxel.
constexpr glm::ivec2 kImageSize{96, 96};
constexpr glm::ivec2 kCenterPixel{48, 48};
constexpr glm::ivec2 kShellOnlyPixel{48 + 30, 48}; // 15 voxels out: outer shell, no inner ball

Image render(SceneRenderer& scene, glm::vec3 background)
{
    const glm::vec3 center(23.5f);
    SceneParams p;
    p.view = glm::lookAt(center + glm::vec3(0.0f, 0.0f, 100.0f), center, {0.0f, 1.0f, 0.0f});
    p.projection = glm::ortho(-24.0f, 24.0f, -24.0f, 24.0f, 1.0f, 200.0f);
    p.backgroundTop = p.backgroundBottom = background;
    p.orientationMarker = false;
    gl::OffscreenTarget target(kImageSize.x, kImageSize.y);
    p.viewportSize = kImageSize;
    p.targetFramebuffer = framebufferOf(target);
    scene.render(p);
    return {kImageSize.x, kImageSize.y, target.readPixels()};
}

constexpr std::uint32_t kRed = 10;
constexpr std::uint32_t kBlue = 20;
// Colours whose shading stays below 1 (no clamping before the blend).
const SurfaceLayer kInnerRed{.id = kRed, .isovalue = 10.0, .color = {0.6f, 0.1f, 0.1f}};
const SurfaceLayer kOuterBlue{.id = kBlue, .isovalue = 0.0, .color = {0.1f, 0.2f, 0.6f}};

Image renderLayers(SceneRenderer& scene, const std::vector<SurfaceLayer>& layers,
                   std::optional<std::uint32_t> live, glm::vec3 background = glm::vec3(0.0f))
{
    scene.setSurfaces(layers, live);
    return render(scene, background);
}

SurfaceLayer withOpacity(SurfaceLayer layer, float opacity)
{
    layer.opacity = opacity;
    return layer;
}

int maxChannelDifference(glm::ivec3 a, glm::ivec3 b)
{
    const glm::ivec3 d = glm::abs(a - b);
    return std::max({d.x, d.y, d.z});
}

int maxImageDifference(const Image& a, const Image& b)
{
    int worst = 0;
    for (std::size_t i = 0; i < a.rgba.size(); ++i)
        worst = std::max(worst, std::abs(int(a.rgba[i]) - int(b.rgba[i])));
    return worst;
}

// 8-bit rounding of the two opaque references and of the result, plus half-float sums.
constexpr int kBlendTolerance = 3;

TEST_P(SurfaceLayersTest, TranslucentShellOverOpaqueBallBlendsAsWeightedBlendedMathsSays)
{
    const Volume volume = makeSphere({48, 48, 48}, glm::vec3(23.5f), 20.0f);
    SceneRenderer scene(options(limitToGl33()));
    scene.setVolume(volume);

    // References: each surface alone, opaque.
    const glm::ivec3 red =
        renderLayers(scene, {kInnerRed}, kRed).at(kCenterPixel.x, kCenterPixel.y);
    const glm::ivec3 blue =
        renderLayers(scene, {kOuterBlue}, kBlue).at(kCenterPixel.x, kCenterPixel.y);
    ASSERT_GT(red.r, 100);
    ASSERT_GT(blue.b, 100);

    // Along the centre ray the shell's front face (alpha 0.4) lies over the opaque ball, which
    // hides the shell's back face: one layer, for which weighted blending is exact,
    // 0.4 * blue + (1 - 0.4) * red.
    const SurfaceLayer shell = withOpacity(kOuterBlue, 0.4f);
    const glm::vec3 expected = 0.4f * glm::vec3(blue) + 0.6f * glm::vec3(red);
    for (std::uint32_t live : {kRed, kBlue}) {
        SCOPED_TRACE(live == kRed ? "the ball live" : "the shell live");
        const Image image = renderLayers(scene, {kInnerRed, shell}, live);
        const glm::ivec3 center = image.at(kCenterPixel.x, kCenterPixel.y);
        EXPECT_LE(maxChannelDifference(center, glm::ivec3(glm::round(expected))), kBlendTolerance)
            << "centre " << center.r << "," << center.g << "," << center.b << " expected "
            << expected.r << "," << expected.g << "," << expected.b;
        // Drawing-order mistakes (the shell hidden, or drawn opaque) are far from it.
        EXPECT_GT(maxChannelDifference(center, red), 40);
        EXPECT_GT(maxChannelDifference(center, blue), 40);

        // Where only the shell covers the background, both its faces (alpha 0.4 each) let
        // (1 - 0.4)^2 = 0.36 of the background through: changing the background changes the
        // pixel by 0.36 of the change.
        const glm::vec3 grey(0.5f);
        const Image overGrey = renderLayers(scene, {kInnerRed, shell}, live, grey);
        const glm::ivec3 shellOnBlack = image.at(kShellOnlyPixel.x, kShellOnlyPixel.y);
        const glm::ivec3 shellOnGrey = overGrey.at(kShellOnlyPixel.x, kShellOnlyPixel.y);
        const glm::ivec3 throughShell = shellOnGrey - shellOnBlack;
        const int predicted = int(std::lround(0.36 * 0.5 * 255.0));
        EXPECT_LE(maxChannelDifference(throughShell, glm::ivec3(predicted)), kBlendTolerance)
            << "background through the shell " << throughShell.r << "," << throughShell.g << ","
            << throughShell.b << ", expected " << predicted;
        EXPECT_GT(shellOnBlack.b, shellOnBlack.r) << "the shell itself shows";
    }
}

TEST_P(SurfaceLayersTest, TheImageDoesNotDependOnTheLayersOrderOrWhichIsLive)
{
    const Volume volume = makeSphere({48, 48, 48}, glm::vec3(23.5f), 20.0f);
    SceneRenderer scene(options(limitToGl33()));
    scene.setVolume(volume);
    const SurfaceLayer shell = withOpacity(kOuterBlue, 0.4f);
    for (float ballOpacity : {1.0f, 0.5f}) {
        SCOPED_TRACE(ballOpacity < 1.0f ? "both translucent" : "opaque ball");
        const SurfaceLayer ball = withOpacity(kInnerRed, ballOpacity);
        const Image reference = renderLayers(scene, {ball, shell}, kRed);
        EXPECT_LE(maxImageDifference(reference, renderLayers(scene, {shell, ball}, kRed)), 1);
        EXPECT_LE(maxImageDifference(reference, renderLayers(scene, {shell, ball}, kBlue)), 1);
        EXPECT_LE(maxImageDifference(reference, renderLayers(scene, {ball, shell}, std::nullopt)),
                  1);
    }
}

// A stored mesh is drawn where the live one is, on an unevenly spaced, sheared stack too.
TEST_P(SurfaceLayersTest, StoredAndLiveDrawingsOfOneSurfaceAreTheSameImage)
{
    const Volume volume = wavyField(true);
    SceneRenderer scene(options(limitToGl33()));
    scene.setVolume(volume);
    const SurfaceLayer layer{.id = 5, .isovalue = 0.2, .color = {0.7f, 0.6f, 0.3f}};
    const Image live = renderLayers(scene, {layer}, 5);
    const Image stored = renderLayers(scene, {layer}, std::nullopt);
    EXPECT_LE(maxImageDifference(live, stored), 1);
    const Image shown = renderLayers(scene, {layer}, std::nullopt);
    std::vector<SurfaceLayer> invisible{layer};
    invisible[0].visible = false;
    const Image none = renderLayers(scene, invisible, std::nullopt);
    EXPECT_GT(maxImageDifference(shown, none), 100) << "the surface covers some pixels";
}

TEST_P(SurfaceLayersTest, TheRendererFreesEveryGlObjectOfItsLayers)
{
    const Volume volume = makeSphere({48, 48, 48}, glm::vec3(23.5f), 20.0f);
    const gl::GlObjectCounts before = gl::liveGlObjects();
    {
        SceneRenderer scene(options(limitToGl33()));
        scene.setVolume(volume);
        renderLayers(scene, {kInnerRed, withOpacity(kOuterBlue, 0.4f)}, kRed);
        renderLayers(scene, {kOuterBlue, withOpacity(kInnerRed, 0.4f)}, std::nullopt);
    }
    EXPECT_EQ(gl::liveGlObjects(), before) << gl::liveGlObjects().describe();
}

INSTANTIATE_TEST_SUITE_P(GlPaths, SurfaceLayersTest, ::testing::Values(false, true), glPathName);

} // namespace
} // namespace isoview::test
