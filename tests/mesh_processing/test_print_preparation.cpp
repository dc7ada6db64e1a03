// Print preparation (src/mesh_processing and extraction/border_caps) against known shapes:
// spheres cut by the volume's border and closed (cap area, volume, Euler characteristic),
// decimated (volume within 1 %, within half a voxel), smoothed (smoother normals, same volume),
// and pieces filtered (the bigger sphere stays). Topology through analyzeTopology: closed,
// manifold, consistently oriented.
#include "core/error.h"
#include "extraction/border_caps.h"
#include "extraction/cpu_marching_cubes.h"
#include "extraction/mesh_metrics.h"
#include "mesh_processing/coincident_vertices.h"
#include "mesh_processing/mesh_components.h"
#include "mesh_processing/mesh_decimation.h"
#include "mesh_processing/physical_mesh.h"
#include "mesh_processing/print_preparation.h"
#include "mesh_processing/surface_distance.h"
#include "mesh_processing/taubin_smoothing.h"
#include "support/synthetic_volumes.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>

namespace isoview::test {
namespace {

constexpr double kPi = std::numbers::pi;

void expectClosedManifold(const IsoMesh& mesh, long long euler)
{
    const MeshTopology t = analyzeTopology(mesh);
    EXPECT_EQ(t.boundaryEdges, 0u);
    EXPECT_EQ(t.nonManifoldEdges, 0u);
    EXPECT_EQ(t.inconsistentlyOrientedEdges, 0u);
    EXPECT_EQ(t.eulerCharacteristic, euler);
}

// The area of the triangles lying in the plane index axis `axis` == value.
double areaInPlane(const IsoMesh& mesh, int axis, float value)
{
    double area = 0.0;
    for (std::size_t t = 0; t < mesh.triangleCount(); ++t) {
        const glm::dvec3 a(mesh.positions[mesh.indices[3 * t]]);
        const glm::dvec3 b(mesh.positions[mesh.indices[3 * t + 1]]);
        const glm::dvec3 c(mesh.positions[mesh.indices[3 * t + 2]]);
        if (a[axis] == value && b[axis] == value && c[axis] == value) {
            area += 0.5 * glm::length(glm::cross(b - a, c - a));
        }
    }
    return area;
}

double ballVolume(double r)
{
    return 4.0 / 3.0 * kPi * r * r * r;
}
double capVolume(double r, double h)
{
    return kPi * h * h * (3.0 * r - h) / 3.0;
}

TEST(BorderCaps, SphereCutByTheBorderBecomesClosedWithTheRightCap)
{
    // Centre 5 voxels above the face z = 0, radius 12: the face cuts a disc of radius sqrt(119).
    const float r = 12.0f;
    const Volume volume = makeSphere({40, 40, 30}, {20.0f, 20.0f, 5.0f}, r);
    const IsoMesh open = extractIsosurfaceCpu(volume, StoredValue(0.0f));
    EXPECT_GT(analyzeTopology(open).boundaryEdges, 20u);

    const IsoMesh closed =
        closeAtBorders(open, volume, StoredValue(0.0f), VoxelBox::whole(volume.dims()));
    expectClosedManifold(closed, 2);
    const double disc = kPi * (r * r - 25.0);
    EXPECT_NEAR(areaInPlane(closed, 2, 0.0f), disc, 0.03 * disc);
    const double expected = ballVolume(r) - capVolume(r, r - 5.0);
    EXPECT_NEAR(enclosedVolume(closed), expected, 0.02 * expected);
    // The surface's own vertices and triangles come first, unchanged.
    ASSERT_GT(closed.triangleCount(), open.triangleCount());
    EXPECT_TRUE(std::equal(open.indices.begin(), open.indices.end(), closed.indices.begin()));
}

TEST(BorderCaps, CornerOfTheBoxIsClosedToo)
{
    // A ball around the volume's corner voxel: an eighth of it is inside, cut by three faces.
    const float r = 15.0f;
    const Volume volume = makeSphere({30, 30, 30}, {0.0f, 0.0f, 0.0f}, r);
    const IsoMesh closed = closeAtBorders(extractIsosurfaceCpu(volume, StoredValue(0.0f)), volume,
                                          StoredValue(0.0f), VoxelBox::whole(volume.dims()));
    expectClosedManifold(closed, 2);
    EXPECT_NEAR(enclosedVolume(closed), ballVolume(r) / 8.0, 0.02 * ballVolume(r) / 8.0);
    EXPECT_NEAR(areaInPlane(closed, 0, 0.0f), kPi * r * r / 4.0, 0.03 * kPi * r * r / 4.0);
}

TEST(BorderCaps, CropFacesCloseTheSurfaceOfTheCellsInside)
{
    const Volume volume = makeSphere({40, 40, 40}, glm::vec3(19.5f), 14.0f);
    const VoxelBox crop{{3, 10, 19}, {36, 30, 39}}; // cuts the ball on three faces
    const IsoMesh closed = closeAtBorders(extractIsosurfaceCpu(volume, StoredValue(0.0f), crop),
                                          volume, StoredValue(0.0f), crop);
    expectClosedManifold(closed, 2);
    EXPECT_GT(areaInPlane(closed, 2, 19.0f), 400.0); // the cut through the centre
}

TEST(BorderCaps, EveryCaseOfANoisyVolumeClosesWatertight)
{
    // Random voxels reach every marching-cubes case at the border, many pieces and tunnels: the
    // result must still have no boundary or non-manifold edge, wound consistently.
    for (ScalarType type : {ScalarType::UInt8, ScalarType::Float32}) {
        const Volume volume = makeRandomVolume({13, 11, 9}, type, 7);
        const ValueRange range = randomValueRange(type);
        const auto iso = float(0.5 * (range.min + range.max));
        const IsoMesh open = extractIsosurfaceCpu(volume, StoredValue(iso));
        const IsoMesh closed =
            closeAtBorders(open, volume, StoredValue(iso), VoxelBox::whole(volume.dims()));
        const MeshTopology t = analyzeTopology(closed);
        EXPECT_GT(closed.triangleCount(), open.triangleCount());
        EXPECT_EQ(t.boundaryEdges, 0u);
        EXPECT_EQ(t.nonManifoldEdges, 0u);
        EXPECT_EQ(t.inconsistentlyOrientedEdges, 0u);
    }
}

TEST(BorderCaps, ASurfaceFromElsewhereIsRefused)
{
    const Volume volume = makeSphere({20, 20, 20}, {10.0f, 10.0f, 0.0f}, 6.0f);
    EXPECT_THROW(
        closeAtBorders(IsoMesh{}, volume, StoredValue(0.0f), VoxelBox::whole(volume.dims())),
        InvalidInputError);
    EXPECT_THROW(closeAtBorders(IsoMesh{}, volume, StoredValue(0.0f), {{0, 0, 0}, {20, 5, 5}}),
                 Error);
}

TEST(MeshComponents, KeepLargestKeepsTheBiggerSphere)
{
    const Volume volume = makeFloatField({50, 30, 30}, [](glm::vec3 p) {
        const float big = 10.0f - glm::length(p - glm::vec3(14.0f, 15.0f, 15.0f));
        const float small = 5.0f - glm::length(p - glm::vec3(38.0f, 15.0f, 15.0f));
        return std::max(big, small);
    });
    const IsoMesh mesh = extractIsosurfaceCpu(volume, StoredValue(0.0f));
    const MeshComponents pieces = findComponents(mesh);
    ASSERT_EQ(pieces.count, 2u);

    const ComponentFilterResult largest = filterComponents(mesh, {.keepLargest = true});
    EXPECT_EQ(largest.before, 2u);
    EXPECT_EQ(largest.dropped, 1u);
    expectClosedManifold(largest.mesh, 2);
    EXPECT_NEAR(enclosedVolume(largest.mesh), ballVolume(10.0), 0.02 * ballVolume(10.0));
    for (const glm::vec3& p : largest.mesh.positions)
        EXPECT_LT(p.x, 25.0f);

    // By size: the small ball has fewer triangles than this, and less volume than 1000.
    const std::size_t smallTriangles = std::min(pieces.triangles[0], pieces.triangles[1]);
    EXPECT_EQ(filterComponents(mesh, {.minTriangles = smallTriangles + 1}).dropped, 1u);
    EXPECT_EQ(filterComponents(mesh, {.minTriangles = smallTriangles}).dropped, 0u);
    EXPECT_EQ(filterComponents(mesh, {.minVolume = 1000.0}).mesh.triangleCount(),
              largest.mesh.triangleCount());
}

TEST(Decimation, SphereToTenPercentKeepsVolumeShapeAndTopology)
{
    const float r = 20.0f;
    const Volume volume = makeSphere({48, 48, 48}, glm::vec3(23.5f), r);
    const IsoMesh raw =
        toPhysicalMesh(extractIsosurfaceCpu(volume, StoredValue(0.0f)), volume.geometry());
    IsoMesh mesh = raw;
    const DecimationResult d = decimateMesh(mesh, {.keepFraction = 0.1, .toleranceMm = 0.5});
    EXPECT_TRUE(d.reachedTarget);
    EXPECT_EQ(d.trianglesNotDecimated, 0u);
    EXPECT_LE(double(mesh.triangleCount()), 0.1 * double(raw.triangleCount()) + 2.0);
    EXPECT_GE(double(mesh.triangleCount()), 0.09 * double(raw.triangleCount()));
    expectClosedManifold(mesh, 2);
    const double before = enclosedVolume(raw);
    EXPECT_NEAR(enclosedVolume(mesh), before, 0.01 * before);
    // Within half a voxel both ways: result vertices to the raw surface and back.
    EXPECT_LE(distanceToSurface(mesh.positions, raw).max, 0.5);
    EXPECT_LE(distanceToSurface(raw.positions, mesh).max, 0.5);
}

// Integer data at a whole-number isovalue: voxels holding the isovalue put several vertices on
// their centres and the triangles between them have no area. Welding drops exactly those: none
// is left, and the area and the enclosed volume do not change.
TEST(CoincidentVertices, AWholeNumberIsovalueLeavesNoZeroAreaTriangleAndTheSameSurface)
{
    const Volume volume = makeTypedVolume<std::int16_t>({24, 24, 24}, [](auto i, auto j, auto k) {
        const double r = std::hypot(double(i) - 11.3, double(j) - 12.1, double(k) - 11.7);
        return std::lround(40.0 - 4.0 * r); // whole values, 0 at r = 10
    });
    IsoMesh mesh = extractIsosurfaceCpu(volume, StoredValue(0.0f));
    const auto zeroArea = [](const IsoMesh& m) {
        std::size_t n = 0;
        for (std::size_t t = 0; t < m.triangleCount(); ++t) {
            const glm::dvec3 a(m.positions[m.indices[3 * t]]), b(m.positions[m.indices[3 * t + 1]]),
                c(m.positions[m.indices[3 * t + 2]]);
            if (glm::length(glm::cross(b - a, c - a)) == 0.0) ++n;
        }
        return n;
    };
    const std::size_t before = zeroArea(mesh);
    ASSERT_GT(before, 10u);
    const double area = surfaceArea(mesh), enclosed = enclosedVolume(mesh);
    const std::size_t triangles = mesh.triangleCount();
    EXPECT_EQ(weldCoincidentVertices(mesh), before);
    EXPECT_EQ(zeroArea(mesh), 0u);
    EXPECT_EQ(mesh.triangleCount(), triangles - before);
    EXPECT_NEAR(surfaceArea(mesh), area, 1e-9 * area);
    EXPECT_NEAR(enclosedVolume(mesh), enclosed, 1e-9 * enclosed);
    EXPECT_EQ(weldCoincidentVertices(mesh), 0u); // nothing left to weld

    // Print preparation drops them after closing, and says how many.
    const PreparedMesh prepared =
        prepareMesh(extractIsosurfaceCpu(volume, StoredValue(0.0f)), volume, 0.0,
                    VoxelBox::whole(volume.dims()), {.closeBorders = true});
    EXPECT_EQ(prepared.report.zeroAreaRemoved, before);
    EXPECT_EQ(zeroArea(prepared.mesh), 0u);
    EXPECT_TRUE(prepared.report.watertight);
}

// Slabs decimated on several threads meet without a seam: closed, manifold, on target, within
// the tolerance, and the same triangles every time whatever the threads' timing.
TEST(Decimation, ThreeSlabsGiveAClosedSphereTheSameEveryTime)
{
    const Volume volume = makeSphere({48, 48, 48}, glm::vec3(23.5f), 20.0f);
    const IsoMesh raw =
        toPhysicalMesh(extractIsosurfaceCpu(volume, StoredValue(0.0f)), volume.geometry());
    const DecimationOptions options{.keepFraction = 0.1, .toleranceMm = 0.5, .slabs = 3};
    IsoMesh first = raw, second = raw;
    EXPECT_TRUE(decimateMesh(first, options).reachedTarget);
    decimateMesh(second, options);
    EXPECT_EQ(first.indices, second.indices);
    EXPECT_EQ(first.positions, second.positions);
    EXPECT_LE(double(first.triangleCount()), 0.1 * double(raw.triangleCount()) + 2.0);
    expectClosedManifold(first, 2);
    EXPECT_LE(distanceToSurface(raw.positions, first).max, 0.5);
}

TEST(Decimation, ATightToleranceStopsShortAndSaysSo)
{
    const Volume volume = makeSphere({24, 24, 24}, glm::vec3(11.5f), 9.0f);
    IsoMesh mesh = extractIsosurfaceCpu(volume, StoredValue(0.0f));
    const std::size_t before = mesh.triangleCount();
    const DecimationResult d = decimateMesh(mesh, {.keepFraction = 0.01, .toleranceMm = 0.01});
    EXPECT_FALSE(d.reachedTarget);
    EXPECT_EQ(d.blockers.mainReason(), "the distance tolerance");
    EXPECT_GT(mesh.triangleCount(), before / 100);
    EXPECT_THROW(decimateMesh(mesh, {.keepFraction = 0.0}), InvalidInputError);
    EXPECT_THROW(decimateMesh(mesh, {.keepFraction = 0.5, .toleranceMm = -1.0}), InvalidInputError);
}

// The spread of the angle between each vertex normal and the sphere's radial direction.
double normalAngleVariance(const IsoMesh& mesh, const glm::vec3& center)
{
    double sum = 0.0, sum2 = 0.0;
    for (std::size_t v = 0; v < mesh.vertexCount(); ++v) {
        const double c =
            glm::dot(glm::normalize(mesh.normals[v]), glm::normalize(mesh.positions[v] - center));
        const double angle = std::acos(std::clamp(c, -1.0, 1.0));
        sum += angle;
        sum2 += angle * angle;
    }
    const double n = double(mesh.vertexCount());
    return sum2 / n - (sum / n) * (sum / n);
}

TEST(Smoothing, NoisySphereGetsSmootherAndKeepsItsVolume)
{
    const glm::vec3 center(23.5f);
    std::mt19937 random(5);
    std::uniform_real_distribution<float> noise(-0.35f, 0.35f);
    const Volume volume = makeFloatField(
        {48, 48, 48}, [&](glm::vec3 p) { return 18.0f - glm::length(p - center) + noise(random); });
    IsoMesh raw = extractIsosurfaceCpu(volume, StoredValue(0.0f));
    const ComponentFilterResult ball = filterComponents(raw, {.keepLargest = true});
    raw = ball.mesh;
    recomputeNormalsAndKeys(raw);
    IsoMesh smooth = raw;
    smoothTaubin(smooth, {.iterations = 10});
    recomputeNormalsAndKeys(smooth);

    const double rawVariance = normalAngleVariance(raw, center);
    const double smoothVariance = normalAngleVariance(smooth, center);
    EXPECT_LT(smoothVariance, 0.5 * rawVariance);
    const double before = enclosedVolume(raw);
    EXPECT_NEAR(enclosedVolume(smooth), before, 0.01 * before);
    expectClosedManifold(smooth, 2);
}

TEST(Smoothing, OpenRimStaysWhereItIs)
{
    const Volume volume = makeSphere({30, 30, 20}, {15.0f, 15.0f, 2.0f}, 10.0f);
    IsoMesh mesh = extractIsosurfaceCpu(volume, StoredValue(0.0f));
    const IsoMesh before = mesh;
    smoothTaubin(mesh, {.iterations = 5});
    std::size_t rimVertices = 0;
    for (std::size_t v = 0; v < mesh.vertexCount(); ++v) {
        if (before.positions[v].z == 0.0f) {
            ++rimVertices;
            EXPECT_EQ(mesh.positions[v], before.positions[v]);
        }
    }
    EXPECT_GT(rimVertices, 10u);
    EXPECT_THROW(smoothTaubin(mesh, {.iterations = 3}, [](double) { return false; }),
                 CancelledError);
}

TEST(SurfaceDistance, PointToTriangleKnownAnswers)
{
    const glm::dvec3 a(0, 0, 0), b(2, 0, 0), c(0, 2, 0);
    EXPECT_DOUBLE_EQ(pointTriangleDistance({0.5, 0.5, 3.0}, a, b, c), 3.0);  // over the face
    EXPECT_DOUBLE_EQ(pointTriangleDistance({-1.0, 0.0, 0.0}, a, b, c), 1.0); // past a corner
    EXPECT_NEAR(pointTriangleDistance({2.0, 2.0, 0.0}, a, b, c), std::sqrt(2.0), 1e-12);
    EXPECT_DOUBLE_EQ(pointTriangleDistance({5.0, 0.0, 4.0}, a, a, a), std::sqrt(41.0));

    const Volume volume = makeSphere({32, 32, 32}, glm::vec3(15.5f), 10.0f);
    const IsoMesh sphere = extractIsosurfaceCpu(volume, StoredValue(0.0f));
    const DistanceSummary self = distanceToSurface(sphere.positions, sphere);
    EXPECT_EQ(self.max, 0.0);
    // Points on a concentric sphere 3 voxels out are about 3 voxels away.
    std::vector<glm::vec3> outside;
    for (const glm::vec3& p : sphere.positions) {
        outside.push_back(glm::vec3(15.5f) + glm::normalize(p - glm::vec3(15.5f)) * 13.0f);
    }
    const DistanceSummary d = distanceToSurface(outside, sphere);
    EXPECT_NEAR(d.p95, 3.0, 0.1);
    EXPECT_NEAR(d.max, 3.0, 0.1);
}

TEST(PhysicalMesh, MirroredGeometryKeepsOutwardWindingAndRoundTrips)
{
    VolumeGeometry geometry;
    geometry.spacing = {0.8, 0.8, 2.5};
    geometry.origin = {-100.0, 20.0, 7.0};
    geometry.direction = glm::dmat3(glm::dvec3(-1, 0, 0), glm::dvec3(0, 1, 0), glm::dvec3(0, 0, 1));
    ASSERT_TRUE(geometry.isMirrored());
    const Volume volume = makeSphere({40, 40, 20}, {-116.0f, 36.0f, 32.0f}, 10.0f, geometry);
    const IsoMesh index = extractIsosurfaceCpu(volume, StoredValue(0.0f));
    ASSERT_GT(index.triangleCount(), 100u);
    EXPECT_LT(enclosedVolume(index, geometry.indexToPhysical()), 0.0); // the mirror turns it
    const IsoMesh mm = toPhysicalMesh(index, geometry);
    EXPECT_NEAR(enclosedVolume(mm), ballVolume(10.0), 0.02 * ballVolume(10.0)); // positive
    const IsoMesh back = toIndexMesh(mm, geometry);
    ASSERT_EQ(back.indices, index.indices);
    for (std::size_t v = 0; v < index.vertexCount(); ++v) {
        EXPECT_LT(glm::length(back.positions[v] - index.positions[v]), 1e-4f);
    }
    VolumeGeometry tilted = geometry;
    tilted.sliceOrigins.assign(20, glm::dvec3(0.0));
    EXPECT_THROW(toIndexMesh(mm, tilted), InvalidInputError);
}

TEST(PrintPreparation, AllStepsOnACutSphereGiveAClosedReportedMesh)
{
    VolumeGeometry geometry;
    geometry.spacing = {0.5, 0.5, 1.0};
    const Volume volume = makeSphere({60, 60, 30}, {15.0f, 15.0f, 4.0f}, 11.0f, geometry);
    const float iso = 0.0f;
    const VoxelBox whole = VoxelBox::whole(volume.dims());
    const IsoMesh surface = extractIsosurfaceCpu(volume, StoredValue(iso));
    const PrintSteps steps{
        .closeBorders = true, .keepLargest = true, .smoothIterations = 5, .decimateFraction = 0.3};
    std::vector<std::string> stages;
    const PreparedMesh p =
        prepareMesh(surface, volume, iso, whole, steps, [&](std::string_view stage, double) {
            if (stages.empty() || stages.back() != stage) {
                stages.emplace_back(stage);
            }
            return true;
        });
    const PrintReport& r = p.report;
    EXPECT_EQ(r.steps, "close-borders keep-largest smooth=5 decimate=0.3");
    EXPECT_EQ(r.trianglesBefore, surface.triangleCount());
    EXPECT_GT(r.capTriangles, 0u);
    EXPECT_EQ(r.trianglesAfter, p.mesh.triangleCount());
    EXPECT_LT(double(r.trianglesAfter), 0.35 * double(r.trianglesBefore + r.capTriangles));
    EXPECT_EQ(r.piecesBefore, 1u);
    EXPECT_EQ(r.piecesDropped, 0u);
    EXPECT_TRUE(r.watertight);
    const double expectedMl = (ballVolume(11.0) - capVolume(11.0, 7.0)) / 1000.0;
    EXPECT_NEAR(r.volumeBeforeMl, expectedMl, 0.02 * expectedMl);
    EXPECT_NEAR(r.volumeAfterMl, r.volumeBeforeMl, 0.02 * r.volumeBeforeMl);
    EXPECT_GT(r.distanceMaxMm, 0.0);
    EXPECT_LE(r.distanceMaxMm, 0.5);
    EXPECT_LE(r.distanceP95Mm, r.distanceMaxMm);
    EXPECT_EQ(stages, (std::vector<std::string>{"closing", "pieces", "smoothing", "decimating",
                                                "measuring"}));
    EXPECT_NE(r.text().find("watertight: yes"), std::string::npos);

    EXPECT_THROW(prepareMesh(surface, volume, iso, whole, steps,
                             [](std::string_view stage, double) { return stage != "smoothing"; }),
                 CancelledError);
    EXPECT_THROW(prepareMesh(surface, volume, iso, whole, {.decimateFraction = 1.5}),
                 InvalidInputError);
    EXPECT_THROW(prepareMesh(surface, volume, iso, whole, {.smoothIterations = -1}),
                 InvalidInputError);
    EXPECT_THROW(prepareMesh(surface, volume, iso, whole, {.minComponentMl = std::nan("")}),
                 InvalidInputError);
    EXPECT_EQ(describeSteps({}), "none");
}

} // namespace
} // namespace isoview::test
