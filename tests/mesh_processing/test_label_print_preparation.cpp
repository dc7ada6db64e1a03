// A label map's labels prepared for printing (label_print_preparation.h): a label cut by the
// volume's or the crop's faces is closed watertight, exactly as against its whole indicator
// (the indicator set only on the faces changes nothing), a smoothed label is closed against its
// blurred indicator, and a label inside the box is left unclosed, its report saying so.
#include "core/error.h"
#include "extraction/label_surfaces_cpu.h"
#include "extraction/mesh_metrics.h"
#include "extraction/smoothed_label_surfaces.h"
#include "mesh_processing/label_print_preparation.h"
#include "support/synthetic_volumes.h"
#include "volume/label_statistics.h"

#include <gtest/gtest.h>

#include <optional>

namespace isoview::test {
namespace {

// Label 1: a ball inside the volume. Label 2: a slab through the x = 0 face, beside it.
Volume twoLabels()
{
    return makeFloatField({24, 20, 16}, [](glm::vec3 p) {
        if (glm::length(p - glm::vec3(15.0f, 10.0f, 8.0f)) < 4.5f) return 1.0f;
        if (p.x <= 6.0f && p.y >= 3.0f && p.y <= 14.0f && p.z >= 2.0f && p.z <= 12.0f) return 2.0f;
        return 0.0f;
    });
}

// The label's indicator over the whole grid: what closing read before it was limited to the
// faces.
Volume wholeIndicator(const Volume& labels, std::uint32_t label)
{
    std::vector<std::byte> bytes(labels.voxelCount());
    for (std::size_t i = 0; i < bytes.size(); ++i)
        bytes[i] = std::byte(labels.valueAt(i) == float(label) ? 1 : 0);
    return Volume(labels.dims(), ScalarType::UInt8, std::move(bytes), labels.geometry());
}

IsoMesh surfaceOf(const Volume& labels, std::uint32_t label, const std::optional<VoxelBox>& crop)
{
    std::vector<LabelSurface> surfaces = extractLabelSurfacesCpu(labels, {label}, crop);
    EXPECT_EQ(surfaces.size(), 1u);
    return surfaces.empty() ? IsoMesh{} : std::move(surfaces[0].mesh);
}

void expectWatertight(const IsoMesh& mesh)
{
    const MeshTopology t = analyzeTopology(mesh);
    EXPECT_GT(mesh.triangleCount(), 0u);
    EXPECT_EQ(t.boundaryEdges, 0u);
    EXPECT_EQ(t.nonManifoldEdges, 0u);
}

TEST(LabelPrintPreparationTest, ALabelOnTheFacesIsClosedAsAgainstItsWholeIndicator)
{
    const Volume labels = twoLabels();
    const LabelStatistics statistics = analyseLabels(labels);
    const LabelInfo& slab = *statistics.find(2);
    const PrintSteps steps{.closeBorders = true, .keepLargest = true};
    // The whole volume (the slab reaches x = 0), then a crop that cuts it on its other sides.
    for (const VoxelBox box : {VoxelBox::whole(labels.dims()), VoxelBox{{2, 5, 4}, {20, 18, 14}}}) {
        ASSERT_TRUE(labelTouchesBoxFaces(slab, box));
        const IsoMesh open = surfaceOf(labels, 2, box);
        EXPECT_GT(analyzeTopology(open).boundaryEdges, 0u) << "the faces cut it open";
        const PreparedMesh p = prepareLabelMesh(open, labels, slab, 0.0, box, steps);
        const PreparedMesh whole =
            prepareMesh(open, wholeIndicator(labels, 2), kLabelIsovalue, box, steps);
        expectWatertight(p.mesh);
        EXPECT_TRUE(p.report.watertight);
        EXPECT_GT(p.report.capTriangles, 0u);
        EXPECT_EQ(p.report.steps, "close-borders keep-largest");
        EXPECT_EQ(p.mesh.positions, whole.mesh.positions);
        EXPECT_EQ(p.mesh.indices, whole.mesh.indices);
    }
}

TEST(LabelPrintPreparationTest, ALabelInsideTheBoxIsNotClosedAndItsReportSaysSo)
{
    const Volume labels = twoLabels();
    const LabelStatistics statistics = analyseLabels(labels);
    const LabelInfo& ball = *statistics.find(1);
    const VoxelBox box = VoxelBox::whole(labels.dims());
    ASSERT_FALSE(labelTouchesBoxFaces(ball, box));
    const IsoMesh surface = surfaceOf(labels, 1, box);
    const PreparedMesh p = prepareLabelMesh(surface, labels, ball, 0.0, box,
                                            {.closeBorders = true, .decimateFraction = 0.5});
    EXPECT_EQ(p.report.steps, "decimate=0.5");
    EXPECT_EQ(p.report.capTriangles, 0u);
    expectWatertight(p.mesh);
    EXPECT_LT(p.mesh.triangleCount(), surface.triangleCount());
}

TEST(LabelPrintPreparationTest, ASmoothedLabelIsClosedAgainstItsBlurredIndicator)
{
    const Volume labels = twoLabels();
    const LabelStatistics statistics = analyseLabels(labels);
    const LabelInfo& slab = *statistics.find(2);
    const VoxelBox box{{2, 5, 4}, {20, 18, 14}};
    const double sigmaMm = 1.2;
    const IsoMesh open =
        extractSmoothedLabelSurfacesCpu(labels, statistics, sigmaMm, {2}, box).at(0).mesh;
    EXPECT_GT(analyzeTopology(open).boundaryEdges, 0u) << "the crop cuts it open";
    const PreparedMesh p =
        prepareLabelMesh(open, labels, slab, sigmaMm, box, {.closeBorders = true});
    expectWatertight(p.mesh);
    EXPECT_GT(p.report.capTriangles, 0u);
    // Against the voxels' own indicator the smoothed rim has no partner: the caps need its field.
    EXPECT_THROW(prepareLabelMesh(open, labels, slab, 0.0, box, {.closeBorders = true}),
                 InvalidInputError);
}

} // namespace
} // namespace isoview::test
