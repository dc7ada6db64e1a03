// Label maps on the GPU: one extractLabels() pass makes every label's surface, and each must be
// the isosurface at 0.5 of that label's indicator, which the CPU reference gives when it is
// handed the indicator as a volume (same geometry). Compared per label as test_gpu_vs_cpu.cpp
// compares isosurfaces: the same triangles by edge keys with winding, the same welded vertices,
// positions within 1e-3 voxels, normals within a degree. On both GL paths.
#include "extraction/cpu_marching_cubes.h"
#include "extraction/label_surfaces_cpu.h"
#include "io/volume_loader.h"
#include "support/gl_test_context.h"
#include "support/gpu_extractor.h"
#include "support/mesh_compare.h"
#include "support/shared_data.h"
#include "support/synthetic_volumes.h"
#include "volume/label_volume.h"

#include <glm/gtc/constants.hpp>

#include <cstdint>
#include <map>
#include <random>
#include <set>

namespace isoview::test {
namespace {

// The float volume that is 1 where `labels` holds `label`, 0 elsewhere, on the same grid.
Volume indicatorOf(const Volume& labels, std::uint32_t label)
{
    const glm::uvec3 d = labels.dims();
    return makeTypedVolume<float>(
        d,
        [&](std::uint32_t i, std::uint32_t j, std::uint32_t k) {
            return labels.valueAt(i, j, k) == float(label) ? 1.0f : 0.0f;
        },
        labels.geometry());
}

std::set<std::uint32_t> labelsIn(const Volume& volume)
{
    std::set<std::uint32_t> labels;
    for (std::size_t i = 0; i < volume.voxelCount(); ++i) {
        const float v = volume.valueAt(i);
        if (v != 0.0f) labels.insert(std::uint32_t(v));
    }
    return labels;
}

// Extracts every label on the GPU and checks each against its indicator's CPU surface.
void expectEveryLabelAsItsIndicator(const Volume& volume, bool limitToGl33)
{
    GpuExtractor extractor(limitToGl33, /*labels=*/true);
    extractor.setVolume(volume);
    extractor->extractLabels();
    const std::vector<LabelSurface> gpu = extractor->captureLabels();
    std::map<std::uint32_t, const IsoMesh*> byLabel;
    for (const LabelSurface& s : gpu)
        byLabel[s.label] = &s.mesh;
    std::size_t triangles = 0;
    std::size_t vertices = 0;
    for (std::uint32_t label : labelsIn(volume)) {
        const IsoMesh cpu = extractIsosurfaceCpu(indicatorOf(volume, label), StoredValue(0.5));
        const auto found = byLabel.find(label);
        ASSERT_NE(found, byLabel.end()) << "label " << label << " has no GPU surface";
        const MeshComparison c = compareMeshes(*found->second, cpu);
        SCOPED_TRACE("label " + std::to_string(label) + ": " + c.describe());
        EXPECT_GT(cpu.triangleCount(), 0u);
        EXPECT_EQ(c.trianglesA, c.trianglesB);
        EXPECT_EQ(c.verticesA, c.verticesB);
        EXPECT_EQ(c.unmatchedTriangles, 0u);
        EXPECT_EQ(c.unmatchedVertices, 0u);
        EXPECT_EQ(c.nonFinitePositions, 0u);
        EXPECT_LE(c.maxPositionDistance, 1e-3);
        EXPECT_EQ(c.normalsBeyondOneDegree, 0u);
        triangles += cpu.triangleCount();
        vertices += cpu.vertexCount();
        byLabel.erase(found);
    }
    EXPECT_TRUE(byLabel.empty()) << "the GPU made a surface for a label the volume lacks";
    // The one mesh the draw uses holds every label's triangles; its vertex slots (two per
    // edge between labels) include the unused background sides.
    EXPECT_EQ(extractor->vertexCount(), 3 * triangles);
    EXPECT_GE(extractor->weldedVertexCount(), vertices);
}

// A 29 x 23 x 17 label map on a mirrored, anisotropic grid: two touching blobs (3 and 7), a
// label of one voxel (9), a slab on the volume's faces (2), a large label number (60000) and a
// corner of random labels 1..12 where most cells hold several labels (up to all 8 corners
// different).
Volume makeLabelMap()
{
    VolumeGeometry geometry;
    geometry.spacing = {0.7, 1.3, 2.1};
    geometry.direction = glm::dmat3(glm::dvec3(-1, 0, 0), glm::dvec3(0, 1, 0), glm::dvec3(0, 0, 1));
    std::mt19937 random(7);
    std::uniform_int_distribution<int> anyLabel(1, 12);
    std::vector<int> noise(29 * 23 * 17);
    for (int& n : noise)
        n = anyLabel(random);
    return makeTypedVolume<std::uint16_t>(
        {29, 23, 17},
        [&](std::uint32_t i, std::uint32_t j, std::uint32_t k) -> int {
            const glm::vec3 p(i, j, k);
            if (i >= 21 && j >= 15 && k >= 9) return noise[i + 29 * (j + 23 * k)];
            if (i == 4 && j == 17 && k == 3) return 9;
            if (k == 0 || j == 22) return 2;
            if (glm::length(p - glm::vec3(9, 9, 8)) < 5.2f) return 3;
            if (glm::length(p - glm::vec3(15, 10, 8)) < 4.7f) return 7;
            if (i >= 24 && j < 6 && k >= 3 && k < 8) return 60000;
            return 0;
        },
        geometry);
}

class LabelExtractionTest : public GlPathTest {};

TEST_P(LabelExtractionTest, EveryLabelIsTheSurfaceOfItsIndicator)
{
    expectEveryLabelAsItsIndicator(makeLabelMap(), limitToGl33());
}

INSTANTIATE_TEST_SUITE_P(GlPaths, LabelExtractionTest, ::testing::Bool(), glPathName);

// The shared label maps (their README gives each one's source): every label on the GPU against
// the CPU reference (extractLabelSurfacesCpu, itself checked against its definition and VTK),
// the whole map at once, uploaded as toLabelVolume makes it. The prostate's in-plane axes are
// both negative; D99 is float32 with 365 labels (2,387,708 triangles, VTK's count too).
void expectSameAsCpuReference(const std::string& relativePath, bool limitToGl33,
                              std::size_t expectedLabels)
{
    const Volume source = io::loadVolume(sharedDataPath(relativePath));
    const Volume labels = toLabelVolume(source);
    GpuExtractor extractor(limitToGl33, /*labels=*/true);
    extractor.setVolume(labels);
    extractor->extractLabels();
    const std::vector<LabelSurface> gpu = extractor->captureLabels();
    const std::vector<LabelSurface> cpu = extractLabelSurfacesCpu(source);
    ASSERT_EQ(gpu.size(), expectedLabels);
    ASSERT_EQ(cpu.size(), expectedLabels);
    std::size_t mismatched = 0;
    for (std::size_t i = 0; i < cpu.size(); ++i) {
        ASSERT_EQ(gpu[i].label, cpu[i].label);
        const MeshComparison c = compareMeshes(gpu[i].mesh, cpu[i].mesh);
        const bool same = c.trianglesA == c.trianglesB && c.verticesA == c.verticesB &&
                          c.unmatchedTriangles == 0 && c.unmatchedVertices == 0 &&
                          c.nonFinitePositions == 0 && c.maxPositionDistance <= 1e-3 &&
                          c.normalsBeyondOneDegree == 0;
        if (!same && ++mismatched <= 3)
            ADD_FAILURE() << "label " << cpu[i].label << ": " << c.describe();
    }
    EXPECT_EQ(mismatched, 0u);
}

TEST_P(LabelExtractionTest, TheProstatePhantomsFourLabelsAreTheCpuReferences)
{
    expectSameAsCpuReference("nrrd/prostate_phantom_subvolume-label.nrrd", limitToGl33(), 4);
}

TEST_F(GlTest, TheD99AtlasIs365LabelsFromOnePassAsTheCpuReferenceMakesThem)
{
    expectSameAsCpuReference("labels/D99_atlas_v2.0_right.nii.gz", false, 365);
}

} // namespace
} // namespace isoview::test
