// Several surfaces in one scene (SceneRenderer::setScene): every layer's mesh is the CPU
// reference's at its isovalue while the live one is dragged, after a crop and in bricks; the
// translucent ones are composited by weighted blended transparency with the blend its maths
// predicts, whatever the order of the layers and whichever is live, and where two translucent
// layers overlap, with the shader's depth weight; the renderer's GL objects go with it.
#include "extraction/cpu_marching_cubes.h"
#include "gpu/gl_loader.h"
#include "gpu/gl_objects.h"
#include "gpu/scene_renderer.h"
#include "support/gl_frames.h"
#include "support/gl_test_context.h"
#include "support/mesh_compare.h"
#include "support/scene_fixtures.h"
#include "support/synthetic_volumes.h"

#include <epoxy/gl.h>
#include <glm/gtc/matrix_transform.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace isoview::test {
namespace {

using gpu::FrameParams;
using gpu::SceneRenderer;

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

std::vector<Surface> twoLayers(double liveIso)
{
    Surface stored{.id = kStored, .name = "Stored", .isovalue = kStoredIso, .color = kBeige};
    Surface live{
        .id = kLive, .name = "Live", .isovalue = liveIso, .color = glm::vec3(0.2f, 0.4f, 0.9f)};
    return {stored, live};
}

class SurfaceLayersTest : public GlPathTest {};

// Dragging the live layer re-extracts it alone; the stored one keeps its mesh; a crop
// re-extracts both for the new cells. 128-texel textures put the volume in 5 bricks.
TEST_P(SurfaceLayersTest, EachLayerIsTheCpuReferenceWhileTheLiveOneIsDragged)
{
    const Volume volume = makeWavyField(false);
    for (std::uint32_t maxTexture : {0u, 128u}) {
        SCOPED_TRACE(maxTexture == 0 ? "one brick" : "bricked");
        SceneRenderer renderer(options(limitToGl33(), maxTexture));
        renderer.setVolume(volume);
        EXPECT_EQ(renderer.brickCount(), maxTexture == 0 ? 1u : 5u);
        Scene scene = surfacesScene(twoLayers(-0.5), kLive);
        renderer.setScene(scene);
        EXPECT_TRUE(renderer.capture(kStored).mesh.indices.empty()) << "not extracted yet";
        renderer.extractSurface();
        const IsoMesh storedReference =
            extractIsosurfaceCpu(volume, StoredValue(float(kStoredIso)));
        expectSame(renderer.capture(kStored).mesh, storedReference, "stored layer");
        expectSame(renderer.capture(kLive).mesh, extractIsosurfaceCpu(volume, StoredValue(-0.5f)),
                   "live layer");
        EXPECT_EQ(renderer.capture(kStored).isovalue, kStoredIso);
        EXPECT_EQ(renderer.capture(kLive).isovalue, -0.5);
        EXPECT_TRUE(renderer.capture(99).mesh.indices.empty()) << "an unknown id has no mesh";

        for (double iso : {-0.3, 0.6, 1.1}) {
            showIsovalue(renderer, scene, iso);
            renderer.extractSurface();
            const IsoMesh live = renderer.capture(kLive).mesh;
            expectSame(live, extractIsosurfaceCpu(volume, StoredValue(float(iso))),
                       "dragged live layer");
            EXPECT_EQ(captureLive(renderer, scene).indices, live.indices)
                << "the selected surface is the live layer";
            EXPECT_EQ(renderer.vertexCount(), live.indices.size());
            expectSame(renderer.capture(kStored).mesh, storedReference,
                       "stored layer during the drag");
            EXPECT_EQ(renderer.capture(kStored).isovalue, kStoredIso);
        }

        const VoxelBox crop{{3, 5, 2}, {30, 28, 21}};
        scene.crop = crop;
        renderer.setScene(scene);
        EXPECT_TRUE(renderer.capture(kStored).mesh.indices.empty()) << "stale until extracted";
        renderer.extractSurface();
        expectSame(renderer.capture(kStored).mesh,
                   extractIsosurfaceCpu(volume, StoredValue(float(kStoredIso)), crop),
                   "stored layer, cropped");
        expectSame(renderer.capture(kLive).mesh,
                   extractIsosurfaceCpu(volume, StoredValue(1.1f), crop), "live layer, cropped");
    }
}

// A new isovalue of a stored layer, a live layer that becomes stored and hidden layers.
TEST_P(SurfaceLayersTest, StoredLayersFollowTheirIsovalueAndVisibility)
{
    const Volume volume = makeWavyField(false);
    SceneRenderer renderer(options(limitToGl33()));
    renderer.setVolume(volume);
    std::vector<Surface> layers = twoLayers(-0.5);
    layers[0].visible = false;
    renderer.setScene(surfacesScene(layers, kLive));
    renderer.extractSurface();
    EXPECT_TRUE(renderer.capture(kStored).mesh.indices.empty()) << "hidden: not extracted";

    layers[0].visible = true;
    layers[0].isovalue = 0.4;
    renderer.setScene(surfacesScene(layers, kLive));
    renderer.extractSurface();
    expectSame(renderer.capture(kStored).mesh, extractIsosurfaceCpu(volume, StoredValue(0.4f)),
               "shown layer");

    // The other one becomes live: the previous live one is stored at its isovalue.
    Scene scene = surfacesScene(layers, kStored);
    scene.setLiveIsovalue(0.1);
    renderer.setScene(scene);
    renderer.extractSurface();
    expectSame(renderer.capture(kLive).mesh, extractIsosurfaceCpu(volume, StoredValue(-0.5f)),
               "formerly live");
    expectSame(renderer.capture(kStored).mesh, extractIsosurfaceCpu(volume, StoredValue(0.1f)),
               "newly live");
    EXPECT_GT(renderer.memoryUse().meshBytes, 0u);
}

// --- Compositing -------------------------------------------------------------------------

using Image = RgbaFrame;

// A 48^3 distance field around (23.5, 23.5, 23.5): value = 20 - distance, so isovalue 0 is a
// sphere of radius 20 and isovalue 10 one of radius 10 inside it. Seen along -z through an
// orthographic camera at 2 pixels per voxel.
constexpr glm::ivec2 kImageSize{96, 96};
constexpr glm::ivec2 kCenterPixel{48, 48};
constexpr glm::ivec2 kShellOnlyPixel{48 + 30, 48}; // 15 voxels out: outer shell, no inner ball

// The camera sits 100 voxels in front of the centre; near and far are distances from it.
Image render(SceneRenderer& renderer, glm::vec3 background, float nearPlane = 1.0f,
             float farPlane = 200.0f)
{
    const glm::vec3 center(23.5f);
    FrameParams p;
    p.view = glm::lookAt(center + glm::vec3(0.0f, 0.0f, 100.0f), center, {0.0f, 1.0f, 0.0f});
    p.projection = glm::ortho(-24.0f, 24.0f, -24.0f, 24.0f, nearPlane, farPlane);
    p.backgroundTop = p.backgroundBottom = background;
    return renderFrame(renderer, p, kImageSize);
}

// The layers with the one of id live selected (none: every layer stored, none live), without
// the orientation marker.
Scene layersScene(const std::vector<Surface>& layers, std::optional<std::uint32_t> live)
{
    Scene scene = live ? surfacesScene(layers, *live) : storedSurfacesScene(layers);
    scene.orientationMarker = false;
    return scene;
}

constexpr std::uint32_t kRed = 10;
constexpr std::uint32_t kBlue = 20;
// Colours whose shading stays below 1 (no clamping before the blend).
const Surface kInnerRed{
    .id = kRed, .name = "Red", .isovalue = 10.0, .color = glm::vec3(0.6f, 0.1f, 0.1f)};
const Surface kOuterBlue{
    .id = kBlue, .name = "Blue", .isovalue = 0.0, .color = glm::vec3(0.1f, 0.2f, 0.6f)};

Image renderLayers(SceneRenderer& renderer, const std::vector<Surface>& layers,
                   std::optional<std::uint32_t> live, glm::vec3 background = glm::vec3(0.0f))
{
    renderer.setScene(layersScene(layers, live));
    return render(renderer, background);
}

Surface withOpacity(Surface layer, float opacity)
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
    SceneRenderer renderer(options(limitToGl33()));
    renderer.setVolume(volume);

