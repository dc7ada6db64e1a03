// The GPU mesh against geometry with known answers: a sampled sphere's area and volume, its
// topology (closed, manifold, Euler characteristic 2), and a plane's exact triangle count.
#include "extraction/mesh_metrics.h"
#include "support/gl_test_context.h"
#include "support/gpu_extractor.h"
#include "support/synthetic_volumes.h"

#include <cmath>
#include <numbers>

namespace isoview::test {
namespace {

class GpuKnownAnswersTest : public GlPathTest {
protected:
    IsoMesh extract(const Volume& volume, float iso)
    {
        GpuExtractor extractor(limitToGl33());
        extractor.setVolume(volume);
        extractor->extract(StoredValue(iso));
        return extractor->capture();
    }
};

TEST_P(GpuKnownAnswersTest, SphereAreaVolumeAndTopology)
{
    constexpr float r = 24.0f;
    const IsoMesh mesh = extract(makeSphere({64, 64, 64}, glm::vec3(31.5f), r), 0.0f);
    const double area = surfaceArea(mesh);
    const double volume = enclosedVolume(mesh);
    const double pi = std::numbers::pi;
    EXPECT_NEAR(area / (4.0 * pi * r * r), 1.0, 0.01) << "area " << area;
    EXPECT_NEAR(volume / (4.0 / 3.0 * pi * r * r * r), 1.0, 0.01) << "volume " << volume;

    const MeshTopology topology = analyzeTopology(mesh);
    EXPECT_EQ(topology.boundaryEdges, 0u);
    EXPECT_EQ(topology.nonManifoldEdges, 0u);
    EXPECT_EQ(topology.inconsistentlyOrientedEdges, 0u);
    EXPECT_EQ(topology.eulerCharacteristic, 2);

    // Normals point away from the centre.
    std::size_t inward = 0;
    for (std::size_t i = 0; i < mesh.vertexCount(); ++i) {
        const glm::vec3 radial = glm::normalize(mesh.positions[i] - glm::vec3(31.5f));
        if (glm::dot(radial, mesh.normals[i]) < 0.99f) ++inward;
    }
    EXPECT_EQ(inward, 0u);
}

TEST_P(GpuKnownAnswersTest, AnisotropicSphereInPhysicalSpace)
{
    // Spacing (1, 1, 2.5): a sphere of radius 20 mm is 40 voxels across in x, 16 in z.
    VolumeGeometry geometry;
    geometry.spacing = {1.0, 1.0, 2.5};
    const Volume field = makeFloatField(
        {64, 64, 32},
        [&](glm::vec3 p) {
            const glm::vec3 mm(p.x, p.y, p.z * 2.5f);
            return 20.0f - glm::length(mm - glm::vec3(31.5f, 31.5f, 15.5f * 2.5f));
        },
        geometry);
    const IsoMesh mesh = extract(field, 0.0f);
    const glm::dmat4 toMm = geometry.indexToPhysical();
    const double pi = std::numbers::pi;
    EXPECT_NEAR(surfaceArea(mesh, toMm) / (4.0 * pi * 400.0), 1.0, 0.01);
    EXPECT_NEAR(enclosedVolume(mesh, toMm) / (4.0 / 3.0 * pi * 8000.0), 1.0, 0.01);
    // Physical normals agree with the sphere's radial directions (spacing honoured).
    double worst = 0.0;
    for (std::size_t i = 0; i < mesh.vertexCount(); ++i) {
        const glm::dvec3 mm = glm::dvec3(toMm * glm::dvec4(glm::dvec3(mesh.positions[i]), 1.0));
        const glm::dvec3 radial = glm::normalize(mm - glm::dvec3(31.5, 31.5, 15.5 * 2.5));
        worst = std::max(
            worst, std::acos(std::clamp(glm::dot(radial, glm::dvec3(mesh.normals[i])), -1.0, 1.0)));
    }
    EXPECT_LT(worst * 180.0 / pi, 3.0);
}

TEST_P(GpuKnownAnswersTest, PlaneHasExactTriangleCount)
{
    // f = x crosses iso 10.5 inside every cell of the slab 10 <= x <= 11: two triangles each.
    const glm::uvec3 dims(32, 20, 12);
    const IsoMesh mesh = extract(makeFloatField(dims, [](glm::vec3 p) { return p.x; }), 10.5f);
    EXPECT_EQ(mesh.triangleCount(), 2u * (dims.y - 1) * (dims.z - 1));
    EXPECT_EQ(mesh.vertexCount(), std::size_t(dims.y) * dims.z);
    for (const glm::vec3& p : mesh.positions)
        EXPECT_FLOAT_EQ(p.x, 10.5f);
    // Inside is x >= 10.5, so outward is towards -x.
    for (const glm::vec3& n : mesh.normals)
        EXPECT_NEAR(n.x, -1.0f, 1e-6f);
}

INSTANTIATE_TEST_SUITE_P(GlPaths, GpuKnownAnswersTest, ::testing::Values(false, true), glPathName);

} // namespace
} // namespace isoview::test
