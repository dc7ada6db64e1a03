// isoview-cli: extracts an isosurface headless (EGL, no display server) with the same GPU engine
// as the viewer, and writes it as PLY.
//
//   isoview-cli VOLUME --iso VALUE -o mesh.ply [--spacing X Y Z] [--voxel-space] [--ascii]
//               [--gl33] [--verbose]
//
// VOLUME is a raw file named name_XxYxZ_type.raw. VALUE is in the volume's real units.
// Prints the renderer, the counts and the timings; exit status 0 on success, 1 on bad usage,
// 2 when loading, extraction or writing fails (with the reason on stderr).
#include "engine/error.h"
#include "engine/gl/headless_context.h"
#include "engine/gl/isosurface_extractor.h"
#include "engine/gl/offscreen_target.h"
#include "engine/log.h"
#include "engine/ply_writer.h"
#include "io/raw_volume_reader.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>

namespace {

constexpr std::string_view kUsage =
    "usage: isoview-cli VOLUME --iso VALUE -o OUTPUT.ply [options]\n"
    "\n"
    "Extracts the isosurface of VOLUME at VALUE (in the volume's real units) on the GPU and\n"
    "writes it as binary PLY in physical millimetres. Runs without a display (EGL).\n"
    "VOLUME: a raw file named name_XxYxZ_type.raw (type: uint8 int8 uint16 int16 uint32 int32\n"
    "float32 float64; little-endian, X fastest).\n"
    "\n"
    "options:\n"
    "  --iso VALUE      isovalue in real units (required)\n"
    "  -o, --output F   PLY file to write (optional: without it only statistics are printed)\n"
    "  --spacing X Y Z  voxel spacing in mm (raw file names carry none; default 1 1 1)\n"
    "  --voxel-space    write voxel index coordinates instead of millimetres\n"
    "  --ascii          write ASCII PLY instead of binary\n"
    "  --gl33           use only OpenGL 3.3 features (the engine's floor)\n"
    "  --verbose        log engine details to stderr\n"
    "  -h, --help       show this help\n";

struct Arguments {
    std::string volumePath;
    std::optional<double> iso;
    std::string output;
    std::optional<glm::dvec3> spacing;
    bool voxelSpace = false;
    bool ascii = false;
    bool gl33 = false;
    bool verbose = false;
};

// Returns nullopt after printing the problem (or the help) when the arguments are unusable.
std::optional<Arguments> parseArguments(int argc, char** argv, int& exitCode)
{
    Arguments args;
    exitCode = 1;
    for (int i = 1; i < argc; ++i) {
        const std::string_view a = argv[i];
        auto value = [&](const char* name) -> std::optional<std::string> {
            if (i + 1 >= argc) {
                std::cerr << "isoview-cli: " << name << " needs a value\n";
                return std::nullopt;
            }
            return std::string(argv[++i]);
        };
        if (a == "-h" || a == "--help") {
            std::cout << kUsage;
            exitCode = 0;
            return std::nullopt;
        } else if (a == "--iso") {
            const auto v = value("--iso");
            if (!v) return std::nullopt;
            char* end = nullptr;
            const double iso = std::strtod(v->c_str(), &end);
            if (end == v->c_str() || *end != '\0') {
                std::cerr << "isoview-cli: --iso expects a number, got '" << *v << "'\n";
                return std::nullopt;
            }
            args.iso = iso;
        } else if (a == "-o" || a == "--output") {
            const auto v = value("-o");
            if (!v) return std::nullopt;
            args.output = *v;
        } else if (a == "--spacing") {
            glm::dvec3 spacing;
            for (int axis = 0; axis < 3; ++axis) {
                const auto v = value("--spacing");
                if (!v) return std::nullopt;
                char* end = nullptr;
                spacing[axis] = std::strtod(v->c_str(), &end);
                if (end == v->c_str() || *end != '\0' || !(spacing[axis] > 0.0) ||
                    !std::isfinite(spacing[axis])) {
                    std::cerr << "isoview-cli: --spacing expects three positive numbers, got '"
                              << *v << "'\n";
                    return std::nullopt;
                }
            }
            args.spacing = spacing;
        } else if (a == "--voxel-space") {
            args.voxelSpace = true;
        } else if (a == "--ascii") {
            args.ascii = true;
        } else if (a == "--gl33") {
            args.gl33 = true;
        } else if (a == "--verbose") {
            args.verbose = true;
        } else if (!a.empty() && a[0] == '-') {
            std::cerr << "isoview-cli: unknown option " << a << "\n" << kUsage;
            return std::nullopt;
        } else if (args.volumePath.empty()) {
            args.volumePath = std::string(a);
        } else {
            std::cerr << "isoview-cli: more than one volume given (" << args.volumePath << ", "
                      << a << ")\n";
            return std::nullopt;
        }
    }
    if (args.volumePath.empty() || !args.iso) {
        std::cerr << kUsage;
        return std::nullopt;
    }
    return args;
}

double millisecondsSince(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
        .count();
}

} // namespace

