// A label map in the scene, drawn by SceneRenderer over its volume: each label in its style's
// colour, all from one extraction; hiding a label or making it translucent changes the frame
// and extracts nothing (a texture update); captureLabels gives the same surfaces the label-map
// extractor makes. A smoothed layer is drawn from the surfaces it carries, with no extraction.
#include "extraction/label_surfaces_cpu.h"
#include "extraction/smoothed_label_surfaces.h"
#include "gpu/scene_renderer.h"
#include "support/gl_frames.h"
#include "support/gl_test_context.h"
#include "support/scene_fixtures.h"
#include "support/synthetic_volumes.h"
#include "volume/label_statistics.h"
#include "volume/label_volume.h"

#include <glm/gtc/matrix_transform.hpp>

#include <memory>

namespace isoview::test {
namespace {

// Two boxes side by side on a 32^3 grid, touching at x = 16: label 3 on the left, 7 on the
// right, seen from +z.
std::shared_ptr<const Volume> twoBoxes()
{
    return std::make_shared<const Volume>(toLabelVolume(makeTypedVolume<std::uint16_t>(
        {32, 32, 32}, [](std::uint32_t i, std::uint32_t j, std::uint32_t k) -> int {
            if (j < 8 || j > 23 || k < 8 || k > 23 || i < 6 || i > 25) return 0;
            return i < 16 ? 3 : 7;
        })));
}

gpu::FrameParams frontView()
{
    gpu::FrameParams p;
    const glm::vec3 centre(15.5f);
    p.view = glm::lookAt(centre + glm::vec3(0.0f, 0.0f, 100.0f), centre, {0.0f, 1.0f, 0.0f});
    p.projection = glm::ortho(-16.0f, 16.0f, -16.0f, 16.0f, 1.0f, 200.0f);
    p.backgroundTop = p.backgroundBottom = glm::vec3(0.0f);
    return p;
}

// The two boxes as the renderer's volume and label map, and a scene showing only them: 3 red,
// 7 blue.
Scene labelledScene(const std::shared_ptr<const Volume>& labels, gpu::SceneRenderer& renderer)
{
    renderer.setVolume(*labels);
    renderer.setLabelMap(labels);
    Scene scene = noSurfaceScene();
    scene.orientationMarker = false;
    scene.labels = LabelLayer::of(
        labels, std::make_shared<const LabelStatistics>(analyseLabels(*labels)), LabelTable{});
    scene.labels->styles[3].color = {1.0f, 0.0f, 0.0f};
    scene.labels->styles[7].color = {0.0f, 0.0f, 1.0f};
    return scene;
}

class LabelRenderingTest : public GlPathTest {};

TEST_P(LabelRenderingTest, LabelsShowInTheirStylesFromOneExtraction)
{
    const std::shared_ptr<const Volume> labels = twoBoxes();
    gpu::SceneRenderer renderer(gpu::SceneRenderer::Options{limitToGl33()});
    Scene scene = labelledScene(labels, renderer);
    renderer.setScene(scene);
    const glm::ivec2 size(64, 64);
    const glm::ivec2 left(20, 32);  // over label 3 (x 6..15 at 2 pixels a voxel)
    const glm::ivec2 right(44, 32); // over label 7
    const RgbaFrame both = renderFrame(renderer, frontView(), size);
    // Red over label 3, blue over 7 (the headlight's specular adds the same grey to all three).
    const glm::ivec3 red = both.at(left.x, left.y);
    const glm::ivec3 blue = both.at(right.x, right.y);
    EXPECT_GT(red.r, red.b + 100) << red.r << " " << red.g << " " << red.b;
    EXPECT_EQ(red.g, red.b);
    EXPECT_GT(blue.b, blue.r + 100) << blue.r << " " << blue.g << " " << blue.b;
    EXPECT_EQ(blue.g, blue.r);
    EXPECT_EQ(renderer.labelExtractions(), 1u);

    scene.labels->styles[7].visible = false; // 7 hidden: background where it was
    renderer.setScene(scene);
    const RgbaFrame hidden = renderFrame(renderer, frontView(), size);
    EXPECT_EQ(hidden.at(right.x, right.y), glm::ivec3(0));
    EXPECT_EQ(hidden.at(left.x, left.y), both.at(left.x, left.y));

    scene.labels->styles[7].visible = true; // 7 translucent: dimmer blue, still no red
    scene.labels->styles[7].opacity = 0.4f;
    renderer.setScene(scene);
    const RgbaFrame translucent = renderFrame(renderer, frontView(), size);
    EXPECT_GT(translucent.at(right.x, right.y).b, 0);
    EXPECT_LT(translucent.at(right.x, right.y).b, both.at(right.x, right.y).b);
    EXPECT_EQ(renderer.labelExtractions(), 1u) << "a style change must not extract";

    const std::vector<LabelSurface> surfaces = renderer.captureLabels();
    ASSERT_EQ(surfaces.size(), 2u);
    EXPECT_EQ(surfaces[0].label, 3u);
    EXPECT_EQ(surfaces[1].label, 7u);
    const std::vector<LabelSurface> cpu = extractLabelSurfacesCpu(*labels);
    EXPECT_EQ(surfaces[0].mesh.triangleCount(), cpu[0].mesh.triangleCount());
    EXPECT_EQ(surfaces[1].mesh.vertexCount(), cpu[1].mesh.vertexCount());
    EXPECT_EQ(renderer.labelExtractions(), 1u);
}

TEST_P(LabelRenderingTest, ASmoothedLayerIsDrawnFromItsSurfacesWithoutAnExtraction)
{
    const std::shared_ptr<const Volume> labels = twoBoxes();
    gpu::SceneRenderer renderer(gpu::SceneRenderer::Options{limitToGl33()});
    Scene scene = labelledScene(labels, renderer);
    const LabelStatistics& statistics = *scene.labels->statistics;
    scene.labels->smoothingSigmaMm = 2.0;
    auto smoothed = std::make_shared<SmoothedLabelSurfaces>();
    smoothed->labelMap = labels;
    smoothed->sigmaMm = 2.0;
    smoothed->crop = VoxelBox::whole(labels->dims());
    smoothed->surfaces = extractSmoothedLabelSurfacesCpu(*labels, statistics, 2.0);
    scene.labels->smoothed = smoothed;
    renderer.setScene(scene);
    const glm::ivec2 size(64, 64);
    // Pixel (13, 16) looks at index (6.25, 7.75), 0.75 and 0.25 voxels inside the corner of
    // label 3's box (5.5, 7.5): inside the plain surface, which only chamfers the corner at
    // their sum 0.5; outside the blurred one (0.5 there only where Phi(dx/2) Phi(dy/2) = 0.5).
    const glm::ivec2 corner(13, 16);
    const RgbaFrame frame = renderFrame(renderer, frontView(), size);
    EXPECT_GT(frame.at(20, 32).r, frame.at(20, 32).b + 100) << "label 3 in its colour";
    EXPECT_EQ(frame.at(corner.x, corner.y), glm::ivec3(0)) << "the corner is rounded off";
    EXPECT_EQ(renderer.labelExtractions(), 0u) << "smoothed surfaces need no extraction";
    const std::vector<LabelSurface> captured = renderer.captureLabels();
    ASSERT_EQ(captured.size(), 2u);
    for (std::size_t i = 0; i < 2; ++i)
        EXPECT_EQ(captured[i].mesh.indices, smoothed->surfaces[i].mesh.indices);

    scene.labels->smoothingSigmaMm = 0.0; // off: the extraction's blocky corner is back
    renderer.setScene(scene);
    const RgbaFrame plain = renderFrame(renderer, frontView(), size);
    EXPECT_GT(plain.at(corner.x, corner.y).r, 100);
    EXPECT_EQ(renderer.labelExtractions(), 1u);
}

INSTANTIATE_TEST_SUITE_P(GlPaths, LabelRenderingTest, ::testing::Bool(), glPathName);

} // namespace
} // namespace isoview::test
