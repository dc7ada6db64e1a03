// Surface measurements (mesh_processing/surface_measurements.h) against analytic spheres in
// anisotropic millimetres: area and enclosed volume within 1 % of 4 pi r^2 and 4/3 pi r^3, a
// sphere cut in half by the volume's border and by a crop (the surface's area is half the
// sphere's, the volume closed with the border caps is half the ball's), mirrored geometry,
// pieces, bad input and cancellation.
#include "core/error.h"
#include "extraction/cpu_marching_cubes.h"
#include "extraction/mesh_metrics.h"
#include "mesh_processing/mesh_components.h"
#include "mesh_processing/physical_mesh.h"
#include "mesh_processing/surface_measurements.h"
#include "support/synthetic_volumes.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <numbers>

namespace isoview::test {
namespace {

constexpr double kPi = std::numbers::pi;
constexpr double kRadiusMm = 20.0;

// 0.7 x 0.9 x 1.3 mm voxels: the sphere is 57 x 44 x 31 voxels across.
VolumeGeometry anisotropic()
{
    VolumeGeometry g;
    g.spacing = {0.7, 0.9, 1.3};
    g.origin = {-12.0, 30.0, 5.0};
    return g;
}

glm::vec3 physicalAt(const VolumeGeometry& g, glm::dvec3 index)
{
    return glm::vec3(g.toPhysical(index));
}

TEST(SurfaceMeasurements, SphereInAnisotropicMillimetresWithinOnePercent)
{
    const VolumeGeometry g = anisotropic();
    const glm::uvec3 dims(64, 52, 36);
    const Volume volume =
        makeSphere(dims, physicalAt(g, glm::dvec3(dims - glm::uvec3(1)) / 2.0), kRadiusMm, g);
    const IsoMesh surface = extractIsosurfaceCpu(volume, StoredValue(0.0f));

    const SurfaceMeasurements m = measureSurface(surface, volume, 0.0f, VoxelBox::whole(dims));
    const double area = 4.0 * kPi * kRadiusMm * kRadiusMm;
    const double ml = 4.0 / 3.0 * kPi * std::pow(kRadiusMm, 3) / 1000.0; // 33.51 mL
    EXPECT_NEAR(m.areaMm2, area, 0.01 * area);
    EXPECT_NEAR(m.volumeMl, ml, 0.01 * ml);
    std::printf("sphere r = 20 mm in 0.7 x 0.9 x 1.3 mm voxels: area %.1f mm2 (%+.3f %%), "
                "volume %.3f mL (%+.3f %%)\n",
                m.areaMm2, 100.0 * (m.areaMm2 / area - 1.0), m.volumeMl,
                100.0 * (m.volumeMl / ml - 1.0));
    EXPECT_FALSE(m.openAtBorder);
    EXPECT_EQ(m.capTriangles, 0u);
    EXPECT_EQ(m.triangles, surface.triangleCount());
    EXPECT_EQ(m.pieces, 1u);
    EXPECT_DOUBLE_EQ(m.largestPieceAreaMm2, m.areaMm2);
    EXPECT_DOUBLE_EQ(m.largestPieceVolumeMl, m.volumeMl);
    // The same figures as mesh_metrics' through the affine map (this geometry has no slice
    // origins, so both must agree to rounding).
    EXPECT_NEAR(m.areaMm2, surfaceArea(surface, g.indexToPhysical()), 1e-6 * area);
    EXPECT_NEAR(m.volumeMl * 1000.0, enclosedVolume(surface, g.indexToPhysical()), 1e-6 * area);
}

TEST(SurfaceMeasurements, MirroredGeometryKeepsThePositiveVolume)
{
    VolumeGeometry g = anisotropic();
    g.direction = glm::dmat3(glm::dvec3(-1, 0, 0), glm::dvec3(0, 1, 0), glm::dvec3(0, 0, 1));
    ASSERT_TRUE(g.isMirrored());
    const glm::uvec3 dims(64, 52, 36);
    const Volume volume =
        makeSphere(dims, physicalAt(g, glm::dvec3(dims - glm::uvec3(1)) / 2.0), kRadiusMm, g);
    const SurfaceMeasurements m = measureSurface(extractIsosurfaceCpu(volume, StoredValue(0.0f)),
                                                 volume, 0.0f, VoxelBox::whole(dims));
    const double ml = 4.0 / 3.0 * kPi * std::pow(kRadiusMm, 3) / 1000.0;
    EXPECT_NEAR(m.volumeMl, ml, 0.01 * ml);
}

// The sphere's centre lies on the last voxel plane along x: the border cuts it in half.
TEST(SurfaceMeasurements, SphereCutByTheBorderIsCappedForItsVolume)
{
    const VolumeGeometry g = anisotropic();
    const glm::uvec3 dims(32, 52, 36);
    const Volume volume = makeSphere(dims, physicalAt(g, {31.0, 25.5, 17.5}), kRadiusMm, g);
    const IsoMesh surface = extractIsosurfaceCpu(volume, StoredValue(0.0f));
    ASSERT_GT(analyzeTopology(surface).boundaryEdges, 0u); // open: no volume without caps

    const SurfaceMeasurements m = measureSurface(surface, volume, 0.0f, VoxelBox::whole(dims));
    EXPECT_TRUE(m.openAtBorder);
    EXPECT_GT(m.capTriangles, 0u);
    const double halfArea = 2.0 * kPi * kRadiusMm * kRadiusMm; // the cap's disc is not counted
    const double halfMl = 2.0 / 3.0 * kPi * std::pow(kRadiusMm, 3) / 1000.0;
    EXPECT_NEAR(m.areaMm2, halfArea, 0.01 * halfArea);
    EXPECT_NEAR(m.volumeMl, halfMl, 0.01 * halfMl);
    EXPECT_EQ(m.pieces, 1u);

    // Uncapped, the divergence theorem's figure of the open half depends on where the origin
    // is: moving the volume 100 mm along x changes it by a third of 100 mm times the missing
    // disc, which is why the caps are needed.
    VolumeGeometry moved = g;
    moved.origin.x += 100.0;
    const double here = findComponents(toPhysicalMesh(surface, g)).volume.at(0);
    const double there = findComponents(toPhysicalMesh(surface, moved)).volume.at(0);
    EXPECT_NEAR(std::abs(there - here), 100.0 / 3.0 * kPi * kRadiusMm * kRadiusMm,
                0.02 * 100.0 / 3.0 * kPi * kRadiusMm * kRadiusMm);
}

TEST(SurfaceMeasurements, SphereCutByTheCropIsCappedAtTheCrop)
{
    const VolumeGeometry g = anisotropic();
    const glm::uvec3 dims(64, 52, 36);
    const Volume volume = makeSphere(dims, physicalAt(g, {31.0, 25.5, 17.5}), kRadiusMm, g);
    const VoxelBox crop{{0, 0, 0}, {31, 51, 35}};
    const IsoMesh surface = extractIsosurfaceCpu(volume, StoredValue(0.0f), crop);

    const SurfaceMeasurements m = measureSurface(surface, volume, 0.0f, crop);
    EXPECT_TRUE(m.openAtBorder);
    const double halfArea = 2.0 * kPi * kRadiusMm * kRadiusMm;
    const double halfMl = 2.0 / 3.0 * kPi * std::pow(kRadiusMm, 3) / 1000.0;
    EXPECT_NEAR(m.areaMm2, halfArea, 0.01 * halfArea);
    EXPECT_NEAR(m.volumeMl, halfMl, 0.01 * halfMl);
}

TEST(SurfaceMeasurements, LargestPieceIsTheOneEnclosingMost)
{
    // Two balls, radius 10 and 5 voxels, unit spacing.
    const Volume volume = makeFloatField({64, 32, 32}, [](glm::vec3 p) {
        const float big = 10.0f - glm::length(p - glm::vec3(16.0f, 15.5f, 15.5f));
        const float small = 5.0f - glm::length(p - glm::vec3(46.0f, 15.5f, 15.5f));
        return std::max(big, small);
    });
    const SurfaceMeasurements m = measureSurface(extractIsosurfaceCpu(volume, StoredValue(0.0f)),
                                                 volume, 0.0f, VoxelBox::whole(volume.dims()));
    EXPECT_EQ(m.pieces, 2u);
    const double bigMl = 4.0 / 3.0 * kPi * 1000.0 / 1000.0;
    const double smallMl = 4.0 / 3.0 * kPi * 125.0 / 1000.0;
    EXPECT_NEAR(m.largestPieceVolumeMl, bigMl, 0.02 * bigMl);
    EXPECT_NEAR(m.volumeMl, bigMl + smallMl, 0.02 * (bigMl + smallMl));
    EXPECT_NEAR(m.largestPieceAreaMm2, 4.0 * kPi * 100.0, 0.02 * 4.0 * kPi * 100.0);
}

TEST(SurfaceMeasurements, EmptySurfaceMeasuresNothing)
{
    const Volume volume = makeSphere({16, 16, 16}, glm::vec3(7.5f), 5.0f);
    const SurfaceMeasurements m =
        measureSurface(IsoMesh{}, volume, 100.0f, VoxelBox::whole(volume.dims()));
    EXPECT_EQ(m.triangles, 0u);
    EXPECT_EQ(m.pieces, 0u);
    EXPECT_EQ(m.areaMm2, 0.0);
    EXPECT_EQ(m.volumeMl, 0.0);
}

TEST(SurfaceMeasurements, BadMeshIsAClearError)
{
    const Volume volume = makeSphere({16, 16, 16}, glm::vec3(7.5f), 5.0f);
    IsoMesh bad;
    bad.positions = {glm::vec3(0.0f), glm::vec3(1.0f, 0.0f, 0.0f), glm::vec3(0.0f, 1.0f, 0.0f)};
    bad.indices = {0, 1, 7};
    EXPECT_THROW(measureSurface(bad, volume, 0.0f, VoxelBox::whole(volume.dims())),
                 InvalidInputError);
}

TEST(SurfaceMeasurements, ProgressCanCancel)
{
    const Volume volume = makeSphere({24, 24, 24}, glm::vec3(11.5f), 8.0f);
    const IsoMesh surface = extractIsosurfaceCpu(volume, StoredValue(0.0f));
    double last = 0.0;
    measureSurface(surface, volume, 0.0f, VoxelBox::whole(volume.dims()), [&](double f) {
        EXPECT_GE(f, last);
        last = f;
        return true;
    });
    EXPECT_EQ(last, 1.0);
    EXPECT_THROW(measureSurface(surface, volume, 0.0f, VoxelBox::whole(volume.dims()),
                                [](double) { return false; }),
                 CancelledError);
}

} // namespace
} // namespace isoview::test