int main(int argc, char** argv)
{
    using namespace isoview;
    int exitCode = 0;
    const std::optional<Arguments> args = parseArguments(argc, argv, exitCode);
    if (!args) return exitCode;
    log::setLevel(args->verbose ? spdlog::level::debug : spdlog::level::warn);

    try {
        auto start = std::chrono::steady_clock::now();
        Volume volume = io::readRawVolume(args->volumePath);
        if (args->spacing) {
            VolumeGeometry geometry = volume.geometry();
            geometry.spacing = *args->spacing;
            volume.setGeometry(geometry);
        }
        const double loadMs = millisecondsSince(start);
        const glm::uvec3 d = volume.dims();
        const glm::dvec3 s = volume.geometry().spacing;
        const float isoStored = float(volume.rescale().toStored(*args->iso));

        gl::HeadlessContext context(gl::HeadlessContext::Options{.debug = args->verbose});
        gl::IsosurfaceExtractor extractor(gl::IsosurfaceExtractor::Options{args->gl33});
        start = std::chrono::steady_clock::now();
        extractor.setVolume(volume);
        gl::finishGpuWork();
        const double uploadMs = millisecondsSince(start);

        // Pyramid build plus the count read-back: the per-isovalue work before drawing.
        start = std::chrono::steady_clock::now();
        extractor.extract(isoStored);
        const std::uint32_t vertexCount = extractor.vertexCount();
        const double extractMs = millisecondsSince(start);

        start = std::chrono::steady_clock::now();
        const IsoMesh mesh = extractor.capture();
        const double captureMs = millisecondsSince(start);

        const gl::GpuMemoryUse memory = extractor.memoryUse();
        std::printf("volume: %s\n", args->volumePath.c_str());
        std::printf("dimensions: %ux%ux%u %s, spacing %g %g %g\n", d.x, d.y, d.z,
                    std::string(scalarTypeName(volume.type())).c_str(), s.x, s.y, s.z);
        std::printf("renderer: %s (%s)\n", extractor.capabilities().summary().c_str(),
                    context.platformDescription().c_str());
        std::printf("isovalue: %g\n", *args->iso);
        std::printf("triangles: %zu\n", mesh.triangleCount());
        std::printf("vertices: %zu\n", mesh.vertexCount());
        std::printf("unwelded_vertices: %u\n", vertexCount);
        std::printf("load_ms: %.2f\nupload_ms: %.2f\n", loadMs, uploadMs);
        std::printf("extraction_ms: %.2f\ncapture_ms: %.2f\n", extractMs, captureMs);
        std::printf("gpu_bytes: volume %zu, pyramid %zu (%.2f bytes per voxel)\n",
                    memory.volumeTextureBytes, memory.pyramidBytes,
                    double(memory.volumeTextureBytes + memory.pyramidBytes) /
                        double(memory.voxels));

        if (!args->output.empty()) {
            PlyOptions options;
            options.encoding = args->ascii ? PlyEncoding::Ascii : PlyEncoding::BinaryLittleEndian;
            options.space = args->voxelSpace ? MeshSpace::VoxelIndex : MeshSpace::Physical;
            writePly(args->output, mesh, volume.geometry(), options);
            std::printf("wrote: %s\n", args->output.c_str());
        }
        return 0;
    } catch (const Error& e) {
        std::fprintf(stderr, "isoview-cli: %s\n", e.what());
        return 2;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "isoview-cli: unexpected error: %s\n", e.what());
        return 2;
    }
}
