// isoview-bench: speed and memory figures of the GPU engine, headless (EGL), through the same
// SceneRenderer the window uses.
//
//   isoview-bench [--runs N] [--size WxH] [--gl33] [--json] [--json-file F] VOLUME ISO [...]
//
// For each volume (any path the loaders open, or blob:N[:uint16], the synthetic volume of
// bench_blob.h made in memory; ISO in real units) it sweeps N isovalues over
// ISO +- 10% (1% of the value range around 0), as a slider drag visits them, and reports the
// median, minimum and maximum of:
//   build_ms   HistoPyramid rebuild for a new isovalue, until its vertex count is known
//              (extractSurface() + vertexCount(): the GPU work per isovalue, one read-back)
//   render_ms  a frame of the surface already built (vertex-shader extraction, shading at
//              WxH, background, blit) + glFinish: what a camera move costs
//   frame_ms   a frame for a new isovalue (rebuild + render) + glFinish: what one frame of a
//              slider drag costs; the figure to compare with HPMC's frame
//   capture_ms transform-feedback capture, download and weld of the whole mesh (export path)
//   fps        drag: N new-isovalue frames back to back, one glFinish at the end (a render
//              loop's throughput), drawn as the window draws them (on a GPU, without waiting
//              for the surface's counts: FrameParams::liveSurfaceWithoutCountWait); static: the
//              same without isovalue changes; drag-waiting: the drag with every frame waiting
//              for its counts (the same as drag on a software rasteriser, which has them)
//   cpu_ms     those drag frames' CPU time in extractSurface() and render() (submission only,
//              unless the driver waits)
//   gpu_extract, gpu_surface  GPU timer queries around the new-isovalue frames' pyramid build
//              and surface drawing: GPU time, including any wait there for the CPU's commands
//              (the active-block list is made inside the pyramid bracket)
// and the triangles at ISO, marching-cubes cells classified per second (cells / build), and the
// GPU bytes per voxel of the volume texture and the pyramid. Times are wall clock around
// glFinish-bounded work, so they include driver overhead. --json prints one JSON object instead
// of the table (packaging/bench-side-by-side.sh reads it).
#include "bench_blob.h"
#include "core/atomic_file.h"
#include "core/error.h"
#include "core/heap_reuse.h"
#include "core/log.h"
#include "gpu/headless_context.h"
#include "gpu/offscreen_target.h"
#include "gpu/scene_renderer.h"
#include "io/volume_loader.h"
#include "isoview_version.h"

#include <glm/gtc/matrix_transform.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;
using nlohmann::json;

constexpr std::string_view kUsage = "Usage: isoview-bench [options] VOLUME ISO [VOLUME ISO ...]\n";

constexpr std::string_view kHelp =
    "\n"
    "Measures the GPU engine headless (EGL) on each VOLUME (any file or folder the loaders open)\n"
    "for isovalues swept over ISO +- 10% (ISO in the volume's real units): the HistoPyramid\n"
    "build, a frame, a frame for a new isovalue and the mesh capture, in milliseconds (median,\n"
    "min, max), the triangles at ISO, cells classified per second and GPU bytes per voxel;\n"
    "for volumes of 2M voxels or more also a new isovalue's frame drawn from the half-\n"
    "resolution surface the viewer shows while an isovalue is dragged (preview_ms).\n"
    "VOLUME may also be blob:N or blob:N:uint16, the synthetic N^3 blob made in memory (its\n"
    "surface at 127.5, or 32767.5 for uint16; blob:256 is the HPMC side-by-side's volume).\n"
    "\n"
    "Options:\n"
    "  --runs N      distinct isovalues per figure (default 20)\n"
    "  --size WxH    frame size of the rendering figures (default 1280x720)\n"
    "  --gl33        use only OpenGL 3.3 features (the engine's floor)\n"
    "  --json        print one JSON object instead of the table\n"
    "  --json-file F also write that JSON object to the file F\n"
    "  -h, --help    show this help\n"
    "  --version     print the version\n";

double msSince(Clock::time_point t)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

