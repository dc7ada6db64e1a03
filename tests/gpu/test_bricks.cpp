// Bricks: a volume too tall for one texture (here made so with a small texture limit) is cut
// into slabs of slices, and the surface comes out exactly as without bricks and as the CPU
// reference has it: same triangles, welded vertex count, positions and normals (the margin
// slices keep central differences at the slab faces), for a regular grid and for a sheared
// stack with per-slice positions, cropped or not, on both GL paths; its image equals the
// unbricked image; volume rendering still works (from a subsampled copy).
#include "core/error.h"
#include "extraction/cpu_marching_cubes.h"
#include "gpu/gl_loader.h"
#include "gpu/scene_renderer.h"
#include "support/gl_frames.h"
#include "support/gl_test_context.h"
#include "support/mesh_compare.h"
#include "support/scene_fixtures.h"
#include "support/synthetic_volumes.h"

#include <glm/gtc/matrix_transform.hpp>
#include <gtest/gtest.h>

#include <string>

namespace isoview::test {
namespace {

using gpu::SceneRenderer;

// 40 x 36 slices: 3 x 3 = 9 fit a 128-texel texture, so 30 slices take 5 slabs.
constexpr std::uint32_t kSmallTexture = 128;

SceneRenderer::Options options(bool gl33, std::uint32_t maxTexture)
{
    SceneRenderer::Options o;
    o.limitToGl33 = gl33;
    o.maxTextureSize = maxTexture;
    return o;
}

void expectSame(const IsoMesh& a, const IsoMesh& b, const std::string& what)
{
    const MeshComparison c = compareMeshes(a, b);
    SCOPED_TRACE(what + ": " + c.describe());
    EXPECT_GT(b.triangleCount(), 100u);
    EXPECT_EQ(c.trianglesA, c.trianglesB);
    EXPECT_EQ(c.verticesA, c.verticesB);
    EXPECT_EQ(c.unmatchedTriangles, 0u);
    EXPECT_EQ(c.unmatchedVertices, 0u);
    EXPECT_LE(c.maxPositionDistance, 1e-3);
    EXPECT_EQ(c.normalsBeyondOneDegree, 0u);
}

class BrickTest : public GlPathTest {};

TEST_P(BrickTest, BrickedSurfaceIsTheUnbrickedSurface)
{
    for (bool sheared : {false, true}) {
        SCOPED_TRACE(sheared ? "sheared stack" : "regular grid");
        const Volume volume = makeWavyField(sheared);
        SceneRenderer bricked(options(GetParam(), kSmallTexture));
        SceneRenderer whole(options(GetParam(), 0));
        bricked.setVolume(volume);
        whole.setVolume(volume);
        EXPECT_EQ(bricked.brickCount(), 5u);
        EXPECT_EQ(whole.brickCount(), 1u);
        for (double iso : {0.2, -0.5}) {
            const IsoMesh reference = extractIsosurfaceCpu(volume, StoredValue(float(iso)));
            const IsoMesh fromBricks = extractAt(bricked, iso);
            expectSame(fromBricks, reference, "bricked vs CPU at " + std::to_string(iso));
            expectSame(fromBricks, extractAt(whole, iso), "bricked vs unbricked");
            EXPECT_EQ(bricked.vertexCount(), 3 * reference.triangleCount());
        }
        // A crop across several slabs, and one inside a single slab.
        for (const VoxelBox box :
             {VoxelBox{{3, 2, 4}, {35, 30, 26}}, VoxelBox{{0, 0, 8}, {39, 35, 11}}}) {
            expectSame(extractAt(bricked, 0.2, box),
                       extractIsosurfaceCpu(volume, StoredValue(0.2f), box), "cropped bricks");
        }
        // A box beyond the volume (x up to 40 of 40 voxels) is refused where a crop box is
        // taken from a user; setScene takes the whole volume for it instead of throwing.
        const VoxelBox beyond{{0, 0, 0}, {40, 35, 29}};
        EXPECT_THROW(requireInside(beyond, volume.dims()), Error);
        extractAt(bricked, 0.2, beyond);
        EXPECT_EQ(bricked.crop(), VoxelBox::whole(volume.dims()));
    }
}

TEST_P(BrickTest, BrickedImageIsTheUnbrickedImageAndVolumeRenderingWorks)
{
    const Volume volume = makeWavyField(false);
    const glm::ivec2 size(80, 80);
    // Without a transfer function (none given): the surface alone, or the background alone.
    const auto render = [&](SceneRenderer& renderer, RenderMode mode,
                            const TransferFunction& tf = {}) {
        gpu::FrameParams p;
        const glm::vec3 centre(16.0f, 16.0f, 25.0f);
        p.view = glm::lookAt(centre + glm::vec3(30.0f, -40.0f, 60.0f), centre, {0, 0, 1});
        p.projection = glm::perspective(0.8f, 1.0f, 1.0f, 300.0f);
        Scene scene = oneSurfaceScene(0.2);
        scene.renderMode = mode;
        scene.orientationMarker = false;
        scene.transferFunction = tf;
        renderer.setScene(scene);
        return renderFrame(renderer, p, size).rgba;
    };
    SceneRenderer bricked(options(GetParam(), kSmallTexture));
    SceneRenderer whole(options(GetParam(), 0));
    bricked.setVolume(volume);
    whole.setVolume(volume);
    const auto a = render(bricked, RenderMode::Surface);
    const auto b = render(whole, RenderMode::Surface);
    ASSERT_EQ(a.size(), b.size());
    std::size_t different = 0;
    for (std::size_t i = 0; i < a.size(); ++i)
        different += a[i] != b[i];
    EXPECT_EQ(different, 0u);

    const auto volumeImage =
        render(bricked, RenderMode::Volume,
               TransferFunction({{-2.0, glm::vec3(1.0f), 0.0f}, {2.0, glm::vec3(1.0f), 0.6f}}));
    const auto background = [&] {
        SceneRenderer empty(options(GetParam(), kSmallTexture));
        empty.setVolume(volume);
        return render(empty, RenderMode::Volume); // no transfer function: background only
    }();
    std::size_t lit = 0;
    std::size_t surface = 0;
    for (std::size_t i = 0; i < volumeImage.size(); ++i) {
        lit += volumeImage[i] != background[i];
        surface += a[i] != background[i];
    }
    EXPECT_GT(lit, volumeImage.size() / 10) << "the ray caster shows the bricked volume";
    EXPECT_GT(surface, a.size() / 10) << "the compared surface images show the surface";
}

// A volume beyond the GPU memory budget is refused before upload with the figures, and the
// previous volume stays usable; the GPU's own report is a number on llvmpipe (system memory).
TEST(GpuMemoryCheck, AVolumeBeyondTheBudgetIsRefusedAndThePreviousStays)
{
    ASSERT_NO_THROW(glContext());
    const Volume small = makeWavyField(false); // 43,200 voxels: about 0.0002 GB
    SceneRenderer::Options o;
    o.memoryBudgetBytes = 2'000'000;
    SceneRenderer renderer(o);
    renderer.setVolume(small);
    const Volume large = makeFloatField({128, 128, 64}, [](glm::vec3 p) { return p.x; });
    try {
        renderer.setVolume(large);
        ADD_FAILURE() << "a 1M-voxel float volume fits no 2 MB budget";
    } catch (const GlError& e) {
        const std::string message = e.what();
        EXPECT_NE(message.find("This 128x128x64 float32 volume needs about 6.5 MB of GPU memory "
                               "(volume texture and pyramids), more than the budget of 2.0 MB. "),
                  std::string::npos)
            << message;
        // What to do, not only the figures.
        EXPECT_NE(message.find("To view it, open a cropped part of it (a smaller region or fewer "
                               "slices), a subsampled copy, an 8-bit copy, or raise the budget."),
                  std::string::npos)
            << message;
    }
    expectSame(extractAt(renderer, 0.2), extractIsosurfaceCpu(small, StoredValue(0.2f)),
               "previous volume");
    EXPECT_TRUE(gpu::availableGpuMemory().has_value()) << "llvmpipe reports system memory";
}

INSTANTIATE_TEST_SUITE_P(GlPaths, BrickTest, ::testing::Values(false, true), glPathName);

} // namespace
} // namespace isoview::test
