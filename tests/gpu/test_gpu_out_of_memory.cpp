// A real GL_OUT_OF_MEMORY while a volume goes to the GPU, in the volume texture's allocation and
// in the pyramid's: the error gives the sizes and says what to do, nothing of the failed upload
// stays alive, and the previous volume stays, its surface still the CPU reference's. And one in
// a frame, when the mesh buffers grow for a larger surface: the frame draws nothing and says
// why, without throwing, and the next isovalue that fits is drawn again.
//
// llvmpipe keeps textures in system memory, so a lowered address-space limit (RLIMIT_AS, for the
// scope of one setVolume only) makes its allocations fail as a GPU's would (on a hardware GPU,
// where the limit cannot reach the driver's memory, the tests skip, saying why). The memory check
// before the upload is given a budget it always passes: what is tested is the driver's error.
#include "core/error.h"
#include "extraction/cpu_marching_cubes.h"
#include "extraction/flat3d_layout.h"
#include "gpu/gl_loader.h"
#include "gpu/gl_objects.h"
#include "gpu/offscreen_target.h"
#include "gpu/scene_renderer.h"
#include "support/gl_test_context.h"
#include "support/gpu_extractor.h"
#include "support/mesh_compare.h"
#include "support/scene_fixtures.h"
#include "support/synthetic_volumes.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <malloc.h>
#include <string>
#include <sys/resource.h>

namespace isoview::test {
namespace {

using gpu::SceneRenderer;

// Lets the process map at most `headroom` bytes more than it has mapped now, until destroyed.
class AddressSpaceLimit {
public:
    explicit AddressSpaceLimit(std::uint64_t headroom)
    {
        if (getrlimit(RLIMIT_AS, &m_previous) != 0) return;
        rlimit lowered = m_previous;
        lowered.rlim_cur = rlim_t(mappedBytes() + headroom);
        m_set = lowered.rlim_cur <= m_previous.rlim_max && setrlimit(RLIMIT_AS, &lowered) == 0;
    }
    ~AddressSpaceLimit()
    {
        if (m_set) setrlimit(RLIMIT_AS, &m_previous);
    }
    AddressSpaceLimit(const AddressSpaceLimit&) = delete;
    AddressSpaceLimit& operator=(const AddressSpaceLimit&) = delete;

    bool set() const { return m_set; }

private:
    static std::uint64_t mappedBytes()
    {
        std::ifstream status("/proc/self/status");
        for (std::string line; std::getline(status, line);) {
            if (line.rfind("VmSize:", 0) == 0) return std::stoull(line.substr(7)) * 1024; // kB
        }
        return 0;
    }