struct Summary {
    double median = 0.0;
    double min = 0.0;
    double max = 0.0;
};

Summary summarize(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    const double median = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
    return {median, v.front(), v.back()};
}

json toJson(const Summary& s)
{
    return {{"median", s.median}, {"min", s.min}, {"max", s.max}};
}

void print(const char* name, const Summary& s)
{
    std::printf("  %-11s median %9.3f  min %9.3f  max %9.3f\n", name, s.median, s.min, s.max);
}

struct Arguments {
    int runs = 20;
    glm::ivec2 size{1280, 720};
    bool gl33 = false;
    bool json = false;
    std::string jsonFile;
    std::vector<std::pair<std::string, double>> jobs;
};

// Returns nullopt after printing the problem (or the help, or the version) when there is nothing
// to measure; exitCode says which.
std::optional<Arguments> parseArguments(int argc, char** argv, int& exitCode)
{
    Arguments args;
    exitCode = 1;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--runs" && i + 1 < argc) {
            args.runs = std::max(1, std::atoi(argv[++i]));
        } else if (a == "--size" && i + 1 < argc) {
            int w = 0;
            int h = 0;
            if (std::sscanf(argv[++i], "%dx%d", &w, &h) != 2 || w < 1 || h < 1 || w > 16384 ||
                h > 16384) {
                std::fprintf(stderr, "isoview-bench: --size expects WxH, got '%s'\n", argv[i]);
                return std::nullopt;
            }
            args.size = {w, h};
        } else if (a == "--gl33") {
            args.gl33 = true;
        } else if (a == "--json") {
            args.json = true;
        } else if (a == "--json-file" && i + 1 < argc) {
            args.jsonFile = argv[++i];
        } else if (a == "-h" || a == "--help") {
            std::printf("%s%s", kUsage.data(), kHelp.data());
            exitCode = 0;
            return std::nullopt;
        } else if (a == "--version") {
            std::printf("isoview-bench %s\n", isoview::kVersion);
            exitCode = 0;
            return std::nullopt;
        } else if (i + 1 < argc) {
            char* end = nullptr;
            const double iso = std::strtod(argv[i + 1], &end);
            if (end == argv[i + 1] || *end != '\0' || !std::isfinite(iso)) {
                std::fprintf(stderr, "isoview-bench: ISO must be a number, got '%s'\n",
                             argv[i + 1]);
                return std::nullopt;
            }
            args.jobs.emplace_back(a, iso);
            ++i;
        } else {
            std::fputs(kUsage.data(), stderr);
            return std::nullopt;
        }
    }
    if (args.jobs.empty()) {
        std::fputs(kUsage.data(), stderr);
        return std::nullopt;
    }
    return args;
}

// A camera that frames the whole volume, so that every triangle is rasterised.
isoview::gpu::FrameParams framing(const isoview::Volume& volume,
                                  const isoview::gpu::OffscreenTarget& target)
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
        glm::perspective(glm::radians(45.0f), float(target.width()) / float(target.height()),
                         0.1f * radius, 10.0f * radius);
    isoview::gpu::FrameParams params;
    params.view = view;
    params.projection = projection;
    params.viewportSize = {target.width(), target.height()};
    params.targetFramebuffer = target.framebuffer();
    return params;
}

struct VolumeFigures {
    std::string path;
    glm::uvec3 dims{0};
    std::string type;
    double iso = 0.0;
    std::uint32_t triangles = 0;
    std::uint64_t cells = 0;
    double loadMs = 0.0;
    Summary build, render, frame, capture;
    // GPU timer queries of the new-isovalue frames: pyramid build, surface drawing (with any
    // wait for the CPU inside them); empty where the driver has no timer queries.
    std::optional<Summary> gpuExtract, gpuSurface;
    // Frames per second of `runs` frames issued back to back as a render loop does, one glFinish
    // at the end: with a new isovalue each (a drag) and with none (the camera alone).
    double dragFps = 0.0;
    double staticFps = 0.0;
    double dragWaitingFps = 0.0;
    // The CPU time of those drag frames' calls (no glFinish in between): extractSurface (the
    // active blocks and the passes' submission) and render (the rest of the frame's commands).
    Summary cpuExtract, cpuRender;
    // A drag's frame drawn from the half-resolution preview (FrameParams::previewLiveSurface)
    // and its triangles at ISO; none for volumes that get no preview.
    std::optional<Summary> previewFrame;
    std::uint32_t previewTriangles = 0;
    double previewFirstMs = 0.0; // the first, which makes the preview (halves and uploads)
    isoview::gpu::GpuMemoryUse memory;
};

