// Smoothed label surfaces against known answers: sigma 0 is the plain label surface bit for bit;
// a blurred ball's 0.5 surface is a round sphere of the ball's radius (less sigma^2 / R, the
// curvature's pull) in millimetres on an anisotropic grid, far rounder than its voxel steps; two
// labels splitting a block meet on their shared plane after blurring; a one-voxel label fades
// away; bad sigmas and a cancel are refused.
#include "core/error.h"
#include "extraction/label_surfaces_cpu.h"
#include "extraction/mesh_metrics.h"
#include "extraction/smoothed_label_surfaces.h"
#include "support/synthetic_volumes.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace isoview {
namespace {

constexpr float kRadiusMm = 8.0f;

// Label 4: a ball of kRadiusMm around the grid's centre, on 1 x 1 x 2 mm voxels; label 6: one
// voxel in a corner region.
Volume ballLabels()
{
    VolumeGeometry geometry;
    geometry.spacing = {1.0, 1.0, 2.0};
    return test::makeTypedVolume<std::uint16_t>(
        {32, 32, 16},
        [](std::uint32_t i, std::uint32_t j, std::uint32_t k) -> int {
            if (i == 3 && j == 3 && k == 3) return 6;
            const glm::vec3 mm =
                glm::vec3(float(i), float(j), 2.0f * float(k)) - glm::vec3(15.5f, 15.5f, 15.0f);
            return glm::length(mm) <= kRadiusMm ? 4 : 0;
        },
        geometry);
}

// Distances of the mesh's vertices from the ball's centre, in mm: (smallest, largest).
std::pair<float, float> radiusRange(const IsoMesh& mesh)
{
    float lo = std::numeric_limits<float>::max();
    float hi = 0.0f;
    for (const glm::vec3& p : mesh.positions) {
        const float r =
            glm::length(glm::vec3(p.x, p.y, 2.0f * p.z) - glm::vec3(15.5f, 15.5f, 15.0f));
        lo = std::min(lo, r);
        hi = std::max(hi, r);
    }
    return {lo, hi};
}

TEST(SmoothedLabelSurfaces, SigmaZeroIsThePlainLabelSurfaceBitForBit)
{
    const Volume labels = ballLabels();
    const LabelStatistics stats = analyseLabels(labels);
    const auto plain = extractLabelSurfacesCpu(labels, stats);
    const auto smoothed = extractSmoothedLabelSurfacesCpu(labels, stats, 0.0);
    ASSERT_EQ(plain.size(), smoothed.size());
    for (std::size_t i = 0; i < plain.size(); ++i) {
        EXPECT_EQ(smoothed[i].label, plain[i].label);
        EXPECT_EQ(smoothed[i].mesh.positions, plain[i].mesh.positions);
        EXPECT_EQ(smoothed[i].mesh.normals, plain[i].mesh.normals);
        EXPECT_EQ(smoothed[i].mesh.indices, plain[i].mesh.indices);
    }
}

TEST(SmoothedLabelSurfaces, ABlurredBallIsARoundSphereAndAOneVoxelLabelFades)
{
    const Volume labels = ballLabels();
    const LabelStatistics stats = analyseLabels(labels);
    const auto plain = extractLabelSurfacesCpu(labels, stats, {4});
    const auto smoothed = extractSmoothedLabelSurfacesCpu(labels, stats, 1.5);
    ASSERT_EQ(smoothed.size(), 2u);
    ASSERT_EQ(smoothed[0].label, 4u);
    const auto [plainLo, plainHi] = radiusRange(plain[0].mesh);
    const auto [lo, hi] = radiusRange(smoothed[0].mesh);
    // The 0.5 level of a ball blurred by sigma sits sigma^2 / R inside it (0.28 mm here).
    const float expected = kRadiusMm - 1.5f * 1.5f / kRadiusMm;
    // Within a fifth of the 2 mm slice spacing: vertices interpolate linearly between samples
    // (7.56 .. 8.06 mm here, against 7.38 .. 8.86 mm unsmoothed).
    EXPECT_NEAR(lo, expected, 0.4f);
    EXPECT_NEAR(hi, expected, 0.4f);
    EXPECT_LT(hi - lo, 0.4f * (plainHi - plainLo)) << "plain spread " << plainHi - plainLo;
    const MeshTopology topology = analyzeTopology(smoothed[0].mesh);
    EXPECT_EQ(topology.boundaryEdges + topology.nonManifoldEdges, 0u);
    EXPECT_EQ(topology.eulerCharacteristic, 2);
    EXPECT_EQ(smoothed[1].label, 6u);
    EXPECT_EQ(smoothed[1].mesh.triangleCount(), 0u) << "one voxel blurred by 1.5 mm peaks < 0.5";
}

TEST(SmoothedLabelSurfaces, TwoLabelsSplittingABlockStillMeetOnTheirPlane)
{
    // Labels 1 (x < 10) and 2 (x >= 10) fill a block: blurred, each stays 0.5 on x = 9.5 inside
    // the block's core (3 sigma from its faces, where no background is blurred in: 10 x 10
    // edges), so both surfaces have vertices on that plane, at the same places.
    const Volume labels = test::makeTypedVolume<std::uint16_t>(
        {20, 20, 20}, [](std::uint32_t i, std::uint32_t j, std::uint32_t k) -> int {
            if (i < 3 || i > 16 || j < 2 || j > 17 || k < 2 || k > 17) return 0;
            return i < 10 ? 1 : 2;
        });
    const auto surfaces = extractSmoothedLabelSurfacesCpu(labels, analyseLabels(labels), 1.0);
    ASSERT_EQ(surfaces.size(), 2u);
    std::vector<glm::vec3> onPlane[2];
    for (int s = 0; s < 2; ++s) {
        for (const glm::vec3& p : surfaces[std::size_t(s)].mesh.positions) {
            if (std::abs(p.x - 9.5f) < 1e-4f) onPlane[s].push_back(p);
        }
    }
    ASSERT_GE(onPlane[0].size(), 100u);
    ASSERT_EQ(onPlane[0].size(), onPlane[1].size());
    for (std::size_t v = 0; v < onPlane[0].size(); ++v) // both in cell order: y, z the same
        EXPECT_LT(glm::length(onPlane[0][v] - onPlane[1][v]), 1e-4f) << v;
}

TEST(SmoothedLabelSurfaces, BadSigmasAndACancelAreRefused)
{
    const Volume labels = ballLabels();
    const LabelStatistics stats = analyseLabels(labels);
    for (const double sigma : {-1.0, std::nan(""), 16.5}) {
        EXPECT_THROW(extractSmoothedLabelSurfacesCpu(labels, stats, sigma), InvalidInputError)
            << sigma;
    }
    EXPECT_THROW(
        extractSmoothedLabelSurfacesCpu(labels, stats, 1.0, {}, {}, [](double) { return false; }),
        CancelledError);
}

} // namespace
} // namespace isoview
