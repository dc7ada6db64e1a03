// The label a 3D click lands on: the first shown label along the ray, voxel by voxel, on a
// mirrored anisotropic grid: the nearer label first, the farther one when the nearer is hidden,
// a one-voxel-thin diagonal wall never skipped, nothing for a ray that misses the volume.
#include "support/synthetic_volumes.h"
#include "volume/label_picking.h"

#include <gtest/gtest.h>

namespace isoview {
namespace {

TEST(LabelPicking, TheFirstShownLabelAlongTheRayIsTheOneSeen)
{
    VolumeGeometry geometry;
    geometry.spacing = {0.5, 2.0, 1.5};
    geometry.origin = {10.0, -4.0, 3.0};
    geometry.direction = glm::dmat3(glm::dvec3(-1, 0, 0), glm::dvec3(0, 1, 0), glm::dvec3(0, 0, 1));
    // Along i: label 3 at i 5..9, label 7 at i 14..18; a wall of label 5 on the diagonal i == j.
    const Volume labels = test::makeTypedVolume<std::uint16_t>(
        {24, 24, 8},
        [](std::uint32_t i, std::uint32_t j, std::uint32_t) -> int {
            if (j == 4 && i >= 5 && i <= 9) return 3;
            if (j == 4 && i >= 14 && i <= 18) return 7;
            if (i == j && i >= 10) return 5;
            return 0;
        },
        geometry);
    const auto physical = [&](glm::dvec3 index) { return geometry.toPhysical(index); };
    const auto all = [](std::uint32_t) { return true; };
    // From outside the low-i face, along +i through j = 4, k = 3.
    const glm::dvec3 from = physical({-3.0, 4.0, 3.0});
    const glm::dvec3 along = physical({1.0, 4.0, 3.0}) - physical({0.0, 4.0, 3.0});
    EXPECT_EQ(firstShownLabelAlong(labels, from, along, all), std::optional<std::uint32_t>(3));
    EXPECT_EQ(
        firstShownLabelAlong(labels, from, along, [](std::uint32_t label) { return label != 3; }),
        std::optional<std::uint32_t>(7));
    EXPECT_EQ(firstShownLabelAlong(labels, from, -along, all), std::nullopt) << "away from it";
    // Across the thin diagonal wall at a shallow angle: it is met, not stepped over.
    const glm::dvec3 start = physical({23.5, 12.3, 2.0});
    const glm::dvec3 slanted = physical({12.0, 23.9, 2.0}) - start;
    EXPECT_EQ(firstShownLabelAlong(labels, start, slanted, all), std::optional<std::uint32_t>(5));
    // A ray passing beside the volume meets nothing.
    EXPECT_EQ(firstShownLabelAlong(labels, physical({-3.0, 40.0, 3.0}), along, all), std::nullopt);
}

} // namespace
} // namespace isoview