VolumeFigures measure(isoview::gpu::SceneRenderer& renderer,
                      const isoview::gpu::OffscreenTarget& target, const std::string& path,
                      double iso, int runs)
{
    using namespace isoview;
    VolumeFigures f;
    f.path = path;
    f.iso = iso;
    const auto loadStart = Clock::now();
    const std::optional<bench::BlobSpec> blob = bench::parseBlobSpec(path);
    // Shared: the scene names it, as the viewer's does (the preview is made from it).
    const auto shared =
        std::make_shared<const Volume>(blob ? bench::makeBlob(*blob) : io::loadVolume(path));
    const Volume& volume = *shared;
    f.loadMs = msSince(loadStart);
    f.dims = volume.dims();
    f.type = std::string(scalarTypeName(volume.type()));
    f.cells = std::uint64_t(std::max(f.dims.x, 1u) - 1) * (std::max(f.dims.y, 1u) - 1) *
              (std::max(f.dims.z, 1u) - 1);
    // Nearby isovalues, as a slider drag visits them: +-10% around ISO (1% of the value range
    // around 0). Frames take values half a step off the builds', so each frame rebuilds the
    // pyramid as a drag does.
    const ValueRange real = volume.realRange();
    const double range = real.max - real.min;
    const double spread = iso != 0.0 ? 0.1 * std::abs(iso) : 0.01 * range;
    const double step = runs > 1 ? 2.0 * spread / (runs - 1) : 0.01 * spread;
    renderer.setVolume(volume);
    const gpu::FrameParams params = framing(volume, target);
    // One surface, surfaces only, no orientation marker: every triangle rasterised, nothing else.
    Scene scene = Scene::withSurface(shared, iso);
    scene.orientationMarker = false;
    const auto show = [&](double isovalue) {
        scene.setLiveIsovalue(isovalue);
        renderer.setScene(scene);
    };

    // Warm-up: first use compiles and pages in driver state.
    show(iso);
    renderer.render(params);
    renderer.vertexCount();
    std::vector<double> build, render, frame, capture, gpuExtract, gpuSurface;
    for (int r = 0; r < runs; ++r) {
        const double value = iso - (runs > 1 ? spread : 0.0) + r * step;
        auto t = Clock::now();
        show(value);
        renderer.extractSurface();
        renderer.vertexCount();
        build.push_back(msSince(t));

        t = Clock::now();
        renderer.render(params);
        gpu::finishGpuWork();
        render.push_back(msSince(t));

        t = Clock::now();
        show(value + 0.5 * step);
        renderer.render(params);
        gpu::finishGpuWork();
        frame.push_back(msSince(t));
        const FrameGpuTimes gpuTimes = renderer.lastGpuTimes(); // this frame's, after glFinish
        if (gpuTimes.extractMs) gpuExtract.push_back(*gpuTimes.extractMs);
        if (gpuTimes.surfaceMs) gpuSurface.push_back(*gpuTimes.surfaceMs);

        t = Clock::now();
        const IsoMesh mesh = renderer.capture(scene.surfaces.selected().id).mesh;
        capture.push_back(msSince(t));
    }
    std::vector<double> cpuExtract, cpuRender;
    gpu::FrameParams dragParams = params;
    dragParams.liveSurfaceWithoutCountWait = true;
    auto t = Clock::now();
    for (int r = 0; r < runs; ++r) {
        show(iso - (runs > 1 ? spread : 0.0) + (r + 0.25) * step);
        const auto extractStart = Clock::now();
        renderer.extractSurface();
        const auto renderStart = Clock::now();
        renderer.render(dragParams);
        cpuRender.push_back(msSince(renderStart));
        cpuExtract.push_back(
            std::chrono::duration<double, std::milli>(renderStart - extractStart).count());
    }
    gpu::finishGpuWork();
    f.dragFps = runs / (msSince(t) / 1000.0);
    f.cpuExtract = summarize(cpuExtract);
    f.cpuRender = summarize(cpuRender);
    t = Clock::now();
    for (int r = 0; r < runs; ++r)
        renderer.render(params);
    gpu::finishGpuWork();
    f.staticFps = runs / (msSince(t) / 1000.0);
    t = Clock::now();
    for (int r = 0; r < runs; ++r) {
        show(iso - (runs > 1 ? spread : 0.0) + (r + 0.5) * step);
        renderer.render(params);
    }
    gpu::finishGpuWork();
    f.dragWaitingFps = runs / (msSince(t) / 1000.0);

    show(iso);
    renderer.extractSurface();
    f.triangles = renderer.vertexCount() / 3;
    f.memory = renderer.memoryUse(); // before the preview's

    // The same drag's frames from the half-resolution preview (the first one makes it).
    gpu::FrameParams previewParams = params;
    previewParams.previewLiveSurface = true;
    t = Clock::now();
    renderer.render(previewParams);
    gpu::finishGpuWork();
    f.previewFirstMs = msSince(t);
    if (renderer.livePreviewShown()) {
        f.previewTriangles = renderer.vertexCount() / 3;
        std::vector<double> previewFrame;
        for (int r = 0; r < runs; ++r) {
            t = Clock::now();
            show(iso - (runs > 1 ? spread : 0.0) + (r + 0.75) * step);
            renderer.render(previewParams);
            gpu::finishGpuWork();
            previewFrame.push_back(msSince(t));
        }
        f.previewFrame = summarize(previewFrame);
    }
    f.build = summarize(build);
    f.render = summarize(render);
    f.frame = summarize(frame);
    f.capture = summarize(capture);
    if (!gpuExtract.empty()) f.gpuExtract = summarize(gpuExtract);
    if (!gpuSurface.empty()) f.gpuSurface = summarize(gpuSurface);
    return f;
}

