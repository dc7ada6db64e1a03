// Soak (issue 13): 2,000 isovalue changes on a 256^3 volume through the viewer's per-frame path
// (SceneRenderer::setScene, render, read back as the render thread does), a capture every
// 100 changes compared with the CPU reference marching cubes, and the process's GL objects and
// resident memory after change 100 and at the end, which shows change 100's isovalue again so
// that both are taken in the same state. A leak of one GL object per change, or of 4.4 kB per
// change, fails it; so does any capture that is not the reference's mesh.
//
// Its own executable and ctest entry (label "soak"): it runs for minutes on llvmpipe, which the
// per-test timeout of the GL suite is not meant for. Prints the figures for reports.
#include "extraction/cpu_marching_cubes.h"
#include "gpu/gl_objects.h"
#include "gpu/offscreen_target.h"
#include "gpu/scene_renderer.h"
#include "support/child_process.h"
#include "support/gl_test_context.h"
#include "support/mesh_compare.h"
#include "support/scene_fixtures.h"

#include <glm/gtc/matrix_transform.hpp>
#include <gtest/gtest.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

namespace isoview::test {
namespace {

constexpr std::uint32_t kSize = 256;
constexpr int kChanges = 2000;
constexpr int kCaptureEvery = 100;
// Resident memory may grow this much from change 100 to the end. What llvmpipe holds depends on
// the frames just drawn (its binned triangles stay until their scene slot is reused: the figures
// at the captures differ by up to 40 MiB), so the end shows change 100's isovalue again
// (isovalueOf), llvmpipe rasterizes on the calling thread (which slot a frame takes no longer
// depends on timing) and the CPU reference runs in a child. The same state then gives the same
// figure: measured on Debian 12 (Mesa 22.3 llvmpipe), equal to the kB. 8 MiB leaves room for
// other drivers and allocators, and still fails a leak of 4.4 kB per change.
constexpr double kRssSlackMiB = 8.0;

// The benchmarks' blob (make_blob.py of the shared HPMC anchor, anchors/hpmc): a sphere and a
// torus blended by a polynomial smooth minimum, with a weak ripple, as a signed distance d mapped
// to 255 * (0.5 - 0.5 tanh(6 d)); plus a deterministic hash noise of +-2 so that every isovalue
// crosses fine detail, not only smooth offset surfaces. uint8; 283,052 triangles at 127.5 (the
// blob alone has 250,428), 100,000 to 900,000 over the isovalues swept.
Volume blobWithNoise()
{
    const auto smin = [](double a, double b, double k) {
        const double h = std::clamp(0.5 + 0.5 * (b - a) / k, 0.0, 1.0);
        return b * (1.0 - h) + a * h - k * h * (1.0 - h);
    };
    const double pi = std::acos(-1.0);
    std::vector<double> c(kSize);
    for (std::uint32_t i = 0; i < kSize; ++i)
        c[i] = (i + 0.5) / kSize * 2.0 - 1.0;
    std::vector<std::byte> voxels(std::size_t(kSize) * kSize * kSize);
    std::size_t at = 0;
    for (std::uint32_t k = 0; k < kSize; ++k) {
        for (std::uint32_t j = 0; j < kSize; ++j) {
            for (std::uint32_t i = 0; i < kSize; ++i, ++at) {
                const double x = c[i], y = c[j], z = c[k];
                const double sphere =
                    std::sqrt((x + 0.40) * (x + 0.40) + y * y + (z - 0.05) * (z - 0.05)) - 0.48;
                const double q = std::sqrt((x - 0.26) * (x - 0.26) + y * y) - 0.48;
                const double torus = std::sqrt(q * q + (z + 0.05) * (z + 0.05)) - 0.17;
                const double ripple = 0.012 * std::sin(9.0 * pi * x) * std::sin(9.0 * pi * y) *
                                      std::sin(9.0 * pi * z);
                const double d = smin(sphere, torus, 0.17) + ripple;
                // splitmix-style hash of the index: the same noise on every platform
                std::uint64_t h = at * 0x9E3779B97F4A7C15ull;
                h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9ull;
                h = (h ^ (h >> 27)) * 0x94D049BB133111EBull;
                const int noise = int((h ^ (h >> 31)) % 5) - 2;
                const double v = 255.0 * (0.5 - 0.5 * std::tanh(6.0 * d)) + noise;
                voxels[at] = std::byte(std::clamp(int(std::lround(v)), 0, 255));
            }
        }
    }
    return Volume({kSize, kSize, kSize}, ScalarType::UInt8, std::move(voxels));
}

// Change n's isovalue: a sweep up over 20.5..234.5 in 60 changes and down in 35, repeated. The
// first 100 changes visit the whole range (every allocation the sweep needs is made by then);
// 1,900 is 20 periods, so the last change shows change 100's isovalue and memory is compared in
// the same state; the captures between (100, 200, ...: phases 5, 10, ..., 90, 0) land on 18
// other isovalues, all different because the two legs' slopes differ.
constexpr double isovalueOf(int change)
{
    constexpr int kPeriod = 95;
    constexpr int kUp = 60;
    const int phase = change % kPeriod;
    const double t = phase <= kUp ? double(phase) / kUp : double(kPeriod - phase) / (kPeriod - kUp);
    return 20.5 + 214.0 * t;
}
static_assert(isovalueOf(kChanges) == isovalueOf(kCaptureEvery));

// Resident memory in use. The allocator's free memory is handed back first (malloc_trim): what
// glibc keeps of the CPU reference's freed meshes (tens of MiB, more or less from one capture
// to the next) is not in use and would drown a leak.
double residentMiB()
{
#ifdef __GLIBC__
    malloc_trim(0);
#endif
    std::ifstream status("/proc/self/status");
    for (std::string line; std::getline(status, line);) {
        if (line.rfind("VmRSS:", 0) == 0) return std::stod(line.substr(6)) / 1024.0; // kB
    }
    ADD_FAILURE() << "no VmRSS in /proc/self/status";
    return 0.0;
}

// The CPU reference and the comparison run in a forked child (support/child_process.h): their
// hundreds of thousands of short-lived allocations would otherwise fragment this process's heap,
// whose resident size the soak compares, by tens of MiB depending on the isovalues before.
MeshComparison compareWithCpuReference(const IsoMesh& gpu, const Volume& volume, double iso)
{
    static_assert(std::is_trivially_copyable_v<MeshComparison>);
    const ChildResult child = runInChild([&](std::string& result) {
        const MeshComparison c =
            compareMeshes(gpu, extractIsosurfaceCpu(volume, StoredValue(float(iso))));
        result.assign(reinterpret_cast<const char*>(&c), sizeof c);
        return 0;
    });
    MeshComparison c;
    if (child.exited && child.exitCode == 0 && child.message.size() == sizeof c) {
        std::memcpy(&c, child.message.data(), sizeof c);
    } else {
        ADD_FAILURE() << "the CPU reference's child failed (exit " << child.exitCode << ", signal "
                      << child.signal << "): " << child.message;
    }
    return c;
}

// Captures the surface on screen and expects the CPU reference's mesh at the same isovalue;
// returns its triangle count.
std::size_t expectCaptureIsTheCpuReference(gpu::SceneRenderer& renderer, const Scene& scene,
                                           const Volume& volume, double iso, int change)
{
    const IsoMesh gpu = captureLive(renderer, scene);
    const MeshComparison c = compareWithCpuReference(gpu, volume, iso);
    SCOPED_TRACE("change " + std::to_string(change) + ", isovalue " + std::to_string(iso) + ": " +
                 c.describe());
    EXPECT_GT(c.trianglesB, 50'000u) << "the surface should have real detail";
    EXPECT_EQ(c.trianglesA, c.trianglesB);
    EXPECT_EQ(c.verticesA, c.verticesB);
    EXPECT_EQ(renderer.vertexCount(), 3 * c.trianglesB);
    EXPECT_EQ(c.unmatchedTriangles, 0u);
    EXPECT_EQ(c.unmatchedVertices, 0u);
    EXPECT_EQ(c.nonFinitePositions, 0u);
    EXPECT_LE(c.maxPositionDistance, 1e-3);
    std::printf("soak: change %4d isovalue %6.2f triangles %7zu welded vertices %7zu, as the CPU's "
                "(max distance %.2g voxels)\n",
                change, iso, gpu.triangleCount(), gpu.vertexCount(), c.maxPositionDistance);
    return c.trianglesB;
}

TEST(Soak, TwoThousandIsovalueChangesOn256CubedLeakNothingAndMatchTheCpu)
{
    // Before the context exists: llvmpipe reads it when it starts (other drivers ignore it).
    // With rasterizer threads, llvmpipe's resident memory wanders by tens of MiB with timing.
    ::setenv("LP_NUM_THREADS", "0", 1);
    ASSERT_NO_THROW(glContext());
    const Volume volume = blobWithNoise();

    gpu::SceneRenderer renderer;
    renderer.setVolume(volume);
    Scene scene = oneSurfaceScene(isovalueOf(1));
    const glm::ivec2 size(512, 512);
    gpu::OffscreenTarget target(size.x, size.y);
    gpu::FrameParams params;
    const glm::vec3 centre(kSize / 2.0f);
    params.view = glm::lookAt(centre + glm::vec3(200.0f, -260.0f, 180.0f), centre, {0, 0, 1});
    params.projection = glm::perspective(0.8f, 1.0f, 1.0f, 1200.0f);
    params.viewportSize = size;
    params.targetFramebuffer = target.framebuffer();

    std::vector<double> frameMs;
    frameMs.reserve(kChanges);
    std::set<std::size_t> capturedTriangles;
    std::size_t trianglesAt100 = 0;
    std::size_t trianglesAtEnd = 0;
    gpu::GlObjectCounts glAfter100;
    double rssAfter100 = 0.0;
    const auto start = std::chrono::steady_clock::now();
    for (int change = 1; change <= kChanges; ++change) {
        const double iso = isovalueOf(change);
        const auto before = std::chrono::steady_clock::now();
        showIsovalue(renderer, scene, iso);
        renderer.render(params);
        target.readPixels(); // waits for the frame, as the viewer's render thread does
        frameMs.push_back(
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - before)
                .count());
        ASSERT_EQ(renderer.renderedIsovalue(), iso) << "change " << change;
        if (change % kCaptureEvery != 0) continue;

        // The meshes are gone before memory is measured: they grow with the surface.
        const std::size_t triangles =
            expectCaptureIsTheCpuReference(renderer, scene, volume, iso, change);
        capturedTriangles.insert(triangles);
        if (change == kCaptureEvery) trianglesAt100 = triangles;
        trianglesAtEnd = triangles;
        const double rss = residentMiB();
        std::printf("soak: change %4d resident %.1f MiB\n", change, rss);
        std::fflush(stdout); // shown as it goes, even if the run is cut short
        if (change == kCaptureEvery) {
            glAfter100 = gpu::liveGlObjects();
            rssAfter100 = rss;
        }
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const gpu::GlObjectCounts glAtEnd = gpu::liveGlObjects();
    const double rssAtEnd = residentMiB();

    std::vector<double> sorted = frameMs;
    std::nth_element(sorted.begin(), sorted.begin() + sorted.size() / 2, sorted.end());
    const double medianMs = sorted[sorted.size() / 2];
    std::printf("soak: %d changes of %ux%ux%u in %.1f s, median %.1f ms per change\n", kChanges,
                kSize, kSize, kSize, seconds, medianMs);
    std::printf("soak: resident after change %d %.1f MiB, at the end %.1f MiB, growth %+.1f MiB "
                "(slack %.0f MiB)\n",
                kCaptureEvery, rssAfter100, rssAtEnd, rssAtEnd - rssAfter100, kRssSlackMiB);
    std::printf("soak: GL objects after change %d: %s\n", kCaptureEvery,
                glAfter100.describe().c_str());
    std::printf("soak: GL objects at the end:      %s\n", glAtEnd.describe().c_str());
    std::fflush(stdout);

    EXPECT_EQ(glAtEnd, glAfter100)
        << "after 100: " << glAfter100.describe() << "\nat the end: " << glAtEnd.describe();
    EXPECT_LE(rssAtEnd - rssAfter100, kRssSlackMiB);
    EXPECT_EQ(trianglesAtEnd, trianglesAt100) << "the same isovalue gives the same surface";
    EXPECT_EQ(capturedTriangles.size(), std::size_t(kChanges / kCaptureEvery - 1))
        << "every other capture should be of a different surface";
}

} // namespace
} // namespace isoview::test
