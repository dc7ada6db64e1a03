// A series' time points on the GPU (SceneRenderer::setTimePoint): after the first, each one's
// values replace the last's, the crop and pyramid kept; with room, the time points shown before
// stay resident and are not uploaded again; with a budget too small for that they are streamed
// (uploaded again each time). Both give the CPU reference's surface of each time point, by edge
// key and winding, cropped or not.
#include "extraction/cpu_marching_cubes.h"
#include "gpu/scene_renderer.h"
#include "support/gl_test_context.h"
#include "support/mesh_compare.h"
#include "support/scene_fixtures.h"
#include "support/synthetic_volumes.h"

#include <gtest/gtest.h>

#include <memory>
#include <vector>

namespace isoview::test {
namespace {

class TimePointTest : public GlTest {};

// Three spheres on one 40^3 grid, each elsewhere and of another size.
std::shared_ptr<const VolumeSeries> sphereSeries()
{
    std::vector<std::shared_ptr<const Volume>> volumes;
    for (int t = 0; t < 3; ++t)
        volumes.push_back(std::make_shared<const Volume>(
            makeSphere({40, 40, 40}, glm::vec3(17.5f + 2.0f * float(t)), 9.0f + 3.0f * float(t))));
    return std::make_shared<const VolumeSeries>(
        volumes, std::vector<std::string>{"time point 1", "time point 2", "time point 3"});
}

// Steps through the time points in `order`, the scene cropped to `crop`, and compares each
// time point's surface with the CPU reference; returns how many steps found theirs resident.
int stepAndCompare(gpu::SceneRenderer& renderer, const VolumeSeries& series,
                   const std::shared_ptr<const VolumeSeries>& shared, const VoxelBox& crop,
                   const std::vector<std::size_t>& order)
{
    Scene scene = oneSurfaceScene(0.0);
    scene.crop = crop;
    int resident = 0;
    for (std::size_t t : order) {
        renderer.setTimePoint(shared, t);
        resident += renderer.lastTimePointWasResident() ? 1 : 0;
        renderer.setScene(scene);
        renderer.extractSurface();
        const IsoMesh gpu = captureLive(renderer, scene);
        const IsoMesh cpu = extractIsosurfaceCpu(*series.volume(t), StoredValue(0.0f), crop);
        const MeshComparison c = compareMeshes(gpu, cpu);
        EXPECT_GT(c.trianglesB, 100u) << "time point " << t;
        EXPECT_EQ(c.trianglesA, c.trianglesB) << "time point " << t << ": " << c.describe();
        EXPECT_EQ(c.verticesA, c.verticesB) << "time point " << t << ": " << c.describe();
        EXPECT_EQ(c.unmatchedTriangles, 0u) << "time point " << t << ": " << c.describe();
        EXPECT_EQ(c.unmatchedVertices, 0u) << "time point " << t << ": " << c.describe();
    }
    return resident;
}

TEST_F(TimePointTest, ResidentAndStreamedTimePointsGiveTheCpuReferencesSurfaces)
{
    const std::shared_ptr<const VolumeSeries> series = sphereSeries();
    const std::vector<std::size_t> order = {0, 1, 2, 1, 0, 2};
    const VoxelBox crop{{2, 3, 4}, {37, 33, 30}}; // cuts every sphere but the first

    gpu::SceneRenderer resident; // no budget: llvmpipe keeps up to 1 GiB of time points
    EXPECT_EQ(stepAndCompare(resident, *series, series, crop, order), 3);
    EXPECT_EQ(resident.residentTimePoints(), 2u);

    // A budget that holds one time point with its cropped pyramid and its largest surface, and
    // half a texture more: no room for a resident one.
    gpu::SceneRenderer::Options small;
    {
        gpu::SceneRenderer probe;
        probe.setVolume(*series->volume(2));
        extractAt(probe, 0.0, crop);
        const gpu::GpuMemoryUse use = probe.memoryUse();
        small.memoryBudgetBytes = use.volumeTextureBytes * 3 / 2 + use.pyramidBytes + use.meshBytes;
    }
    gpu::SceneRenderer streamed(small);
    EXPECT_EQ(stepAndCompare(streamed, *series, series, crop, order), 0);
    EXPECT_EQ(streamed.residentTimePoints(), 0u);

    // Another volume ends the series: nothing of it stays on the GPU.
    resident.setVolume(*series->volume(1));
    EXPECT_EQ(resident.residentTimePoints(), 0u);
}

} // namespace
} // namespace isoview::test