double bytesPerVoxel(std::size_t bytes, std::uint64_t voxels)
{
    return voxels ? double(bytes) / double(voxels) : 0.0;
}

void printTable(const VolumeFigures& f)
{
    std::printf("\n%s (%ux%ux%u %s) at iso %g\n", f.path.c_str(), f.dims.x, f.dims.y, f.dims.z,
                f.type.c_str(), f.iso);
    std::printf("  triangles   %u\n", f.triangles);
    std::printf("  load_ms     %.1f (once)\n", f.loadMs);
    print("build_ms", f.build);
    print("render_ms", f.render);
    print("frame_ms", f.frame);
    print("capture_ms", f.capture);
    if (f.gpuExtract) print("gpu_extract", *f.gpuExtract);
    if (f.gpuSurface) print("gpu_surface", *f.gpuSurface);
    if (f.previewFrame) {
        print("preview_ms", *f.previewFrame);
        std::printf("  preview     a drag's frame at half resolution, %u triangles at iso; the "
                    "first %.1f ms (makes it)\n",
                    f.previewTriangles, f.previewFirstMs);
    }
    std::printf("  fps         drag %.1f  static %.1f  drag-waiting %.1f (frames back to back, one "
                "glFinish)\n",
                f.dragFps, f.staticFps, f.dragWaitingFps);
    std::printf("  cpu_ms      drag frame: extract %.3f  render %.3f (medians of the calls)\n",
                f.cpuExtract.median, f.cpuRender.median);
    std::printf("  cells_per_s %.3g (cells / median build)\n",
                double(f.cells) / (f.build.median / 1000.0));
    std::printf("  gpu_bytes   volume %zu + pyramid %zu = %.2f bytes per voxel "
                "(pyramid %.2f per voxel)\n",
                f.memory.volumeTextureBytes, f.memory.pyramidBytes,
                bytesPerVoxel(f.memory.volumeTextureBytes + f.memory.pyramidBytes, f.memory.voxels),
                bytesPerVoxel(f.memory.pyramidBytes, f.memory.voxels));
}

