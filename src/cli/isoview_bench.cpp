// isoview-bench: speed and memory figures of the GPU engine, headless.
//
//   isoview-bench [--runs N] [--gl33] VOLUME ISO [VOLUME ISO ...]
//
// For each volume (any path the loaders open; ISO in real units) it sweeps N isovalues over
// ISO +- 10% (1% of the value range around 0), as a slider drag visits them, and prints the
// median, minimum and maximum of:
//   build_ms   HistoPyramid rebuild for a new isovalue, until its vertex count is known
//              (extractSurface() + vertexCount(): the GPU work per isovalue, and one read-back)
//   frame_ms   one SceneRenderer frame for a new isovalue (rebuild, background, surface, blit)
//              into a 1024x768 offscreen framebuffer + glFinish: what one frame of a slider
//              drag costs
//   capture_ms transform-feedback capture, download and weld of the whole mesh (export path)
// and the triangles at ISO and the GPU bytes per voxel of the volume texture and the pyramid.
// Times are wall clock around glFinish-bounded work, so they include driver overhead.
#include "core/error.h"
#include "core/log.h"
#include "gpu/headless_context.h"
#include "gpu/offscreen_target.h"
#include "gpu/scene_renderer.h"
#include "io/volume_loader.h"

#include <glm/gtc/matrix_transform.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point t)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

struct Summary {
    double median, min, max;
};

Summary summarize(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    const double median = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
    return {median, v.front(), v.back()};
}

void print(const char* name, const Summary& s)
{
    std::printf("  %-11s median %9.3f  min %9.3f  max %9.3f\n", name, s.median, s.min, s.max);
}

constexpr int kWidth = 1024;
constexpr int kHeight = 768;

// A camera that frames the whole volume, so that every triangle is rasterised.
isoview::gl::SceneParams framing(const isoview::Volume& volume,
                                 const isoview::gl::OffscreenTarget& target)
{
    const glm::dmat4 indexToPhysical = volume.geometry().indexToPhysical();
    const glm::dvec3 far =
        glm::dvec3(indexToPhysical * glm::dvec4(glm::dvec3(volume.dims()) - 1.0, 1.0));
    const glm::dvec3 near = glm::dvec3(indexToPhysical[3]);
    const glm::vec3 centre(0.5 * (near + far));
    const float radius = float(0.5 * glm::length(far - near));
    const glm::mat4 view = glm::lookAt(centre + glm::vec3(0.0f, -2.5f * radius, 0.0f), centre,
                                       glm::vec3(0.0f, 0.0f, 1.0f));
    const glm::mat4 projection =
        glm::perspective(glm::radians(45.0f), float(kWidth) / float(kHeight), 0.1f * radius,
                         10.0f * radius);
    isoview::gl::SceneParams params;
    params.view = view;
    params.projection = projection;
    params.viewportSize = {target.width(), target.height()};
    params.targetFramebuffer = target.framebuffer();
    params.mode = isoview::gl::RenderMode::Surface;
    params.orientationMarker = false;
    return params;
}

} // namespace

int main(int argc, char** argv)
{
    using namespace isoview;
    int runs = 20;
    bool gl33 = false;
    std::vector<std::pair<std::string, double>> jobs;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--runs" && i + 1 < argc) {
            runs = std::max(1, std::atoi(argv[++i]));
        } else if (a == "--gl33") {
            gl33 = true;
        } else if (i + 1 < argc) {
            jobs.emplace_back(a, std::atof(argv[++i]));
        } else {
            std::fprintf(stderr, "usage: isoview-bench [--runs N] [--gl33] VOLUME ISO [...]\n");
            return 1;
        }
    }
    if (jobs.empty()) {
        std::fprintf(stderr, "usage: isoview-bench [--runs N] [--gl33] VOLUME ISO [...]\n");
        return 1;
    }

    try {
        gl::HeadlessContext context;
        gl::SceneRenderer scene(gl::SceneRenderer::Options{gl33});
        gl::OffscreenTarget target(kWidth, kHeight);
        std::printf("renderer: %s (%s)\n", scene.capabilities().summary().c_str(),
                    context.platformDescription().c_str());
        std::printf("runs per figure: %d (distinct isovalues), times in ms\n", runs);

        for (const auto& [path, iso] : jobs) {
            const auto loadStart = Clock::now();
            const Volume volume = io::loadVolume(path);
            const double loadMs = msSince(loadStart);
            // Nearby isovalues, as a slider drag visits them: +-10% around ISO (1% of the value
            // range around 0). Frames take values half a step off the builds', so each frame
            // rebuilds the pyramid as a drag does.
            const ValueRange stored = volume.storedRange();
            const double range = volume.rescale().toReal(stored.max) -
                                 volume.rescale().toReal(stored.min);
            const double spread = iso != 0.0 ? 0.1 * std::abs(iso) : 0.01 * range;
            const double step = runs > 1 ? 2.0 * spread / (runs - 1) : 0.01 * spread;
            scene.setVolume(volume);
            const gl::SceneParams params = framing(volume, target);

            // Warm-up: first use compiles and pages in driver state.
            scene.setIsovalue(iso);
            scene.render(params);
            scene.vertexCount();
            std::vector<double> build, frame, capture;
            for (int r = 0; r < runs; ++r) {
                const double value = iso - (runs > 1 ? spread : 0.0) + r * step;
                auto t = Clock::now();
                scene.setIsovalue(value);
                scene.extractSurface();
                scene.vertexCount();
                build.push_back(msSince(t));

                t = Clock::now();
                scene.setIsovalue(value + 0.5 * step);
                scene.render(params);
                gl::finishGpuWork();
                frame.push_back(msSince(t));

                t = Clock::now();
                const IsoMesh mesh = scene.capture();
                capture.push_back(msSince(t));
            }
            scene.setIsovalue(iso);
            scene.extractSurface();
            const std::uint32_t vertices = scene.vertexCount();
            const gl::GpuMemoryUse memory = scene.memoryUse();
            const glm::uvec3 d = volume.dims();
            std::printf("\n%s (%ux%ux%u %s) at iso %g\n", path.c_str(), d.x, d.y, d.z,
                        std::string(scalarTypeName(volume.type())).c_str(), iso);
            std::printf("  triangles   %u\n", vertices / 3);
            std::printf("  load_ms     %.1f (once)\n", loadMs);
            print("build_ms", summarize(build));
            print("frame_ms", summarize(frame));
            print("capture_ms", summarize(capture));
            std::printf("  gpu_bytes   volume %zu + pyramid %zu = %.2f bytes per voxel "
                        "(pyramid %.2f per voxel)\n",
                        memory.volumeTextureBytes, memory.pyramidBytes,
                        double(memory.volumeTextureBytes + memory.pyramidBytes) /
                            double(memory.voxels),
                        double(memory.pyramidBytes) / double(memory.voxels));
        }
        return 0;
    } catch (const Error& e) {
        std::fprintf(stderr, "isoview-bench: %s\n", e.what());
        return 2;
    }
}
