// The CPU reference marching cubes against analytic answers (sphere area and volume, planes),
// topological invariants on random fields, and the edge cases the GPU must reproduce (NaN and
// Inf voxels, isovalues on voxel values, degenerate volumes, mirrored geometry).
#include "extraction/border_caps.h"
#include "extraction/cpu_marching_cubes.h"
#include "extraction/mesh_metrics.h"
#include "support/synthetic_volumes.h"

#include <glm/gtc/constants.hpp>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <set>
#include <string>

namespace isoview {
namespace {

constexpr double kPi = glm::pi<double>();

void expectClosedManifoldOriented(const IsoMesh& mesh, const std::string& what)
{
    const MeshTopology topo = analyzeTopology(mesh);
    EXPECT_EQ(topo.boundaryEdges, 0u) << what;
    EXPECT_EQ(topo.nonManifoldEdges, 0u) << what;
    EXPECT_EQ(topo.inconsistentlyOrientedEdges, 0u) << what;
}

// Every vertex lies on the grid edge its key names, keys are unique, and nothing is NaN/Inf.
void expectVerticesOnTheirEdges(const IsoMesh& mesh, glm::uvec3 dims)
{
    ASSERT_EQ(mesh.normals.size(), mesh.positions.size());
    ASSERT_EQ(mesh.edgeKeys.size(), mesh.positions.size());
    EXPECT_EQ(std::set<EdgeKey>(mesh.edgeKeys.begin(), mesh.edgeKeys.end()).size(),
              mesh.edgeKeys.size());
    for (std::size_t v = 0; v < mesh.positions.size(); ++v) {
        const glm::vec3 p = mesh.positions[v];
        ASSERT_TRUE(std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z)) << v;
        const glm::vec3 n = mesh.normals[v];
        ASSERT_TRUE(std::isfinite(n.x) && std::isfinite(n.y) && std::isfinite(n.z)) << v;
        const int axis = int(mesh.edgeKeys[v] % 3);
        const std::uint64_t voxel = mesh.edgeKeys[v] / 3;
        const glm::vec3 lower(float(voxel % dims.x), float(voxel / dims.x % dims.y),
                              float(voxel / dims.x / dims.y));
        for (int a = 0; a < 3; ++a) {
            if (a == axis) {
                EXPECT_GE(p[a], lower[a]) << v;
                EXPECT_LE(p[a], lower[a] + 1.0f) << v;
            } else {
                EXPECT_EQ(p[a], lower[a]) << v;
            }
        }
    }
}

double degreesBetween(glm::dvec3 a, glm::dvec3 b)
{
    const double c = glm::dot(glm::normalize(a), glm::normalize(b));
    return std::acos(std::clamp(c, -1.0, 1.0)) * 180.0 / kPi;
}

TEST(CpuMarchingCubes, SphereMatchesAnalyticAreaVolumeAndTopology)
{
    const float r = 24.0f;
    const glm::vec3 center(31.5f, 31.5f, 31.5f);
    const Volume volume = test::makeSphere({64, 64, 64}, center, r);
    const IsoMesh mesh = extractIsosurfaceCpu(volume, StoredValue(0.0f));
    expectVerticesOnTheirEdges(mesh, volume.dims());

    const MeshTopology topo = analyzeTopology(mesh);
    EXPECT_EQ(topo.boundaryEdges, 0u);
    EXPECT_EQ(topo.nonManifoldEdges, 0u);
    EXPECT_EQ(topo.inconsistentlyOrientedEdges, 0u);
    EXPECT_EQ(topo.eulerCharacteristic, 2);

    const double area = surfaceArea(mesh);
    const double enclosed = enclosedVolume(mesh);
    const double exactArea = 4.0 * kPi * r * r;
    const double exactVolume = 4.0 / 3.0 * kPi * r * r * r;
    EXPECT_NEAR(area / exactArea, 1.0, 0.01) << "area " << area;
    EXPECT_NEAR(enclosed / exactVolume, 1.0, 0.01) << "volume " << enclosed;
    RecordProperty("AreaRelativeError", std::to_string(area / exactArea - 1.0));
    RecordProperty("VolumeRelativeError", std::to_string(enclosed / exactVolume - 1.0));

    double worstDegrees = 0.0;
    for (std::size_t v = 0; v < mesh.vertexCount(); ++v) {
        const glm::dvec3 radial = glm::dvec3(mesh.positions[v]) - glm::dvec3(center);
        EXPECT_NEAR(glm::length(radial), r, 0.05) << v;
        EXPECT_NEAR(glm::length(mesh.normals[v]), 1.0f, 1e-5f) << v;
        worstDegrees = std::max(worstDegrees, degreesBetween(mesh.normals[v], radial));
    }
    EXPECT_LT(worstDegrees, 0.5);
}

TEST(CpuMarchingCubes, AnisotropicSphereIsMeasuredInPhysicalSpace)
{
    // Voxels 1 x 1 x 2 mm; the field is a sphere in millimetres, so in index space it is an
    // ellipsoid squashed along z. Physical area, volume and normals must still be a sphere's.
    VolumeGeometry geometry;
    geometry.spacing = {1.0, 1.0, 2.0};
    geometry.origin = {-10.0, 5.0, 3.0};
    const float r = 24.0f;
    const glm::vec3 center(21.5f, 36.5f, 35.0f); // physical: index (31.5, 31.5, 16)
    const Volume volume = test::makeSphere({64, 64, 33}, center, r, geometry);
    const IsoMesh mesh = extractIsosurfaceCpu(volume, StoredValue(0.0f));
    expectClosedManifoldOriented(mesh, "anisotropic sphere");
    EXPECT_EQ(analyzeTopology(mesh).eulerCharacteristic, 2);

    const glm::dmat4 toPhysical = geometry.indexToPhysical();
    const double area = surfaceArea(mesh, toPhysical);
    const double enclosed = enclosedVolume(mesh, toPhysical);
    EXPECT_NEAR(area / (4.0 * kPi * r * r), 1.0, 0.01) << area;
    EXPECT_NEAR(enclosed / (4.0 / 3.0 * kPi * r * r * r), 1.0, 0.01) << enclosed;
    // In index space the same mesh encloses half the volume: the spacing really is applied.
    EXPECT_NEAR(enclosedVolume(mesh) / enclosed, 0.5, 1e-9);

    double worstDegrees = 0.0;
    double sumDegrees = 0.0;
    for (std::size_t v = 0; v < mesh.vertexCount(); ++v) {
        const glm::dvec3 physical(toPhysical * glm::dvec4(glm::dvec3(mesh.positions[v]), 1.0));
        const double d = degreesBetween(mesh.normals[v], physical - glm::dvec3(center));
        worstDegrees = std::max(worstDegrees, d);
        sumDegrees += d;
    }
    EXPECT_LT(worstDegrees, 1.0);
    EXPECT_LT(sumDegrees / double(mesh.vertexCount()), 0.25);
}

TEST(CpuMarchingCubes, RandomFieldsGiveClosedManifoldOrientedSurfaces)
{
    const ScalarType types[] = {ScalarType::UInt8,  ScalarType::Int8,  ScalarType::UInt16,
                                ScalarType::Int16,  ScalarType::Int32, ScalarType::Float32,
                                ScalarType::Float64};
    const glm::uvec3 sizes[] = {{7, 5, 3}, {8, 8, 8}, {13, 6, 9}, {4, 11, 5}};
    std::uint32_t seed = 1;
    for (ScalarType type : types) {
        const ValueRange range = test::randomValueRange(type);
        const double iso = 0.5 * (range.min + range.max);
        for (glm::uvec3 dims : sizes) {
            for (int repeat = 0; repeat < 3; ++repeat, ++seed) {
                const Volume volume =
                    test::withBorder(test::makeRandomVolume(dims, type, seed), range.min);
                const IsoMesh mesh = extractIsosurfaceCpu(volume, StoredValue(float(iso)));
                const std::string what =
                    std::string(scalarTypeName(type)) + " seed " + std::to_string(seed);
                ASSERT_GT(mesh.triangleCount(), 0u) << what;
                expectClosedManifoldOriented(mesh, what);
                EXPECT_GT(enclosedVolume(mesh), 0.0) << what;
                expectVerticesOnTheirEdges(mesh, dims);
            }
        }
    }
}

TEST(CpuMarchingCubes, PaddedRandomVolumeIsClosed)
{
    const Volume inner = test::makeRandomVolume({7, 5, 3}, ScalarType::Int16, 99);
    const Volume volume = test::padWithValue(inner, -2000.0);
    ASSERT_EQ(volume.dims(), glm::uvec3(9, 7, 5));
    const IsoMesh mesh = extractIsosurfaceCpu(volume, StoredValue(1000.0f));
    ASSERT_GT(mesh.triangleCount(), 0u);
    expectClosedManifoldOriented(mesh, "padded");
    EXPECT_GT(enclosedVolume(mesh), 0.0);
}

TEST(CpuMarchingCubes, ExtractionIsDeterministic)
{
    const Volume volume =
        test::withBorder(test::makeRandomVolume({9, 8, 7}, ScalarType::Float32, 5), -1.0);
    const IsoMesh a = extractIsosurfaceCpu(volume, StoredValue(0.1f));
    const IsoMesh b = extractIsosurfaceCpu(volume, StoredValue(0.1f));
    EXPECT_EQ(a.indices, b.indices);
    EXPECT_EQ(a.positions, b.positions);
    EXPECT_EQ(a.normals, b.normals);
    EXPECT_EQ(a.edgeKeys, b.edgeKeys);
}

TEST(CpuMarchingCubes, PlaneBetweenVoxelValuesGivesTwoTrianglesPerCell)
{
    const glm::uvec3 dims(8, 6, 5);
    const Volume volume = test::makeFloatField(dims, [](glm::vec3 p) { return p.x; });
    const IsoMesh mesh = extractIsosurfaceCpu(volume, StoredValue(2.5f));
    ASSERT_EQ(mesh.triangleCount(), 2u * (dims.y - 1) * (dims.z - 1));
    EXPECT_EQ(mesh.vertexCount(), std::size_t(dims.y) * dims.z);
    for (std::size_t v = 0; v < mesh.vertexCount(); ++v) {
        EXPECT_EQ(mesh.positions[v].x, 2.5f);
        // Values grow with x, so the outside is -x.
        EXPECT_EQ(mesh.normals[v], glm::vec3(-1.0f, 0.0f, 0.0f));
    }
    for (std::size_t t = 0; t < mesh.indices.size(); t += 3) {
        const glm::vec3 a = mesh.positions[mesh.indices[t]];
        const glm::vec3 b = mesh.positions[mesh.indices[t + 1]];
        const glm::vec3 c = mesh.positions[mesh.indices[t + 2]];
        EXPECT_LT(glm::cross(b - a, c - a).x, 0.0f) << "triangle " << t / 3;
    }
    EXPECT_NEAR(surfaceArea(mesh), double(dims.y - 1) * (dims.z - 1), 1e-9);
    EXPECT_EQ(analyzeTopology(mesh).boundaryEdges, 2u * ((dims.y - 1) + (dims.z - 1)));
}

TEST(CpuMarchingCubes, IsovalueEqualToAVoxelValueIsWellDefined)
{
    // Voxels with x == 3 are inside (v >= iso); cells 2..3 cross at t = 1, i.e. exactly on
    // x = 3, and cells 3..4 are entirely inside.
    const glm::uvec3 dims(8, 6, 5);
    const Volume volume = test::makeFloatField(dims, [](glm::vec3 p) { return p.x; });
    const IsoMesh mesh = extractIsosurfaceCpu(volume, StoredValue(3.0f));
    ASSERT_EQ(mesh.triangleCount(), 2u * (dims.y - 1) * (dims.z - 1));
    expectVerticesOnTheirEdges(mesh, dims);
    for (std::size_t v = 0; v < mesh.vertexCount(); ++v) {
        EXPECT_EQ(mesh.positions[v].x, 3.0f);
        // The crossing is on the x edges starting at x = 2 (2 is outside, 3 inside).
        EXPECT_EQ(mesh.edgeKeys[v] % 3, 0u);
        EXPECT_EQ(mesh.edgeKeys[v] / 3 % dims.x, 2u);
    }
}

TEST(CpuMarchingCubes, UniformOrOutOfRangeIsovaluesGiveNoTriangles)
{
    const Volume constant = test::makeFloatField({6, 6, 6}, [](glm::vec3) { return 7.0f; });
    EXPECT_EQ(extractIsosurfaceCpu(constant, StoredValue(7.0f)).triangleCount(), 0u);
    EXPECT_EQ(extractIsosurfaceCpu(constant, StoredValue(3.0f)).triangleCount(), 0u);

    const Volume ramp = test::makeFloatField({6, 6, 6}, [](glm::vec3 p) { return p.x + p.y; });
    EXPECT_EQ(extractIsosurfaceCpu(ramp, StoredValue(10.5f)).triangleCount(), 0u); // above max (10)
    EXPECT_EQ(extractIsosurfaceCpu(ramp, StoredValue(-0.5f)).triangleCount(), 0u); // below min (0)
    EXPECT_GT(extractIsosurfaceCpu(ramp, StoredValue(5.5f)).triangleCount(), 0u);
}

TEST(CpuMarchingCubes, VolumesWithoutCellsGiveAnEmptyMesh)
{
    for (glm::uvec3 dims :
         {glm::uvec3(8, 8, 1), glm::uvec3(1, 8, 8), glm::uvec3(8, 1, 8), glm::uvec3(1, 1, 1)}) {
        const Volume slice = test::makeFloatField(dims, [](glm::vec3 p) { return p.x - 3.5f; });
        IsoMesh mesh;
        EXPECT_NO_THROW(mesh = extractIsosurfaceCpu(slice, StoredValue(0.0f)));
        EXPECT_EQ(mesh.triangleCount(), 0u);
        EXPECT_EQ(mesh.vertexCount(), 0u);
    }
}

TEST(CpuMarchingCubes, SmallOddVolumeWorks)
{
    // An inside blob at the centre of a 7x5x3 volume: only the middle slice is inside.
    const Volume volume = test::makeFloatField({7, 5, 3}, [](glm::vec3 p) {
        return 1.5f - glm::length((p - glm::vec3(3.0f, 2.0f, 1.0f)) * glm::vec3(0.7f, 1.0f, 2.0f));
    });
    const IsoMesh mesh = extractIsosurfaceCpu(volume, StoredValue(0.0f));
    ASSERT_GT(mesh.triangleCount(), 0u);
    expectClosedManifoldOriented(mesh, "7x5x3");
    EXPECT_EQ(analyzeTopology(mesh).eulerCharacteristic, 2);
    EXPECT_GT(enclosedVolume(mesh), 0.0);
    expectVerticesOnTheirEdges(mesh, volume.dims());
}

TEST(CpuMarchingCubes, IntegerVolumeMatchesTheFloatField)
{
    // The same field stored as int16 (scaled by 100, iso scaled too) gives the same triangles.
    const glm::uvec3 dims(20, 18, 16);
    const auto field = [](std::uint32_t i, std::uint32_t j, std::uint32_t k) {
        const glm::vec3 d = glm::vec3(float(i), float(j), float(k)) - glm::vec3(9.5f, 8.5f, 7.5f);
        return std::round(100.0f * (6.0f - glm::length(d)));
    };
    const Volume asFloat = test::makeTypedVolume<float>(dims, field);
    const Volume asInt16 = test::makeTypedVolume<std::int16_t>(dims, field);
    const IsoMesh a = extractIsosurfaceCpu(asFloat, StoredValue(50.0f));
    const IsoMesh b = extractIsosurfaceCpu(asInt16, StoredValue(50.0f));
    ASSERT_GT(a.triangleCount(), 0u);
    EXPECT_EQ(a.indices, b.indices);
    EXPECT_EQ(a.edgeKeys, b.edgeKeys);
    EXPECT_EQ(a.positions, b.positions);
}

TEST(CpuMarchingCubes, InfinityFollowsTheInsideRuleAndNaNIsOutside)
{
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    const glm::uvec3 dims(16, 16, 16);
    const Volume clean = test::makeSphere(dims, glm::vec3(7.5f), 6.0f);
    // Inside <=> value >= iso. In the ball: NaN and -Inf are outside, so each opens a closed
    // cavity; +Inf is inside and changes nothing. Out of the ball: +Inf is inside, a closed
    // island; -Inf and NaN change nothing.
    const glm::vec3 nanAt(7, 7, 7);
    const glm::vec3 minusInfAt(7, 7, 10);
    const glm::vec3 islandAt(14, 14, 1);
    const Volume volume = test::makeFloatField(dims, [&](glm::vec3 p) {
        if (p == nanAt) return nan;
        if (p == minusInfAt) return -inf;
        if (p == glm::vec3(9, 7, 7)) return inf;
        if (p == islandAt) return inf;
        if (p == glm::vec3(0, 0, 0)) return -inf;
        if (p == glm::vec3(15, 0, 8)) return nan;
        return 6.0f - glm::length(p - glm::vec3(7.5f));
    });
    const IsoMesh mesh = extractIsosurfaceCpu(volume, StoredValue(0.0f));
    expectVerticesOnTheirEdges(mesh, dims); // finite positions and normals
    expectClosedManifoldOriented(mesh, "non-finite");
    // Four spheres: the ball, two cavities, the island.
    EXPECT_EQ(analyzeTopology(mesh).eulerCharacteristic, 8);

    // A vertex on an edge with a non-finite end sits at the finite end (where (iso - v0) /
    // (v1 - v0) tends as the other end goes to +-Inf): around each of the three single
    // non-finite voxels, six vertices on the six neighbouring voxels.
    for (const glm::vec3 centre : {nanAt, minusInfAt, islandAt}) {
        int onNeighbours = 0;
        for (std::size_t v = 0; v < mesh.vertexCount(); ++v) {
            const glm::vec3 d = mesh.positions[v] - centre;
            if (std::abs(d.x) + std::abs(d.y) + std::abs(d.z) == 1.0f) ++onNeighbours;
        }
        EXPECT_EQ(onNeighbours, 6) << centre.x << " " << centre.y << " " << centre.z;
    }
    // The cavities (octahedra of volume 4/3) and the island (the same) move the volume by
    // exactly these amounts.
    const double cleanVolume = enclosedVolume(extractIsosurfaceCpu(clean, StoredValue(0.0f)));
    EXPECT_NEAR(enclosedVolume(mesh), cleanVolume - 4.0 / 3.0, 1e-4);

    const Volume allNan = test::makeFloatField({5, 5, 5}, [&](glm::vec3) { return nan; });
    EXPECT_EQ(extractIsosurfaceCpu(allNan, StoredValue(0.0f)).triangleCount(), 0u);
    const Volume allInf = test::makeFloatField({5, 5, 5}, [&](glm::vec3) { return inf; });
    EXPECT_EQ(extractIsosurfaceCpu(allInf, StoredValue(0.0f)).triangleCount(), 0u);
    EXPECT_TRUE(isInsideIsosurface(inf, 1e30f));
    EXPECT_FALSE(isInsideIsosurface(-inf, -1e30f));
    EXPECT_FALSE(isInsideIsosurface(nan, -1e30f));
}

// Border caps follow the same rule: +Inf at the volume's border is inside and gets a cap, NaN
// and -Inf there are outside; the result is watertight.
TEST(CpuMarchingCubes, BorderCapsFollowTheInsideRuleForNonFiniteVoxels)
{
    const float inf = std::numeric_limits<float>::infinity();
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const glm::uvec3 dims(12, 12, 12);
    const Volume volume = test::makeFloatField(dims, [&](glm::vec3 p) {
        if (p.x == 0.0f && p.y < 3.0f && p.z < 3.0f) return inf; // a block on a face: capped
        if (p.x == 11.0f && p.y > 8.0f) return nan;              // on the far face: outside
        if (p.y == 0.0f && p.z > 8.0f) return -inf;              // outside
        return 4.0f - glm::length(p - glm::vec3(5.5f));
    });
    const IsoMesh open = extractIsosurfaceCpu(volume, StoredValue(0.0f));
    const IsoMesh closed = closeAtBorders(open, volume, StoredValue(0.0f), VoxelBox::whole(dims));
    EXPECT_GT(closed.triangleCount(), open.triangleCount()); // the +Inf block's cap
    const MeshTopology topology = analyzeTopology(closed);
    EXPECT_EQ(topology.boundaryEdges, 0u);
    EXPECT_EQ(topology.nonManifoldEdges, 0u);
    expectVerticesOnTheirEdges(open, dims);
}

// +Inf against -Inf or NaN: neither end has a position to interpolate, the vertex is halfway.
TEST(CpuMarchingCubes, EdgeCrossingAtTheFiniteEnd)
{
    const float inf = std::numeric_limits<float>::infinity();
    const float nan = std::numeric_limits<float>::quiet_NaN();
    EXPECT_EQ(edgeCrossing(1.0f, 3.0f, 2.5f), 0.75f);
    EXPECT_EQ(edgeCrossing(1.0f, inf, 2.5f), 0.0f);
    EXPECT_EQ(edgeCrossing(inf, 1.0f, 2.5f), 1.0f);
    EXPECT_EQ(edgeCrossing(3.0f, -inf, 2.5f), 0.0f);
    EXPECT_EQ(edgeCrossing(nan, 3.0f, 2.5f), 1.0f);
    EXPECT_EQ(edgeCrossing(inf, nan, 2.5f), 0.5f);
    EXPECT_EQ(edgeCrossing(-inf, inf, 2.5f), 0.5f);
}

TEST(CpuMarchingCubes, MirroredGeometryFlipsTheSignedVolume)
{
    // A mirroring direction matrix keeps physical normals outward (they come from the
    // gradient) but turns the index-space counter-clockwise winding clockwise in physical
    // space: the signed volume goes negative. Exporters reverse the winding for this reason.
    VolumeGeometry geometry;
    geometry.direction = glm::dmat3(glm::dvec3(-1, 0, 0), glm::dvec3(0, 1, 0), glm::dvec3(0, 0, 1));
    ASSERT_TRUE(geometry.isMirrored());
    const float r = 8.0f;
    const glm::vec3 center(-10.5f, 10.5f, 10.5f); // physical; index (10.5, 10.5, 10.5)
    const Volume volume = test::makeSphere({22, 22, 22}, center, r, geometry);
    const IsoMesh mesh = extractIsosurfaceCpu(volume, StoredValue(0.0f));
    const glm::dmat4 toPhysical = geometry.indexToPhysical();
    const double exact = 4.0 / 3.0 * kPi * r * r * r;
    EXPECT_NEAR(enclosedVolume(mesh) / exact, 1.0, 0.02);
    EXPECT_NEAR(enclosedVolume(mesh, toPhysical) / exact, -1.0, 0.02);
    for (std::size_t v = 0; v < mesh.vertexCount(); ++v) {
        const glm::dvec3 physical(toPhysical * glm::dvec4(glm::dvec3(mesh.positions[v]), 1.0));
        EXPECT_LT(degreesBetween(mesh.normals[v], physical - glm::dvec3(center)), 5.0) << v;
    }
}

TEST(CpuMarchingCubes, IndexGradientUsesCentralAndOneSidedDifferences)
{
    const Volume linear =
        test::makeFloatField({5, 4, 3}, [](glm::vec3 p) { return 2.0f * p.x + 3.0f * p.y - p.z; });
    for (glm::uvec3 voxel : {glm::uvec3(0, 0, 0), glm::uvec3(2, 1, 1), glm::uvec3(4, 3, 2)}) {
        EXPECT_EQ(indexGradient(linear, voxel), glm::vec3(2.0f, 3.0f, -1.0f));
    }
    // Quadratic along x: central difference at x = 2 gives 2x exactly; one-sided at the ends.
    const Volume quadratic = test::makeFloatField({5, 1, 2}, [](glm::vec3 p) { return p.x * p.x; });
    EXPECT_EQ(indexGradient(quadratic, {2, 0, 0}), glm::vec3(4.0f, 0.0f, 0.0f));
    EXPECT_EQ(indexGradient(quadratic, {0, 0, 1}), glm::vec3(1.0f, 0.0f, 0.0f));
    EXPECT_EQ(indexGradient(quadratic, {4, 0, 0}), glm::vec3(7.0f, 0.0f, 0.0f));
}

TEST(CpuMarchingCubes, IndexGradientIgnoresNonFiniteSamples)
{
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const Volume volume = test::makeFloatField({5, 5, 5}, [&](glm::vec3 p) {
        if (p == glm::vec3(3.0f, 2.0f, 2.0f)) return nan;
        return 2.0f * p.x + 3.0f * p.y + 4.0f * p.z;
    });
    // The +x neighbour is NaN and replaced by the centre: (f(p) - f(p - x)) / 2 = 1.
    EXPECT_EQ(indexGradient(volume, {2, 2, 2}), glm::vec3(1.0f, 3.0f, 4.0f));
    EXPECT_EQ(indexGradient(volume, {3, 2, 2}), glm::vec3(0.0f));
}

} // namespace
} // namespace isoview