json toJson(const VolumeFigures& f)
{
    return {{"path", f.path},
            {"dims", {f.dims.x, f.dims.y, f.dims.z}},
            {"type", f.type},
            {"iso", f.iso},
            {"triangles", f.triangles},
            {"cells", f.cells},
            {"load_ms", f.loadMs},
            {"build_ms", toJson(f.build)},
            {"render_ms", toJson(f.render)},
            {"frame_ms", toJson(f.frame)},
            {"capture_ms", toJson(f.capture)},
            {"gpu_extract_ms", f.gpuExtract ? toJson(*f.gpuExtract) : json(nullptr)},
            {"gpu_surface_ms", f.gpuSurface ? toJson(*f.gpuSurface) : json(nullptr)},
            {"preview_frame_ms", f.previewFrame ? toJson(*f.previewFrame) : json(nullptr)},
            {"preview_triangles", f.previewTriangles},
            {"preview_first_ms", f.previewFrame ? json(f.previewFirstMs) : json(nullptr)},
            {"drag_fps", f.dragFps},
            {"cpu_extract_ms", toJson(f.cpuExtract)},
            {"cpu_render_ms", toJson(f.cpuRender)},
            {"static_fps", f.staticFps},
            {"drag_waiting_fps", f.dragWaitingFps},
            {"cells_per_s", double(f.cells) / (f.build.median / 1000.0)},
            {"volume_bytes", f.memory.volumeTextureBytes},
            {"pyramid_bytes", f.memory.pyramidBytes},
            {"bytes_per_voxel",
             bytesPerVoxel(f.memory.volumeTextureBytes + f.memory.pyramidBytes, f.memory.voxels)},
            {"pyramid_bytes_per_voxel", bytesPerVoxel(f.memory.pyramidBytes, f.memory.voxels)}};
}

} // namespace

int main(int argc, char** argv)
{
    isoview::keepFreedHeapForReuse(); // as the viewer does (core/heap_reuse.h)
    using namespace isoview;
    int exitCode = 0;
    const std::optional<Arguments> args = parseArguments(argc, argv, exitCode);
    if (!args) return exitCode;
    log::setLevel(spdlog::level::err);
    try {
        if (!args->jsonFile.empty()) requireReplaceableDestination(args->jsonFile); // before work
        gpu::HeadlessContext context;
        gpu::SceneRenderer renderer(gpu::SceneRenderer::Options{args->gl33});
        gpu::OffscreenTarget target(args->size.x, args->size.y);
        json report = {{"renderer", renderer.capabilities().summary()},
                       {"platform", context.platformDescription()},
                       {"size", {args->size.x, args->size.y}},
                       {"runs", args->runs},
                       {"gl33", args->gl33},
                       {"volumes", json::array()}};
        if (!args->json) {
            std::printf("renderer: %s (%s)\n", renderer.capabilities().summary().c_str(),
                        context.platformDescription().c_str());
            std::printf("runs per figure: %d (distinct isovalues), frames %dx%d, times in ms\n",
                        args->runs, args->size.x, args->size.y);
        }
        for (const auto& [path, iso] : args->jobs) {
            const VolumeFigures figures = measure(renderer, target, path, iso, args->runs);
            report["volumes"].push_back(toJson(figures));
            if (!args->json) printTable(figures);
        }
        if (args->json) std::printf("%s\n", report.dump(2).c_str());
        if (!args->jsonFile.empty()) {
            // As every output of isoview's: complete or not at all, never over a FIFO or input.
            const std::string text = report.dump(2) + '\n';
            writeFileAtomically(args->jsonFile, std::as_bytes(std::span(text)));
        }
        return 0;
    } catch (const Error& e) {
        std::fprintf(stderr, "isoview-bench: %s\n", e.what());
        return 2;
    }
}
