// Label surfaces against their definition: each label's mesh must be, bit for bit, what the CPU
// reference extracts from a whole-volume float indicator of that label at 0.5, whatever the
// geometry (mirrored and anisotropic, sheared stacks), crop, or the labels' contacts with each
// other and with the volume's faces. On D99 (365 labels) it also logs how long all labels take.
#include "extraction/cpu_marching_cubes.h"
#include "extraction/label_surfaces_cpu.h"
#include "io/volume_loader.h"
#include "support/shared_data.h"
#include "support/synthetic_volumes.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>

namespace isoview {
namespace {

// The label's indicator as a float32 volume with the label map's geometry.
Volume indicatorOf(const Volume& labels, std::uint32_t label)
{
    return test::makeTypedVolume<float>(
        labels.dims(),
        [&](std::uint32_t i, std::uint32_t j, std::uint32_t k) {
            return labels.valueAt(i, j, k) == float(label) ? 1.0f : 0.0f;
        },
        labels.geometry());
}

bool sameBits(glm::vec3 a, glm::vec3 b)
{
    return std::memcmp(&a, &b, sizeof a) == 0;
}

void expectIdentical(const IsoMesh& ours, const IsoMesh& reference, const std::string& what)
{
    ASSERT_EQ(ours.vertexCount(), reference.vertexCount()) << what;
    EXPECT_EQ(ours.edgeKeys, reference.edgeKeys) << what;
    EXPECT_EQ(ours.indices, reference.indices) << what;
    for (std::size_t v = 0; v < ours.vertexCount(); ++v) {
        ASSERT_TRUE(sameBits(ours.positions[v], reference.positions[v])) << what << " vertex " << v;
        ASSERT_TRUE(sameBits(ours.normals[v], reference.normals[v])) << what << " vertex " << v;
    }
}

// 12 x 10 x 9 uint16 labels: 3, a slab on the x = 0 and both z faces; 5, a block touching 3;
// 2, a ball touching 5; 7, one voxel inside; 9, one voxel in the far corner of the volume.
Volume touchingLabels(const VolumeGeometry& geometry)
{
    return test::makeTypedVolume<std::uint16_t>(
        {12, 10, 9},
        [](std::uint32_t i, std::uint32_t j, std::uint32_t k) -> int {
            if (i == 11 && j == 9 && k == 8) return 9;
            if (i == 8 && j == 2 && k == 6) return 7;
            if (i <= 2 && j >= 1 && j <= 7) return 3;
            if (i >= 3 && i <= 6 && j >= 2 && j <= 6 && k >= 2 && k <= 5) return 5;
            const glm::vec3 d = glm::vec3(i, j, k) - glm::vec3(8.5f, 6.0f, 3.5f);
            return glm::dot(d, d) <= 6.5f ? 2 : 0;
        },
        geometry);
}

TEST(LabelSurfacesCpu, EachLabelEqualsTheReferenceOnItsIndicator)
{
    VolumeGeometry mirrored; // anisotropic, x axis reversed (negative determinant)
    mirrored.spacing = {0.7, 1.3, 2.1};
    mirrored.direction = glm::dmat3(-1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0);
    mirrored.origin = {5.0, -3.0, 1.0};
    VolumeGeometry sheared = mirrored; // uneven, sheared slices: per-slice normal matrices
    for (int k = 0; k < 9; ++k) {
        sheared.sliceOrigins.emplace_back(0.2 * k, 0.1 * k * k, 1.5 * k + (k > 4 ? 1.0 : 0.0));
    }
    const VoxelBox crops[] = {
        {{0, 0, 0}, {11, 9, 8}}, {{2, 1, 3}, {9, 8, 8}}, {{0, 3, 0}, {4, 9, 5}}};

    for (const auto& [name, geometry] :
         {std::pair{"identity", VolumeGeometry{}}, std::pair{"mirrored", mirrored},
          std::pair{"sheared", sheared}}) {
        const Volume labels = touchingLabels(geometry);
        ASSERT_TRUE(geometry.isMirrored() == (std::string(name) != "identity"));
        for (const VoxelBox& crop : crops) {
            const std::vector<LabelSurface> surfaces = extractLabelSurfacesCpu(labels, {}, crop);
            ASSERT_EQ(surfaces.size(), 5u);
            for (const LabelSurface& s : surfaces) {
                const std::string what = std::string(name) + " label " + std::to_string(s.label) +
                                         " crop from " + std::to_string(crop.first.x) + "," +
                                         std::to_string(crop.first.y) + "," +
                                         std::to_string(crop.first.z);
                const IsoMesh reference =
                    extractIsosurfaceCpu(indicatorOf(labels, s.label), StoredValue(0.5), crop);
                expectIdentical(s.mesh, reference, what);
                // Whole: every label, a single voxel included, has its closed surface.
                if (crop == crops[0]) {
                    EXPECT_GT(s.mesh.triangleCount(), 0u) << what;
                }
            }
        }
    }
}

TEST(LabelSurfacesCpu, WantedLabelsComeAscendingAbsentOnesEmptyAndBackgroundIsRefused)
{
    const Volume labels = touchingLabels({});
    const std::vector<LabelSurface> surfaces = extractLabelSurfacesCpu(labels, {9, 4, 3, 9});
    ASSERT_EQ(surfaces.size(), 3u);
    EXPECT_EQ(surfaces[0].label, 3u);
    EXPECT_EQ(surfaces[1].label, 4u);
    EXPECT_EQ(surfaces[2].label, 9u);
    EXPECT_EQ(surfaces[1].mesh.vertexCount(), 0u);
    // One voxel in the volume's corner: of its octahedron only the one triangle that cuts the
    // three edges leading inward.
    EXPECT_EQ(surfaces[2].mesh.vertexCount(), 3u);
    EXPECT_EQ(surfaces[2].mesh.triangleCount(), 1u);
    EXPECT_THROW(extractLabelSurfacesCpu(labels, {0, 3}), InvalidInputError);
    EXPECT_THROW(extractLabelSurfacesCpu(labels, {}, VoxelBox{{0, 0, 0}, {12, 9, 8}}), Error);
}

TEST(LabelSurfacesCpu, D99AllLabelsTimedAndOneMatchesItsIndicator)
{
    const Volume d99 = io::loadVolume(test::sharedDataPath("labels/D99_atlas_v2.0_right.nii.gz"));
    const auto start = std::chrono::steady_clock::now();
    const LabelStatistics stats = analyseLabels(d99);
    const auto analysed = std::chrono::steady_clock::now();
    const std::vector<LabelSurface> surfaces = extractLabelSurfacesCpu(d99, stats);
    const auto done = std::chrono::steady_clock::now();

    std::size_t triangles = 0;
    for (const LabelSurface& s : surfaces) {
        EXPECT_GT(s.mesh.triangleCount(), 0u) << "label " << s.label;
        triangles += s.mesh.triangleCount();
    }
    const auto ms = [](auto d) { return std::chrono::duration<double, std::milli>(d).count(); };
    std::printf("D99 %ux%ux%u: analyseLabels %.0f ms, %zu label surfaces (%zu triangles) %.0f ms\n",
                d99.dims().x, d99.dims().y, d99.dims().z, ms(analysed - start), surfaces.size(),
                triangles, ms(done - analysed));
    ASSERT_EQ(surfaces.size(), 365u);

    // The label with the most voxels: its box is the largest, its contacts the most.
    const LabelInfo* largest = &stats.labels.front();
    for (const LabelInfo& info : stats.labels) {
        if (info.voxelCount > largest->voxelCount) largest = &info;
    }
    const LabelSurface& ours = surfaces[std::size_t(largest - stats.labels.data())];
    expectIdentical(ours.mesh,
                    extractIsosurfaceCpu(indicatorOf(d99, largest->label), StoredValue(0.5)),
                    "D99 label " + std::to_string(largest->label));
}

} // namespace
} // namespace isoview
