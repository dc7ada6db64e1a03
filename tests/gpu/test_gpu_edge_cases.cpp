// Awkward inputs on the GPU path: odd and non-power-of-two dimensions, volumes without cells,
// constant volumes, isovalues outside the data or equal to voxel values, NaN/Inf voxels,
// volumes beyond the texture limit, and the drawn image of both GL paths.
#include "core/error.h"
#include "extraction/cpu_marching_cubes.h"
#include "gpu/offscreen_target.h"
#include "support/gl_test_context.h"
#include "support/gpu_extractor.h"
#include "support/mesh_compare.h"
#include "support/synthetic_volumes.h"

#include <cmath>
#include <limits>

namespace isoview::test {
namespace {

class GpuEdgeCaseTest : public GlPathTest {
protected:
    GpuExtractor makeExtractor() { return GpuExtractor(limitToGl33()); }

    // Extracts on the GPU and checks the result is the CPU reference's mesh; returns it.
    IsoMesh expectMatchesCpu(const Volume& volume, float iso)
    {
        GpuExtractor extractor(limitToGl33());
        extractor.setVolume(volume);
        extractor->extract(StoredValue(iso));
        IsoMesh gpu = extractor->capture();
        const MeshComparison c = compareMeshes(gpu, extractIsosurfaceCpu(volume, StoredValue(iso)));
        EXPECT_EQ(c.trianglesA, c.trianglesB) << c.describe();
        EXPECT_EQ(c.verticesA, c.verticesB) << c.describe();
        EXPECT_EQ(c.unmatchedTriangles, 0u) << c.describe();
        EXPECT_EQ(c.nonFinitePositions, 0u) << c.describe();
        EXPECT_LE(c.maxPositionDistance, 1e-3) << c.describe();
        EXPECT_EQ(c.normalsBeyondOneDegree, 0u) << c.describe();
        return gpu;
    }
};

TEST_P(GpuEdgeCaseTest, LargeOddNonPowerOfTwoVolume)
{
    const glm::uvec3 dims(255, 255, 127);
    const Volume v = makeFloatField(dims, [](glm::vec3 p) {
        return std::sin(p.x * 0.05f) * std::cos(p.y * 0.07f) + std::sin(p.z * 0.09f);
    });
    EXPECT_GT(expectMatchesCpu(v, 0.2f).triangleCount(), 10000u);
}

TEST_P(GpuEdgeCaseTest, TinyOddVolume)
{
    const Volume v = makeRandomVolume({7, 5, 3}, ScalarType::UInt8, 11);
    EXPECT_GT(expectMatchesCpu(v, 128.0f).triangleCount(), 0u);
}

TEST_P(GpuEdgeCaseTest, VolumesWithoutCellsGiveNothingAndNoError)
{
    for (glm::uvec3 dims :
         {glm::uvec3(16, 16, 1), glm::uvec3(1, 9, 9), glm::uvec3(9, 1, 9), glm::uvec3(1, 1, 1)}) {
        GpuExtractor extractor = makeExtractor();
        const Volume v = makeRandomVolume(dims, ScalarType::UInt8, 3);
        ASSERT_NO_THROW(extractor.setVolume(v));
        extractor->extract(StoredValue(100.0f));
        EXPECT_EQ(extractor->vertexCount(), 0u);
        EXPECT_EQ(extractor->capture().triangleCount(), 0u);
        extractor->draw({}); // must be harmless
    }
}

TEST_P(GpuEdgeCaseTest, ConstantVolumeAndIsovaluesOutsideTheData)
{
    GpuExtractor extractor = makeExtractor();
    extractor.setVolume(makeTypedVolume<std::int16_t>(
        {9, 8, 7}, [](auto, auto, auto) { return std::int16_t(42); }));
    for (float iso : {41.0f, 42.0f, 43.0f}) {
        extractor->extract(StoredValue(iso));
        EXPECT_EQ(extractor->vertexCount(), 0u) << iso;
    }
    extractor.setVolume(makeRandomVolume({10, 10, 10}, ScalarType::UInt8, 4));
    for (float iso : {-5.0f, 0.0f, 256.0f, 1e9f}) {
        extractor->extract(StoredValue(iso));
        EXPECT_EQ(extractor->vertexCount(), 0u) << iso;
    }
}

TEST_P(GpuEdgeCaseTest, IsovalueEqualToVoxelValues)
{
    // Integer volume, isovalue hit exactly by many voxels: such corners are inside; vertices
    // land on them (t = 1 at the upper end) and must still match the CPU exactly.
    const Volume v = makeTypedVolume<std::int16_t>({12, 11, 10}, [](auto i, auto j, auto k) {
        return std::int16_t((int(i) + 2 * int(j) + 3 * int(k)) % 9);
    });
    EXPECT_GT(expectMatchesCpu(v, 4.0f).triangleCount(), 0u);
}

// Inside <=> value >= iso on the GPU as on the CPU: +Inf inside, -Inf and NaN outside, each as
// single voxels and as islands of several, in the sphere, out of it, on its surface and in a
// corner of the volume; vertices next to them sit at the finite end with finite normals.
TEST_P(GpuEdgeCaseTest, NonFiniteVoxelsFollowTheInsideRule)
{
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    Volume sphere = makeSphere({24, 24, 24}, glm::vec3(11.5f), 8.0f);
    std::vector<std::byte> bytes(sphere.bytes(), sphere.bytes() + sphere.byteCount());
    auto put = [&](glm::uvec3 p, float value) {
        const std::size_t i = p.x + 24u * (p.y + 24u * p.z);
        std::memcpy(bytes.data() + 4 * i, &value, 4);
    };
    auto island = [&](glm::uvec3 p, float value) { // 2 x 2 x 2 voxels
        for (unsigned k = 0; k < 8; ++k)
            put(p + glm::uvec3(k & 1, (k >> 1) & 1, k >> 2), value);
    };
    put({11, 11, 11}, nan);   // in the sphere: a cavity
    put({11, 14, 11}, inf);   // in the sphere: nothing
    put({14, 11, 11}, -inf);  // in the sphere: a cavity
    island({8, 8, 13}, nan);  // a larger cavity
    island({13, 8, 8}, -inf); // another
    put({11, 11, 4}, nan);    // on the surface
    put({19, 11, 11}, inf);   // on the surface
    island({1, 1, 20}, inf);  // out of the sphere: an island
    put({21, 3, 3}, inf);     // a single-voxel island
    put({2, 20, 3}, -inf);    // out of the sphere: nothing
    put({20, 20, 20}, nan);   // nothing
    island({22, 0, 0}, inf);  // in a corner of the volume: an island open at the border
    const Volume v({24, 24, 24}, ScalarType::Float32, std::move(bytes));
    const IsoMesh mesh = expectMatchesCpu(v, 0.0f); // includes finite positions and normals
    for (const glm::vec3& n : mesh.normals) {
        ASSERT_TRUE(std::isfinite(n.x) && std::isfinite(n.y) && std::isfinite(n.z));
    }
    // Islands and cavities add surface: more triangles than the plain sphere.
    GpuExtractor plain = makeExtractor();
    plain.setVolume(sphere);
    plain->extract(StoredValue(0.0f));
    EXPECT_GT(mesh.triangleCount(), plain->vertexCount() / 3 + 4 * 8);
    // A block of +Inf only, the rest outside, is found (block ranges must not skip it).
    const Volume lone = makeFloatField(
        {20, 20, 20}, [&](glm::vec3 p) { return p == glm::vec3(12, 4, 9) ? inf : -1.0f; });
    EXPECT_EQ(expectMatchesCpu(lone, 1e30f).triangleCount(), 8u);
}

TEST_P(GpuEdgeCaseTest, VolumeBeyondTextureLimitIsAClearErrorAndKeepsThePrevious)
{
    GpuExtractor extractor = makeExtractor();
    const Volume small = makeSphere({16, 16, 16}, glm::vec3(7.5f), 5.0f);
    extractor.setVolume(small);
    const std::uint32_t limit = extractor->capabilities().maxTextureSize;
    const Volume wide = makeTypedVolume<std::uint8_t>(
        {limit + 1, 2, 2}, [](auto, auto, auto) { return std::uint8_t(0); });
    try {
        extractor.setVolume(wide);
        ADD_FAILURE() << "a volume wider than GL_MAX_TEXTURE_SIZE was accepted";
    } catch (const GlError& e) {
        const std::string message = e.what();
        EXPECT_NE(message.find("GL_MAX_TEXTURE_SIZE"), std::string::npos) << message;
        EXPECT_NE(message.find(std::to_string(limit)), std::string::npos) << message;
    }
    extractor->extract(StoredValue(0.0f));
    EXPECT_GT(extractor->vertexCount(), 0u) << "the previous volume must stay usable";
}

INSTANTIATE_TEST_SUITE_P(GlPaths, GpuEdgeCaseTest, ::testing::Values(false, true), glPathName);

// Both paths draw the same picture, and it is not blank: the 4.x indirect draw takes its count
// from GPU memory, the 3.3 path from a read-back, so equal images prove the count got there.
class GpuDrawTest : public GlTest {};

std::vector<std::uint8_t> renderSphere(bool limitToGl33)
{
    GpuExtractor extractor(limitToGl33);
    extractor.setVolume(makeSphere({32, 32, 32}, glm::vec3(15.5f), 12.0f));
    extractor->extract(StoredValue(0.0f));
    gpu::OffscreenTarget target(64, 64);
    target.bind();
    glClearColor(0.0f, 0.0f, 0.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    glEnable(GL_DEPTH_TEST);
    gpu::SurfaceDrawParams params;
    // Physical space (= index space here) [0, 31]^3 onto clip space [-1, 1]^3.
    params.physicalToClip =
        glm::mat4(glm::vec4(2.0f / 31.0f, 0, 0, 0), glm::vec4(0, 2.0f / 31.0f, 0, 0),
                  glm::vec4(0, 0, -2.0f / 31.0f, 0), glm::vec4(-1, -1, 1, 1));
    extractor->draw(params);
    glDisable(GL_DEPTH_TEST);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    return target.readPixels();
}

TEST_F(GpuDrawTest, BothPathsDrawTheSameNonBlankImage)
{
    const std::vector<std::uint8_t> gl4 = renderSphere(false);
    const std::vector<std::uint8_t> gl33 = renderSphere(true);
    ASSERT_EQ(gl4.size(), 64u * 64u * 4u);
    EXPECT_EQ(gl4, gl33);
    const std::size_t centre = (32 * 64 + 32) * 4;
    EXPECT_GT(int(gl4[centre]), 100) << "the sphere should cover the centre, lit";
    EXPECT_EQ(int(gl4[0]), 0) << "the corner should stay background";
    std::size_t lit = 0;
    for (std::size_t i = 0; i < gl4.size(); i += 4)
        lit += gl4[i] > 0;
    // The disc of radius 12 of 31 covers about 47% of the image.
    EXPECT_NEAR(double(lit) / (64.0 * 64.0), 0.47, 0.05);
}

} // namespace
} // namespace isoview::test

namespace isoview::test {
namespace {

// Per-frame statistics read the count without stalling: never a stale count of an earlier
// isovalue, and the right one once the GPU is done.
TEST_F(GpuDrawTest, PolledVertexCountIsNeverStale)
{
    for (bool gl33 : {false, true}) {
        GpuExtractor extractor(gl33);
        extractor.setVolume(makeSphere({40, 40, 40}, glm::vec3(19.5f), 15.0f));
        extractor->extract(StoredValue(0.0f));
        gpu::finishGpuWork();
        const std::optional<std::uint32_t> first = extractor->pollVertexCount();
        ASSERT_TRUE(first.has_value());
        EXPECT_EQ(*first, extractor->vertexCount());

        extractor->extract(StoredValue(5.0f)); // a smaller sphere: fewer vertices
        const std::optional<std::uint32_t> early = extractor->pollVertexCount();
        if (early) {
            EXPECT_NE(*early, *first) << "a count of the previous isovalue";
        }
        gpu::finishGpuWork();
        const std::optional<std::uint32_t> second = extractor->pollVertexCount();
        ASSERT_TRUE(second.has_value());
        EXPECT_EQ(*second, extractor->vertexCount());
        EXPECT_LT(*second, *first);
    }
}

} // namespace
} // namespace isoview::test