    rlimit m_previous{};
    bool m_set = false;
};

constexpr std::uint64_t kMiB = 1024 * 1024;
constexpr glm::uvec3 kLargeDims{512, 512, 256}; // 64 MiB of uint8

Volume smallBall()
{
    return makeTypedVolume<std::uint8_t>({40, 40, 40}, [](auto i, auto j, auto k) {
        const double r =
            std::sqrt((i - 19.5) * (i - 19.5) + (j - 19.5) * (j - 19.5) + (k - 19.5) * (k - 19.5));
        return std::uint8_t(std::lround(std::clamp(255.0 - 12.0 * r, 0.0, 255.0)));
    });
}

Volume largeVolume()
{
    return makeTypedVolume<std::uint8_t>(
        kLargeDims, [](auto i, auto j, auto k) { return std::uint8_t((i ^ j) + 3 * k); });
}

void expectSameMesh(const IsoMesh& gpu, const IsoMesh& cpu)
{
    const MeshComparison c = compareMeshes(gpu, cpu);
    SCOPED_TRACE(c.describe());
    EXPECT_GT(cpu.triangleCount(), 1000u);
    EXPECT_EQ(c.trianglesA, c.trianglesB);
    EXPECT_EQ(c.verticesA, c.verticesB);
    EXPECT_EQ(c.unmatchedTriangles, 0u);
    EXPECT_EQ(c.unmatchedVertices, 0u);
    EXPECT_LE(c.maxPositionDistance, 1e-3);
}

// Loads the small volume, then tries the large one with only `headroom` bytes of address space
// to spare; returns the error's message. Checks that nothing of the failed upload stays alive
// and that the small volume's surface is still the CPU reference's.
std::string failedUploadMessage(std::uint64_t headroom)
{
    const Volume small = smallBall();
    const Volume large = largeVolume(); // made before the limit: only the upload may fail
    SceneRenderer::Options options;
    options.memoryBudgetBytes = std::uint64_t(1) << 50; // the check before the upload passes
    SceneRenderer renderer(options);
    renderer.setVolume(small);
    const IsoMesh before = extractAt(renderer, 100.5);
    const gpu::GlObjectCounts objects = gpu::liveGlObjects();

    std::string message;
    {
        const AddressSpaceLimit limit(headroom);
        EXPECT_TRUE(limit.set()) << "setrlimit(RLIMIT_AS) failed";
        try {
            renderer.setVolume(large);
            ADD_FAILURE() << "the upload should have run out of memory";
        } catch (const GlError& e) {
            message = e.what();
        }
    }
    EXPECT_EQ(glGetError(), GLenum(GL_NO_ERROR)) << "the error was read, not left pending";
    EXPECT_EQ(gpu::liveGlObjects(), objects)
        << "before: " << objects.describe() << "\nafter: " << gpu::liveGlObjects().describe();
    EXPECT_TRUE(renderer.hasVolume());
    EXPECT_EQ(renderer.renderedIsovalue(), 100.5) << "the surface on screen stays";
    const IsoMesh after = extractAt(renderer, 100.5);
    EXPECT_EQ(after.triangleCount(), before.triangleCount());
    expectSameMesh(after, extractIsosurfaceCpu(small, StoredValue(100.5f)));

    // The context is healthy: with the memory back, the large volume goes up.
    EXPECT_NO_THROW(renderer.setVolume(large));
    return message;
}

class GpuOutOfMemoryTest : public GlTest {
protected:
    void SetUp() override
    {
        // Large blocks mapped anew and unmapped when freed, so the limit reaches every large
        // allocation: glibc otherwise raises its threshold once one is freed and serves later
        // ones from heap mapped already (what an earlier test in the process left).
        mallopt(M_MMAP_THRESHOLD, 1 << 20);
        GlTest::SetUp();
        if (HasFatalFailure()) return;
        // Runs wherever CI runs (llvmpipe). A GPU's own memory is not bounded by the process's
        // address space, so there the limit would provoke nothing.
        const std::string renderer = gpu::queryCapabilities().renderer;
        if (renderer.find("llvmpipe") == std::string::npos &&
            renderer.find("softpipe") == std::string::npos) {
            // CI is always on a software renderer: a skip there would hide a broken setup.
            if (std::getenv("CI") != nullptr) {
                FAIL() << "CI=true but the renderer is " << renderer << ", not llvmpipe";
            }
            GTEST_SKIP() << "needs a software renderer, whose textures live in system memory; "
                         << renderer << " keeps them in its own";
        }
    }
};

TEST_F(GpuOutOfMemoryTest, TheVolumeTextureIsRefusedWithSizesAndThePreviousVolumeStays)
{
    const std::string message = failedUploadMessage(16 * kMiB); // a quarter of the texture
    const glm::uvec2 texels =
        Flat3DLayout::forVolume(kLargeDims, gpu::queryCapabilities().maxTextureSize).textureSize();
    SCOPED_TRACE(message);
    EXPECT_NE(message.find("This 512x512x256 uint8 volume needs about 194.6 MB of GPU memory "
                           "(volume texture and pyramids) and does not fit: the GPU ran out of "
                           "memory allocating the volume texture of " +
                           std::to_string(texels.x) + "x" + std::to_string(texels.y) + " texels (" +
                           gpu::formatBytes(std::uint64_t(texels.x) * texels.y) + "). "),
              std::string::npos);
    EXPECT_NE(message.find("To view it, open a cropped part of it (a smaller region or fewer "
                           "slices), a subsampled copy, or close other programs that use the "
                           "GPU."),
              std::string::npos);
}

TEST_F(GpuOutOfMemoryTest, ThePyramidIsRefusedWithSizesAndThePreviousVolumeStays)
{
    // The upload needs the texture (64 MiB) and, for a moment, the block ranges' per-row
    // pass (64 MiB, freed before the pyramid); the pyramids need about 112 MiB more. 144 MiB
    // leaves 16 MiB over the upload's peak and 32 MiB short of the pyramids.
    const std::string message = failedUploadMessage(144 * kMiB);
    SCOPED_TRACE(message);
    EXPECT_NE(message.find("This 512x512x256 uint8 volume needs about 194.6 MB of GPU memory "
                           "(volume texture and pyramids) and does not fit: the GPU ran out of "
                           "memory allocating the HistoPyramid levels ("),
              std::string::npos);
    EXPECT_NE(message.find(" MB). To view it, open a cropped part of it"), std::string::npos);
}

// A surface of about 640,000 triangles (about 20 MB of mesh buffers), and one of none.
Volume noisyVolume()
{
    return makeTypedVolume<std::uint8_t>(
        {160, 160, 160}, [](auto i, auto j, auto k) { return std::uint8_t((i ^ j) + 3 * k); });
}

void expectFrameWithoutRoomForTheMesh(bool limitToGl33)
{
    const Volume volume = noisyVolume();
    GpuExtractor gpu(limitToGl33);
    gpu.setVolume(volume);
    gpu::OffscreenTarget target(32, 32);
    target.bind();
    gpu->extract(StoredValue(255.5f)); // nothing crosses: the mesh buffers stay empty
    gpu->draw({});
    {
        const AddressSpaceLimit limit(8 * kMiB); // llvmpipe needs a few for its own frame
        EXPECT_TRUE(limit.set()) << "setrlimit(RLIMIT_AS) failed";
        gpu->extract(StoredValue(100.5f));
        EXPECT_NO_THROW(gpu->draw({}));
        EXPECT_NO_THROW(gpu->draw({})) << "a second frame of the same isovalue";
    }
    ASSERT_TRUE(gpu->meshError().has_value()) << "the frame says why nothing was drawn";
    // The mesh buffers, or before them the compute path's per-block index, whichever the limit
    // stops first.
    EXPECT_NE(gpu->meshError()->find("the GPU ran out of memory allocating the isosurface mesh "
                                     "buffers"),
              std::string::npos)
        << *gpu->meshError();
    EXPECT_EQ(glGetError(), GLenum(GL_NO_ERROR)) << "the error was read, not left pending";

    // With the memory back, the next extract is drawn and is the CPU reference's mesh.
    gpu->extract(StoredValue(100.5f));
    EXPECT_NO_THROW(gpu->draw({}));
    EXPECT_FALSE(gpu->meshError().has_value());
    const IsoMesh cpu = extractIsosurfaceCpu(volume, StoredValue(100.5f));
    EXPECT_GT(cpu.triangleCount(), 500'000u);
    expectSameMesh(gpu->capture(), cpu);
}

TEST_F(GpuOutOfMemoryTest, AFrameWhoseMeshDoesNotFitDrawsNothingSaysWhyAndDoesNotThrow)
{
    expectFrameWithoutRoomForTheMesh(false);
}

TEST_F(GpuOutOfMemoryTest, AFrameWhoseMeshDoesNotFitOnTheGl33PathDoesNotThrow)
{
    expectFrameWithoutRoomForTheMesh(true);
}

// One inside voxel in the middle of every block of 8 x 8 x 4 cells: all 16,000 blocks are active
// (about 16.6 MB of per-block index on the compute path) for 8 triangles each.
Volume spikeInEveryBlock()
{
    return makeTypedVolume<std::uint8_t>({160, 160, 160}, [](auto i, auto j, auto k) {
        return std::uint8_t(i % 8 == 4 && j % 8 == 4 && k % 4 == 2 ? 255 : 0);
    });
}

TEST_F(GpuOutOfMemoryTest, AFrameWithoutRoomForThePerBlockIndexDrawsNothingSaysWhyAndDoesNotThrow)
{
    const Volume volume = spikeInEveryBlock();
    GpuExtractor gpu(false);
    // llvmpipe (CI) offers compute: a 3.3-only context there would hide a broken setup.
    if (!gpu->capabilities().computeExtraction) {
        if (std::getenv("CI") != nullptr) FAIL() << "CI=true but no OpenGL 4.3 compute";
        GTEST_SKIP() << "the 3.3 path has no such index";
    }
    gpu.setVolume(volume);
    gpu::OffscreenTarget target(32, 32);
    target.bind();
    gpu->extract(StoredValue(255.5f)); // nothing crosses: no block is active
    gpu->draw({});
    {
        const AddressSpaceLimit limit(8 * kMiB);
        EXPECT_TRUE(limit.set()) << "setrlimit(RLIMIT_AS) failed";
        EXPECT_NO_THROW(gpu->extract(StoredValue(127.5f)));
        EXPECT_EQ(gpu->pollVertexCount(), std::nullopt) << "no count of an earlier isovalue";
        EXPECT_NO_THROW(gpu->draw({}));
    }
    ASSERT_TRUE(gpu->meshError().has_value()) << "the frame says why nothing was drawn";
    EXPECT_NE(gpu->meshError()->find("the GPU ran out of memory allocating the isosurface mesh "
                                     "buffers' per-block index ("),
              std::string::npos)
        << *gpu->meshError();
    EXPECT_EQ(glGetError(), GLenum(GL_NO_ERROR)) << "the error was read, not left pending";

    // With the memory back, the counts and the capture run the passes the extract could not.
    const IsoMesh cpu = extractIsosurfaceCpu(volume, StoredValue(127.5f));
    EXPECT_EQ(cpu.triangleCount(), 8u * 16'000u);
    EXPECT_EQ(gpu->vertexCount(), 3 * cpu.triangleCount());
    expectSameMesh(gpu->capture(), cpu);
    // And the next extract draws.
    gpu->extract(StoredValue(127.5f));
    EXPECT_NO_THROW(gpu->draw({}));
    EXPECT_FALSE(gpu->meshError().has_value());
    expectSameMesh(gpu->capture(), cpu);
}

} // namespace
} // namespace isoview::test
