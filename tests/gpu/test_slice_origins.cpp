// Stacks kept as the scanner measured them: a gantry-tilted (sheared) stack and an unevenly
// spaced one, each sampling the same physical sphere, with every slice's position in
// VolumeGeometry::sliceOrigins. The surface mapped through those positions must be that sphere
// (known answer), the GPU must produce the CPU's mesh, export must place vertices at the same
// physical positions, and the rendered silhouette, live or as a stored layer, must match a
// regular grid's.
#include "extraction/cpu_marching_cubes.h"
#include "extraction/mesh_metrics.h"
#include "gpu/offscreen_target.h"
#include "gpu/stored_surface_mesh.h"
#include "mesh_export/ply_writer.h"
#include "support/gl_test_context.h"
#include "support/gpu_extractor.h"
#include "support/mesh_compare.h"
#include "support/synthetic_volumes.h"

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <numbers>

namespace isoview::test {
namespace {

constexpr double kRadius = 11.0;
const glm::dvec3 kCentre(20.0, 26.0, 19.0);

// Samples r - |x - c| at the physical position of every voxel of `geometry`.
Volume sampleSphere(glm::uvec3 dims, const VolumeGeometry& geometry)
{
    std::vector<std::byte> bytes(std::size_t(dims.x) * dims.y * dims.z * sizeof(float));
    std::size_t n = 0;
    for (std::uint32_t k = 0; k < dims.z; ++k) {
        for (std::uint32_t j = 0; j < dims.y; ++j) {
            for (std::uint32_t i = 0; i < dims.x; ++i) {
                const glm::dvec3 p = geometry.toPhysical(glm::dvec3(i, j, k));
                const float v = float(kRadius - glm::length(p - kCentre));
                std::memcpy(bytes.data() + 4 * n++, &v, 4);
            }
        }
    }
    return Volume(dims, ScalarType::Float32, std::move(bytes), geometry);
}

VolumeGeometry tiltedStack(std::uint32_t slices)
{
    // 20 degree gantry tilt: each slice 1 mm further in z and tan(20 deg) mm further in y.
    VolumeGeometry g;
    const double shear = std::tan(20.0 * std::numbers::pi / 180.0);
    for (std::uint32_t k = 0; k < slices; ++k)
        g.sliceOrigins.emplace_back(0.0, shear * k, k);
    return g;
}

VolumeGeometry unevenStack(std::uint32_t slices)
{
    // Gaps cycling through 0.8, 1.0, 1.6 and 1.2 mm (as a series with missing or thick slices).
    VolumeGeometry g;
    const double gaps[] = {0.8, 1.0, 1.6, 1.2};
    double z = 0.0;
    for (std::uint32_t k = 0; k < slices; ++k) {
        g.sliceOrigins.emplace_back(0.0, 0.0, z);
        z += gaps[k % 4];
    }
    g.spacing.z = z / slices;
    return g;
}

struct StackCase {
    const char* name;
    VolumeGeometry geometry;
    glm::uvec3 dims;
    double maxNormalDegrees; // against the analytic radial direction
};

std::vector<StackCase> stacks()
{
    return {{"tilted", tiltedStack(40), {40, 40, 40}, 0.5},
            {"uneven", unevenStack(34), {40, 52, 34}, 2.0}};
}

class SliceOriginsTest : public ::testing::TestWithParam<StackCase> {
protected:
    void SetUp() override { ASSERT_NO_THROW(glContext()); }
};

// A mesh's vertices in physical space.
std::vector<glm::dvec3> physicalPositions(const IsoMesh& mesh, const VolumeGeometry& geometry)
{
    std::vector<glm::dvec3> out;
    for (const glm::vec3& p : mesh.positions)
        out.push_back(geometry.toPhysical(glm::dvec3(p)));
    return out;
}

TEST_P(SliceOriginsTest, SurfaceIsThePhysicalSphere)
{
    const StackCase& c = GetParam();
    const Volume volume = sampleSphere(c.dims, c.geometry);
    const IsoMesh mesh = extractIsosurfaceCpu(volume, StoredValue(0.0f));
    ASSERT_GT(mesh.triangleCount(), 1000u);
    const std::vector<glm::dvec3> positions = physicalPositions(mesh, c.geometry);

    double worstRadius = 0.0;
    double worstNormal = 0.0;
    double area = 0.0;
    double volume6 = 0.0;
    for (std::size_t i = 0; i < positions.size(); ++i) {
        const glm::dvec3 radial = positions[i] - kCentre;
        worstRadius = std::max(worstRadius, std::abs(glm::length(radial) - kRadius));
        const double cosine = glm::dot(glm::normalize(radial), glm::dvec3(mesh.normals[i]));
        worstNormal = std::max(worstNormal, std::acos(std::clamp(cosine, -1.0, 1.0)));
    }
    for (std::size_t t = 0; t < mesh.triangleCount(); ++t) {
        const glm::dvec3 a = positions[mesh.indices[3 * t]];
        const glm::dvec3 b = positions[mesh.indices[3 * t + 1]];
        const glm::dvec3 d = positions[mesh.indices[3 * t + 2]];
        area += 0.5 * glm::length(glm::cross(b - a, d - a));
        volume6 += glm::dot(a, glm::cross(b, d));
    }
    const double pi = std::numbers::pi;
    EXPECT_LT(worstRadius, 0.1) << "mm off the sphere";
    EXPECT_LT(worstNormal * 180.0 / pi, c.maxNormalDegrees);
    EXPECT_NEAR(area / (4.0 * pi * kRadius * kRadius), 1.0, 0.01);
    EXPECT_NEAR(volume6 / 6.0 / (4.0 / 3.0 * pi * std::pow(kRadius, 3)), 1.0, 0.01);
    EXPECT_EQ(analyzeTopology(mesh).eulerCharacteristic, 2);
}

TEST_P(SliceOriginsTest, GpuMatchesCpuOnBothPaths)
{
    const StackCase& c = GetParam();
    const Volume volume = sampleSphere(c.dims, c.geometry);
    const IsoMesh cpu = extractIsosurfaceCpu(volume, StoredValue(0.0f));
    for (bool gl33 : {false, true}) {
        GpuExtractor extractor(gl33);
        extractor.setVolume(volume);
        extractor->extract(StoredValue(0.0f));
        const MeshComparison m = compareMeshes(extractor->capture(), cpu);
        EXPECT_EQ(m.unmatchedTriangles, 0u) << m.describe();
        EXPECT_EQ(m.verticesA, m.verticesB) << m.describe();
        EXPECT_LE(m.maxPositionDistance, 1e-3) << m.describe();
        EXPECT_EQ(m.normalsBeyondOneDegree, 0u) << m.describe();
    }
}

TEST_P(SliceOriginsTest, PlyPlacesVerticesAtTheirSlicePositions)
{
    const StackCase& c = GetParam();
    const Volume volume = sampleSphere(c.dims, c.geometry);
    const IsoMesh mesh = extractIsosurfaceCpu(volume, StoredValue(0.0f));
    const std::filesystem::path path =
        std::filesystem::temp_directory_path() / (std::string("isoview_stack_") + c.name + ".ply");
    writePly(path, mesh, c.geometry);
    std::ifstream in(path, std::ios::binary);
    std::string line;
    while (std::getline(in, line) && line != "end_header") {
    }
    std::size_t beyond = 0;
    for (std::size_t i = 0; i < mesh.vertexCount(); ++i) {
        float v[6];
        in.read(reinterpret_cast<char*>(v), sizeof(v));
        const glm::dvec3 p(v[0], v[1], v[2]);
        if (std::abs(glm::length(p - kCentre) - kRadius) > 0.1) ++beyond;
    }
    ASSERT_TRUE(in.good());
    std::filesystem::remove(path);
    EXPECT_EQ(beyond, 0u) << "exported vertices off the physical sphere";
}

enum class DrawnBy { Extractor, StoredLayer };

// Renders the sphere's silhouette, looking down -z onto physical space: the extractor's live
// surface, or its mesh kept as a stored layer and drawn by the layers' program.
std::vector<bool> silhouette(const Volume& volume, DrawnBy drawnBy = DrawnBy::Extractor)
{
    GpuExtractor extractor;
    extractor.setVolume(volume);
    extractor->extract(StoredValue(0.0f));
    gpu::StoredSurfaceProgram storedProgram(extractor->capabilities());
    gpu::StoredSurfaceMesh stored;
    if (drawnBy == DrawnBy::StoredLayer) {
        storedProgram.setVolume(volume.dims(), volume.geometry());
        stored.store(extractor->capture());
    }
    gpu::OffscreenTarget target(96, 96);
    target.bind();
    glClearColor(0, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    glEnable(GL_DEPTH_TEST);
    gpu::SurfaceDrawParams params;
    // Physical x, y in [centre - 16, centre + 16] onto the viewport.
    const float s = 1.0f / 16.0f;
    params.physicalToClip =
        glm::mat4(glm::vec4(s, 0, 0, 0), glm::vec4(0, s, 0, 0), glm::vec4(0, 0, -0.01f, 0),
                  glm::vec4(-float(kCentre.x) * s, -float(kCentre.y) * s, 0, 1));
    if (drawnBy == DrawnBy::StoredLayer)
        storedProgram.draw(stored, params);
    else
        extractor->draw(params);
    glDisable(GL_DEPTH_TEST);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    const std::vector<std::uint8_t> rgba = target.readPixels();
    std::vector<bool> mask;
    for (std::size_t i = 0; i < rgba.size(); i += 4)
        mask.push_back(rgba[i] > 0);
    return mask;
}

void expectSameDisc(const std::vector<bool>& stack, const std::vector<bool>& regular)
{
    std::size_t both = 0;
    std::size_t either = 0;
    for (std::size_t i = 0; i < stack.size(); ++i) {
        both += stack[i] && regular[i];
        either += stack[i] || regular[i];
    }
    ASSERT_GT(either, 0u);
    // The disc of radius 11 of 16 covers about 37% of the image.
    EXPECT_NEAR(double(either) / double(stack.size()), 0.37, 0.04);
    EXPECT_GT(double(both) / double(either), 0.97) << "silhouettes differ";
}

TEST_P(SliceOriginsTest, RenderedWhereARegularGridPutsIt)
{
    const StackCase& c = GetParam();
    expectSameDisc(silhouette(sampleSphere(c.dims, c.geometry)),
                   silhouette(sampleSphere({40, 52, 40}, VolumeGeometry{})));
}

// The layers' program is built per slice geometry, as the extractor's is.
TEST_P(SliceOriginsTest, StoredLayerRenderedWhereARegularGridPutsIt)
{
    const StackCase& c = GetParam();
    expectSameDisc(silhouette(sampleSphere(c.dims, c.geometry), DrawnBy::StoredLayer),
                   silhouette(sampleSphere({40, 52, 40}, VolumeGeometry{}), DrawnBy::StoredLayer));
}

INSTANTIATE_TEST_SUITE_P(Stacks, SliceOriginsTest, ::testing::ValuesIn(stacks()),
                         [](const auto& info) { return std::string(info.param.name); });

} // namespace
} // namespace isoview::test