    // References: each surface alone, opaque.
    const glm::ivec3 red =
        renderLayers(renderer, {kInnerRed}, kRed).at(kCenterPixel.x, kCenterPixel.y);
    const glm::ivec3 blue =
        renderLayers(renderer, {kOuterBlue}, kBlue).at(kCenterPixel.x, kCenterPixel.y);
    ASSERT_GT(red.r, 100);
    ASSERT_GT(blue.b, 100);

    // Along the centre ray the shell's front face (alpha 0.4) lies over the opaque ball, which
    // hides the shell's back face: one layer, for which weighted blending is exact,
    // 0.4 * blue + (1 - 0.4) * red.
    const Surface shell = withOpacity(kOuterBlue, 0.4f);
    const glm::vec3 expected = 0.4f * glm::vec3(blue) + 0.6f * glm::vec3(red);
    for (std::uint32_t live : {kRed, kBlue}) {
        SCOPED_TRACE(live == kRed ? "the ball live" : "the shell live");
        const Image image = renderLayers(renderer, {kInnerRed, shell}, live);
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
        const Image overGrey = renderLayers(renderer, {kInnerRed, shell}, live, grey);
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
    SceneRenderer renderer(options(limitToGl33()));
    renderer.setVolume(volume);
    const Surface shell = withOpacity(kOuterBlue, 0.4f);
    for (float ballOpacity : {1.0f, 0.5f}) {
        SCOPED_TRACE(ballOpacity < 1.0f ? "both translucent" : "opaque ball");
        const Surface ball = withOpacity(kInnerRed, ballOpacity);
        const Image reference = renderLayers(renderer, {ball, shell}, kRed);
        EXPECT_LE(maxImageDifference(reference, renderLayers(renderer, {shell, ball}, kRed)), 1);
        EXPECT_LE(maxImageDifference(reference, renderLayers(renderer, {shell, ball}, kBlue)), 1);
        EXPECT_LE(
            maxImageDifference(reference, renderLayers(renderer, {ball, shell}, std::nullopt)), 1);
    }
}

// --- Overlapping translucent layers -------------------------------------------------------
// Nested translucent shells: along the centre ray four faces overlap (the outer shell's front,
// the inner's front, the inner's back, the outer's back), where weighted blending is no longer
// exact and its depth weight decides the result. Near and far 75 and 125 voxels from the camera
// put the faces (80, 90, 110 and 120 away) at depths 0.1, 0.3, 0.7 and 0.9.
constexpr float kNear = 75.0f;
constexpr float kFar = 125.0f;
constexpr std::uint32_t kGreen = 30;
constexpr std::uint32_t kInnerBlue = 40;
const Surface kOuterGreen{
    .id = kGreen, .name = "Green", .isovalue = 0.0, .color = glm::vec3(0.05f, 0.65f, 0.05f)};
const Surface kInnerBlueBall{.id = kInnerBlue,
                             .name = "Inner blue",
                             .isovalue = 10.0,
                             .color = glm::vec3(0.05f, 0.05f, 0.65f)};
constexpr float kGreenOpacity = 0.3f;
constexpr float kBlueOpacity = 0.5f;
const glm::vec3 kGreyBackground(0.5f);

double depthAt(double distanceFromCamera)
{
    return (distanceFromCamera - kNear) / (kFar - kNear); // orthographic: linear
}

// isosurface.frag's weight, the paper's equation 10, times the layer's alpha.
double shaderWeight(double alpha, double depth)
{
    return alpha * std::clamp(3e3 * std::pow(1.0 - depth, 3.0), 1e-2, 3e3);
}

struct Face {
    glm::dvec3 color; // shaded, 0..1
    double alpha = 1.0;
    double depth = 0.0;
};

// The exact answer: "over" from the farthest face to the nearest.
glm::dvec3 sortedComposite(std::vector<Face> faces, glm::dvec3 background)
{
    std::sort(faces.begin(), faces.end(),
              [](const Face& a, const Face& b) { return a.depth > b.depth; });
    glm::dvec3 c = background;
    for (const Face& f : faces)
        c = f.alpha * f.color + (1.0 - f.alpha) * c;
    return c;
}

// Weighted blended OIT: the weighted average of the faces' colours covers 1 - prod(1 - alpha)
// of the background, whatever the faces' order.
template <typename Weight>
glm::dvec3 weightedComposite(const std::vector<Face>& faces, glm::dvec3 background, Weight weight)
{
    glm::dvec3 sum(0.0);
    double weights = 0.0;
    double revealage = 1.0;
    for (const Face& f : faces) {
        const double w = weight(f.alpha, f.depth);
        sum += f.color * w;
        weights += w;
        revealage *= 1.0 - f.alpha;
    }
    return sum / weights * (1.0 - revealage) + background * revealage;
}

double maxChannelDistance(glm::dvec3 a, glm::dvec3 b)
{
    const glm::dvec3 d = glm::abs(a - b);
    return std::max({d.x, d.y, d.z});
}

glm::dvec3 unit(glm::ivec3 pixel)
{
    return glm::dvec3(pixel) / 255.0;
}

TEST_P(SurfaceLayersTest, OverlappingTranslucentLayersBlendByTheShadersDepthWeight)
{
    const Volume volume = makeSphere({48, 48, 48}, glm::vec3(23.5f), 20.0f);
    SceneRenderer renderer(options(limitToGl33()));
    renderer.setVolume(volume);
    std::optional<VoxelBox> crop; // the whole volume
    const auto centre = [&](const std::vector<Surface>& layers, std::optional<std::uint32_t> live) {
        Scene scene = layersScene(layers, live);
        scene.crop = crop;
        renderer.setScene(scene);
        return render(renderer, kGreyBackground, kNear, kFar).at(kCenterPixel.x, kCenterPixel.y);
    };

    // Each face's shaded colour on the centre ray, drawn opaque: the front faces whole, the back
    // faces (darker, lit with the flipped normal) with the front halves cropped away.
    const glm::ivec3 greenFront = centre({kOuterGreen}, kGreen);
    const glm::ivec3 blueFront = centre({kInnerBlueBall}, kInnerBlue);
    crop = VoxelBox{{0, 0, 0}, {47, 47, 23}};
    const glm::ivec3 greenBack = centre({kOuterGreen}, kGreen);
    const glm::ivec3 blueBack = centre({kInnerBlueBall}, kInnerBlue);
    crop = VoxelBox::whole(volume.dims());
    ASSERT_GT(greenFront.g, 150);
    ASSERT_GT(blueFront.b, 150);
    ASSERT_GT(greenBack.g, 100);
    ASSERT_GT(blueBack.b, 100);
    ASSERT_LT(greenBack.g, greenFront.g) << "back faces are darker";

    const std::vector<Face> faces{
        {unit(greenFront), kGreenOpacity, depthAt(80.0)},
        {unit(blueFront), kBlueOpacity, depthAt(90.0)},
        {unit(blueBack), kBlueOpacity, depthAt(110.0)},
        {unit(greenBack), kGreenOpacity, depthAt(120.0)},
    };
    const glm::dvec3 background(kGreyBackground);
    const glm::dvec3 predicted = weightedComposite(faces, background, shaderWeight);
    const glm::dvec3 sorted = sortedComposite(faces, background);
    const glm::dvec3 unweighted =
        weightedComposite(faces, background, [](double alpha, double) { return alpha; });
    const glm::dvec3 linearWeight = weightedComposite(
        faces, background, [](double alpha, double z) { return alpha * 3e3 * (1.0 - z); });
    // The case tells the shader's weight apart from none and from another power of depth.
    EXPECT_GT(maxChannelDistance(predicted, unweighted) * 255.0, 4.0 * kBlendTolerance);
    EXPECT_GT(maxChannelDistance(predicted, linearWeight) * 255.0, 4.0 * kBlendTolerance);
    const double fromSorted = maxChannelDistance(predicted, sorted) * 255.0;
    RecordProperty("weighted_minus_sorted_max_channel_8bit", std::to_string(fromSorted));

    const Surface green = withOpacity(kOuterGreen, kGreenOpacity);
    const Surface blue = withOpacity(kInnerBlueBall, kBlueOpacity);
    const glm::ivec3 rendered = centre({green, blue}, kGreen);
    const glm::ivec3 expected(glm::round(predicted * 255.0));
    const auto text = [](glm::dvec3 c) {
        return std::to_string(c.r) + "," + std::to_string(c.g) + "," + std::to_string(c.b);
    };
    RecordProperty("rendered_8bit", text(glm::dvec3(rendered)));
    RecordProperty("weighted_prediction_8bit", text(predicted * 255.0));
    RecordProperty("sorted_8bit", text(sorted * 255.0));
    EXPECT_LE(maxChannelDifference(rendered, expected), kBlendTolerance)
        << "centre " << rendered.r << "," << rendered.g << "," << rendered.b
        << "; weighted blended prediction " << expected.r << "," << expected.g << "," << expected.b
        << "; exactly sorted " << sorted.r * 255.0 << "," << sorted.g * 255.0 << ","
        << sorted.b * 255.0 << " (" << fromSorted << " levels apart)";
    for (const auto& [layers, live] :
         std::vector<std::pair<std::vector<Surface>, std::optional<std::uint32_t>>>{
             {{blue, green}, kGreen}, {{blue, green}, kInnerBlue}, {{green, blue}, std::nullopt}}) {
        EXPECT_LE(maxChannelDifference(centre(layers, live), rendered), 1)
            << "the layers' order or the live one changed the blend";
    }
}

// A stored mesh is drawn where the live one is, on an unevenly spaced, sheared stack too.
TEST_P(SurfaceLayersTest, StoredAndLiveDrawingsOfOneSurfaceAreTheSameImage)
{
    const Volume volume = makeWavyField(true);
    SceneRenderer renderer(options(limitToGl33()));
    renderer.setVolume(volume);
    const Surface layer{
        .id = 5, .name = "Surface", .isovalue = 0.2, .color = glm::vec3(0.7f, 0.6f, 0.3f)};
    const Image live = renderLayers(renderer, {layer}, 5);
    const Image stored = renderLayers(renderer, {layer}, std::nullopt);
    EXPECT_LE(maxImageDifference(live, stored), 1);
    const Image shown = renderLayers(renderer, {layer}, std::nullopt);
    std::vector<Surface> invisible{layer};
    invisible[0].visible = false;
    const Image none = renderLayers(renderer, invisible, std::nullopt);
    EXPECT_GT(maxImageDifference(shown, none), 100) << "the surface covers some pixels";
}

TEST_P(SurfaceLayersTest, TheRendererFreesEveryGlObjectOfItsLayers)
{
    const Volume volume = makeSphere({48, 48, 48}, glm::vec3(23.5f), 20.0f);
    const gpu::GlObjectCounts before = gpu::liveGlObjects();
    {
        SceneRenderer renderer(options(limitToGl33()));
        renderer.setVolume(volume);
        renderLayers(renderer, {kInnerRed, withOpacity(kOuterBlue, 0.4f)}, kRed);
        renderLayers(renderer, {kOuterBlue, withOpacity(kInnerRed, 0.4f)}, std::nullopt);
    }
    EXPECT_EQ(gpu::liveGlObjects(), before) << gpu::liveGlObjects().describe();
}

INSTANTIATE_TEST_SUITE_P(GlPaths, SurfaceLayersTest, ::testing::Values(false, true), glPathName);

} // namespace
} // namespace isoview::test
