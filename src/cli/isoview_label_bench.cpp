// isoview-label-bench: how fast the GPU engine makes every label's surface of a label map,
// headless (EGL), through the facade the CLI uses (gpu/label_map_extractor.h).
//
//   isoview-label-bench [--runs N] [--gl33] [--json] LABELMAP
//
// Reports, in milliseconds (median, min, max over N runs):
//   extract_ms  one HistoPyramid build over every label at once, until the triangle count is
//               known (build() + triangleCount(): the GPU work, one read-back)
//   capture_ms  a build and its meshes on the CPU, one per label (download and split): what an
//               export of every label costs; the figure to compare with
//               vtkDiscreteFlyingEdges3D, which also hands over meshes
// and once: prepare_ms (the volume converted to uint16 labels), upload_ms (texture and
// pyramid), the labels with surfaces, triangles and welded vertices over all labels, GPU bytes
// and the process's peak resident memory. packaging/bench-labels-vs-vtk.sh runs it beside VTK.
#include "core/error.h"
#include "core/heap_reuse.h"
#include "core/log.h"
#include "gpu/headless_context.h"
#include "gpu/label_map_extractor.h"
#include "io/volume_loader.h"
#include "isoview_version.h"
#include "volume/label_volume.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <sys/resource.h>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;
using nlohmann::json;

constexpr std::string_view kUsage =
    "Usage: isoview-label-bench [--runs N] [--gl33] [--json] LABELMAP\n";

constexpr std::string_view kHelp =
    "\n"
    "Measures every label's surface of LABELMAP (any file the loaders open; whole numbers 0 ..\n"
    "65535, 0 the background) made in one GPU pass, headless (EGL): the extraction alone and\n"
    "with the meshes on the CPU, in milliseconds (median, min, max), the labels, triangles,\n"
    "GPU bytes and peak memory.\n"
    "\n"
    "Options:\n"
    "  --runs N      runs per figure (default 7)\n"
    "  --gl33        use only OpenGL 3.3 features (the engine's floor)\n"
    "  --json        print one JSON object instead of the table\n"
    "  -h, --help    show this help\n"
    "  --version     print the version\n";

double msSince(Clock::time_point t)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

json summary(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    const double median = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
    return {{"median", median}, {"min", v.front()}, {"max", v.back()}};
}

struct Arguments {
    int runs = 7;
    bool gl33 = false;
    bool json = false;
    std::string path;
};

std::optional<Arguments> parseArguments(int argc, char** argv, int& exitCode)
{
    Arguments args;
    for (int i = 1; i < argc; ++i) {
        const std::string_view a = argv[i];
        if (a == "--runs" && i + 1 < argc) {
            args.runs = std::max(1, std::atoi(argv[++i]));
        } else if (a == "--gl33") {
            args.gl33 = true;
        } else if (a == "--json") {
            args.json = true;
        } else if (a == "-h" || a == "--help") {
            std::printf("%s%s", kUsage.data(), kHelp.data());
            return std::nullopt;
        } else if (a == "--version") {
            std::printf("isoview-label-bench %s\n", isoview::kVersion);
            return std::nullopt;
        } else if (args.path.empty() && !a.starts_with("-")) {
            args.path = std::string(a);
        } else {
            std::fprintf(stderr, "isoview-label-bench: unexpected argument '%s'\n%s", argv[i],
                         kUsage.data());
            exitCode = 1;
            return std::nullopt;
        }
    }
    if (args.path.empty()) {
        std::fprintf(stderr, "%s", kUsage.data());
        exitCode = 1;
        return std::nullopt;
    }
    return args;
}

long peakResidentKiB()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss; // KiB on Linux
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
        gpu::HeadlessContext context;
        gpu::LabelMapExtractor extractor(gpu::LabelMapExtractor::Options{args->gl33});
        const Volume source = io::loadVolume(args->path);
        Clock::time_point t = Clock::now();
        const Volume labels = toLabelVolume(source);
        const double prepareMs = msSince(t);
        t = Clock::now();
        extractor.setLabelMap(labels);
        extractor.build();
        extractor.triangleCount(); // the first build compiles nothing new, but waits for upload
        const double uploadMs = msSince(t);

        std::vector<double> extractMs;
        std::uint32_t triangles = 0;
        for (int run = 0; run < args->runs; ++run) {
            t = Clock::now();
            extractor.build();
            triangles = extractor.triangleCount();
            extractMs.push_back(msSince(t));
        }
        std::vector<double> captureMs;
        std::vector<LabelSurface> surfaces;
        for (int run = 0; run < args->runs; ++run) {
            t = Clock::now();
            extractor.build();
            surfaces = extractor.capture();
            captureMs.push_back(msSince(t));
        }
        std::size_t welded = 0;
        for (const LabelSurface& s : surfaces)
            welded += s.mesh.vertexCount();
        const gpu::GpuMemoryUse memory = extractor.memoryUse();
        const glm::uvec3 d = labels.dims();
        const json report = {
            {"renderer", extractor.capabilities().summary()},
            {"platform", context.platformDescription()},
            {"volume", args->path},
            {"dims", {d.x, d.y, d.z}},
            {"gl33", args->gl33},
            {"runs", args->runs},
            {"prepare_ms", prepareMs},
            {"upload_ms", uploadMs},
            {"extract_ms", summary(extractMs)},
            {"capture_ms", summary(captureMs)},
            {"labels", surfaces.size()},
            {"triangles", triangles},
            {"welded_vertices", welded},
            {"gpu_bytes", memory.volumeTextureBytes + memory.pyramidBytes + memory.meshBytes},
            {"peak_rss_mib", double(peakResidentKiB()) / 1024.0}};
        if (args->json) {
            std::printf("%s\n", report.dump(2).c_str());
        } else {
            std::printf("renderer: %s (%s)\n", report["renderer"].get<std::string>().c_str(),
                        report["platform"].get<std::string>().c_str());
            std::printf("%s: %ux%ux%u, %zu labels with surfaces, %u triangles, %zu welded "
                        "vertices\n",
                        args->path.c_str(), d.x, d.y, d.z, surfaces.size(), triangles, welded);
            for (const char* key : {"extract_ms", "capture_ms"}) {
                std::printf("  %-11s median %9.2f  min %9.2f  max %9.2f\n", key,
                            report[key]["median"].get<double>(), report[key]["min"].get<double>(),
                            report[key]["max"].get<double>());
            }
            std::printf("  prepare %.1f ms, upload %.1f ms, GPU %.1f MiB, peak memory %.0f MiB\n",
                        prepareMs, uploadMs,
                        double(report["gpu_bytes"].get<std::size_t>()) / (1024.0 * 1024.0),
                        report["peak_rss_mib"].get<double>());
        }
        return 0;
    } catch (const Error& e) {
        std::fprintf(stderr, "isoview-label-bench: %s\n", e.what());
        return 2;
    }
}
