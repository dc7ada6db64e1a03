// isoview-cli: extracts an isosurface headless (EGL, no display server) with the same GPU engine
// as the viewer, optionally prepares it for printing (closed, filtered, smoothed, decimated),
// and writes it as PLY, STL, OBJ or 3MF; or describes a volume (--info).
//
//   isoview-cli PATH --iso VALUE [-o mesh.ply] [--series N] [options]
//   isoview-cli PATH --iso A --iso B ... [-o 'mesh_{iso}.ply'] [--merge-ply all.ply] [options]
//   isoview-cli PATH --info [--series N]
//   isoview-cli LABELMAP --labels [3,10,13] [--label-table F] [-o 'name_{label}.ply'] [options]
//   isoview-cli LABELMAP --info --labels [--label-table F]
//
// PATH is anything the loaders open (DICOM file/folder/DICOMDIR, NRRD, MetaImage, raw).
// VALUE is in the volume's real units (HU for CT). Exit status 0 on success, 1 on bad usage,
// 2 when loading, extraction or writing fails (with the reason on stderr).
#include "cli_arguments.h"
#include "cli_labels.h"
#include "core/atomic_file.h"
#include "core/error.h"
#include "core/heap_reuse.h"
#include "core/log.h"
#include "gpu/headless_context.h"
#include "gpu/offscreen_target.h"
#include "gpu/scene_renderer.h"
#include "io/label_table_reader.h"
#include "io/volume_loader.h"
#include "isoview_version.h"
#include "mesh_export/merged_surfaces.h"
#include "mesh_export/mesh_export.h"
#include "mesh_export/ply_writer.h"
#include "mesh_processing/coincident_vertices.h"
#include "mesh_processing/physical_mesh.h"
#include "mesh_processing/print_preparation.h"
#include "output_names.h"
#include "scene/surface_list.h"
#include "terminal_progress.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>
#include <unistd.h>
#include <utility>
#include <vector>

namespace {

using isoview::cli::Arguments;
using isoview::cli::isNamePattern;
using isoview::cli::isoText;
using isoview::cli::outputFor;
using isoview::cli::parseArguments;

std::string text(const glm::dvec3& v)
{
    char buffer[96];
    std::snprintf(buffer, sizeof(buffer), "%g %g %g", v.x, v.y, v.z);
    return buffer;
}

// Prints what a person needs to know about a source and the volume loaded from it.
void printInfo(const isoview::io::VolumeSourceInfo& source, const isoview::Volume& volume)
{
    using namespace isoview;
    std::printf("format: %s\n", std::string(io::formatName(source.format)).c_str());
    if (source.format == io::VolumeFormat::Dicom || source.series.size() > 1) {
        std::printf("series: %zu (default %zu)\n", source.series.size(), source.defaultSeries);
        // A bounded listing: a 4-D NIfTI may hold thousands of volumes, each a series.
        constexpr std::size_t kMaxSeriesLines = 20;
        const std::size_t shown = std::min(source.series.size(), kMaxSeriesLines);
        for (std::size_t i = 0; i < shown; ++i) {
            const io::SeriesSummary& s = source.series[i];
            // "[1] fMRI | volume 2 of 2: time point 2 | MR | ...": which volume of a series.
            // NIfTI has no modality: its field is left out rather than shown empty.
            std::printf("  [%zu] %s%s%s%s%s | %zu slices | %ux%ux%u%s%s\n", i,
                        s.description.c_str(), s.volumeLabel.empty() ? "" : " | ",
                        s.volumeLabel.c_str(), s.modality.empty() ? "" : " | ", s.modality.c_str(),
                        s.sliceCount, s.dims.x, s.dims.y, s.dims.z, s.note.empty() ? "" : " | ",
                        s.note.c_str());
        }
        if (shown < source.series.size()) {
            std::printf("  ... and %zu more series (--series %zu to %zu)\n",
                        source.series.size() - shown, shown, source.series.size() - 1);
        }
        for (const std::string& note : source.notes)
            std::printf("note: %s\n", note.c_str());
    }
    const VolumeGeometry& g = volume.geometry();
    const VolumeMetadata& m = volume.metadata();
    const glm::uvec3 d = volume.dims();
    std::printf("dimensions: %ux%ux%u %s\n", d.x, d.y, d.z,
                std::string(scalarTypeName(volume.type())).c_str());
    std::printf("spacing: %s\n", text(g.spacing).c_str());
    std::printf("origin: %s\n", text(g.origin).c_str());
    std::printf("direction: [%s] [%s] [%s] (columns: i, j, k)\n", text(g.direction[0]).c_str(),
                text(g.direction[1]).c_str(), text(g.direction[2]).c_str());
    if (g.hasSliceOrigins()) {
        std::printf("slice positions: kept per slice (uneven spacing or tilt), first %s, last "
                    "%s\n",
                    text(g.sliceOrigins.front()).c_str(), text(g.sliceOrigins.back()).c_str());
    }
    const ValueRange r = volume.storedRange();
    const ValueRange real = volume.realRange();
    std::printf("stored range: %g .. %g\n", r.min, r.max);
    std::printf("value range: %g .. %g %s (real = stored * %g + %g)\n", real.min, real.max,
                m.units.c_str(), volume.rescale().slope, volume.rescale().intercept);
    if (!m.modality.empty()) std::printf("modality: %s\n", m.modality.c_str());
    if (!m.seriesDescription.empty()) {
        std::printf("series description: %s\n", m.seriesDescription.c_str());
    }
    if (!m.patientName.empty() || !m.patientId.empty()) {
        std::printf("patient: %s (%s)\n", m.patientName.c_str(), m.patientId.c_str());
    }
    if (!m.studyDate.empty()) std::printf("study date: %s\n", m.studyDate.c_str());
    if (m.windowCenter && m.windowWidth) {
        std::printf("window: centre %g width %g\n", *m.windowCenter, *m.windowWidth);
    }
    if (m.declaresLabelMap)
        std::printf("label map: the file declares one (--labels makes a surface per label)\n");
    for (const std::string& w : m.warnings)
        std::printf("warning: %s\n", w.c_str());
}

double millisecondsSince(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
        .count();
}

// Refuses a volume the renderer's GPU cannot hold from its size and type, before its voxels are
// read: a 10 GB raw then costs a file name's parsing, not a minute of reading and 10 GB.
class GpuAdmissionMonitor final : public isoview::io::LoadMonitor {
public:
    explicit GpuAdmissionMonitor(isoview::gpu::SceneRenderer::VolumeAdmission admission)
        : m_admission(std::move(admission))
    {
    }
    void admitVolume(glm::uvec3 dims, isoview::ScalarType type) override
    {
        m_admission(dims, type);
    }

private:
    isoview::gpu::SceneRenderer::VolumeAdmission m_admission;
};

// --labels: the label map's statistics (which also refuse a volume that is not one), its
// table, then --info's list or the surfaces (cli/cli_labels.h).
int runLabels(const Arguments& args, const isoview::io::VolumeSource& source,
              const isoview::Volume& volume, double loadMs)
{
    using namespace isoview;
    const LabelStatistics statistics = analyseLabels(volume);
    LabelTable table;
    if (!args.labelTable.empty()) {
        table = io::readLabelTable(args.labelTable);
    } else if (source.format == io::VolumeFormat::Nrrd) {
        table = io::readSegNrrdLabelTable(args.volumePath).value_or(LabelTable{});
    }
    if (args.info) {
        printInfo(source, volume);
        cli::printLabelInfo(statistics, table);
        std::printf("load_ms: %.2f\n", loadMs);
        return 0;
    }
    cli::LabelExport request;
    request.labels = args.labelList;
    request.table = std::move(table);
    request.output = args.output;
    request.mergedPly = args.mergedPly;
    request.crop = args.crop;
    request.steps = args.steps;
    request.smoothingSigmaMm = args.labelSmoothingMm;
    request.voxelSpace = args.voxelSpace;
    request.ascii = args.ascii;
    request.gl33 = args.gl33;
    request.verbose = args.verbose;
    std::printf("load_ms: %.2f\n", loadMs);
    return cli::runLabelExport(request, volume, statistics, args.volumePath);
}

// Extracts every --iso surface of the volume the renderer holds (scene: its crop) and writes
// them; timePoint names the files of --series all ({t}).
void writeSurfaces(const Arguments& args, isoview::gpu::SceneRenderer& renderer,
                   isoview::Scene& scene, const isoview::Volume& volume, std::size_t timePoint)
{
    using namespace isoview;
    auto start = std::chrono::steady_clock::now();
    // One surface after the other through the same pyramid; each is kept for --merge-ply.
    const bool several = args.isos.size() > 1;
    std::vector<IsoMesh> surfaces;
    surfaces.reserve(args.isos.size());
    // Print preparation works in millimetres; the files then get the prepared meshes with
    // an identity geometry (or, for --voxel-space, the meshes mapped back to voxel indices).
    VolumeGeometry writtenGeometry = volume.geometry();
    if (args.steps.any() && !args.voxelSpace) writtenGeometry = VolumeGeometry{};
    for (std::size_t i = 0; i < args.isos.size(); ++i) {
        const double iso = args.isos[i];
        // Pyramid build plus the count read-back: the per-isovalue work before drawing.
        start = std::chrono::steady_clock::now();
        scene.setLiveIsovalue(iso);
        renderer.setScene(scene);
        renderer.extractSurface();
        const std::uint32_t vertexCount = renderer.vertexCount();
        const double extractMs = millisecondsSince(start);

        start = std::chrono::steady_clock::now();
        gpu::CapturedSurface captured = renderer.capture(scene.surfaces.selected().id);
        IsoMesh mesh = std::move(captured.mesh);
        const double captureMs = millisecondsSince(start);

        // Zero-area triangles (vertices on voxels that hold the isovalue) never reach a
        // file; print preparation drops them itself, after closing.
        const std::size_t zeroArea = args.steps.any() ? 0 : weldCoincidentVertices(mesh);

        if (several) std::printf("surface: %zu\n", i + 1);
        std::printf("isovalue: %g\n", iso);
        if (zeroArea > 0) std::printf("zero_area_triangles_removed: %zu\n", zeroArea);
        std::printf("triangles: %zu\n", mesh.triangleCount());
        if (mesh.triangleCount() == 0) {
            const ValueRange real = volume.realRange();
            std::fprintf(stderr,
                         "isoview-cli: warning: the surface at %g is empty (the volume's "
                         "values span %g .. %g)%s\n",
                         iso, real.min, real.max,
                         args.output.empty() ? "" : "; its file holds no triangles");
        }
        std::printf("vertices: %zu\n", mesh.vertexCount());
        std::printf("unwelded_vertices: %u\n", vertexCount);
        std::printf("extraction_ms: %.2f\ncapture_ms: %.2f\n", extractMs, captureMs);

        if (args.steps.any()) {
            start = std::chrono::steady_clock::now();
            PreparedMesh p = [&] {
                const cli::TerminalProgress shown("preparing"); // cleared before the report
                return prepareMesh(mesh, volume, iso, captured.crop, args.steps, shown.callback());
            }();
            std::printf("%s", p.report.text().c_str());
            std::printf("processing_ms: %.2f\n", millisecondsSince(start));
            mesh = args.voxelSpace ? toIndexMesh(p.mesh, volume.geometry()) : std::move(p.mesh);
        }
        surfaces.push_back(std::move(mesh));
    }

    const std::string processing = args.steps.any() ? describeSteps(args.steps) : std::string();
    const MeshSpace space = args.voxelSpace ? MeshSpace::VoxelIndex : MeshSpace::Physical;
    PlyOptions plyOptions;
    plyOptions.encoding = args.ascii ? PlyEncoding::Ascii : PlyEncoding::BinaryLittleEndian;
    plyOptions.space = space;
    // DICOM, NRRD and MetaImage geometry is patient LPS; raw files carry none.
    const std::string& sourceFormat = volume.metadata().sourceFormat;
    plyOptions.physicalSpaceName = sourceFormat.empty() || sourceFormat == "raw" ? "world" : "LPS";
    plyOptions.processing = processing;
    // -o -: --format's, else the extension's.
    const auto formatOf = [&](const std::string& path) -> std::optional<MeshFormat> {
        return path == kStandardOutput ? args.format.value_or(MeshFormat::Ply)
                                       : meshFormatForPath(path);
    };
    const bool oneThreeMf = !args.output.empty() && !isNamePattern(args.output) &&
                            formatOf(args.output) == MeshFormat::ThreeMf;
    if (oneThreeMf) {
        const std::vector<glm::vec3>& palette = SurfaceList::palette();
        std::vector<NamedMesh> parts;
        for (std::size_t i = 0; i < surfaces.size(); ++i) {
            parts.push_back({&surfaces[i], "iso " + isoText(args.isos[i]),
                             toColor8(palette[i % palette.size()])});
        }
        exportSurfaces3mf(args.output, parts, writtenGeometry,
                          {.space = space, .processing = processing});
        std::printf("wrote: %s\n",
                    args.output == kStandardOutput ? "standard output" : args.output.c_str());
    } else if (!args.output.empty()) {
        for (std::size_t i = 0; i < surfaces.size(); ++i) {
            const std::string path = outputFor(args.output, i, args.isos[i], timePoint);
            const std::optional<MeshFormat> format = formatOf(path);
            if (format != MeshFormat::Ply) { // checked: a known format
                exportMesh(path, surfaces[i], writtenGeometry,
                           {.format = *format, .space = space, .processing = processing});
            } else {
                writePly(path, surfaces[i], writtenGeometry, plyOptions);
            }
            std::printf("wrote: %s\n", path == kStandardOutput ? "standard output" : path.c_str());
        }
    }
    if (!args.mergedPly.empty()) {
        const std::vector<glm::vec3>& palette = SurfaceList::palette();
        std::vector<ColoredSurface> parts;
        for (std::size_t i = 0; i < surfaces.size(); ++i)
            parts.push_back({&surfaces[i], toColor8(palette[i % palette.size()])});
        const MergedSurfaces merged = mergeSurfaces(parts);
        PlyOptions mergedOptions = plyOptions;
        mergedOptions.vertexColors = merged.vertexColors;
        writePly(args.mergedPly, merged.mesh, writtenGeometry, mergedOptions);
        std::printf("wrote: %s (%zu surfaces, %zu triangles)\n", args.mergedPly.c_str(),
                    surfaces.size(), merged.mesh.triangleCount());
    }
}

} // namespace

int main(int argc, char** argv)
{
    isoview::keepFreedHeapForReuse(); // mesh capture reuses freed blocks (core/heap_reuse.h)
    // Past the file-size limit (ulimit -f) a write fails with EFBIG, which the writer reports
    // and cleans up after, instead of SIGXFSZ ending the process with nothing said.
    std::signal(SIGXFSZ, SIG_IGN);
    using namespace isoview;
    int exitCode = 0;
    const std::optional<Arguments> args = parseArguments(argc, argv, exitCode);
    if (!args) return exitCode;
    if (args->output == kStandardOutput) {
        // The mesh goes to standard output and everything the CLI prints to standard error:
        // the original fd 1 is kept for the mesh, and fd 1 becomes a copy of fd 2.
        std::fflush(stdout);
        const int meshFd = ::fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
        if (meshFd < 0 || ::dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
            std::fprintf(stderr, "isoview-cli: cannot keep standard output for the mesh: %s\n",
                         std::strerror(errno));
            return 2;
        }
        setStandardOutputDescriptor(meshFd);
    }
    // The CLI prints the volume's warnings itself (VolumeMetadata::warnings); the log adds
    // detail only with --verbose.
    log::setLevel(args->verbose ? spdlog::level::debug : spdlog::level::err);

    try {
        auto start = std::chrono::steady_clock::now();
        io::LoadOptions loadOptions;
        loadOptions.seriesIndex = args->series;
        loadOptions.strict = args->strict;
        if (args->rawDims) {
            io::RawVolumeParameters raw;
            raw.dims = *args->rawDims;
            raw.type = parseScalarType(*args->rawType);
            raw.bigEndian = args->bigEndian;
            raw.headerOffset = args->headerOffset;
            loadOptions.raw = raw;
        }
        // One open serves the load and --info's series list: a DICOM folder is scanned once.
        const io::VolumeSource source = loadOptions.raw ? io::openRawSource(args->volumePath)
                                                        : io::openSource(args->volumePath);
        const double openMs = millisecondsSince(start);
        // The GPU comes before the voxels, so that it can refuse a volume it cannot hold before
        // a byte of it is read (--info and label maps do not extract here).
        std::optional<gpu::HeadlessContext> context;
        std::optional<gpu::SceneRenderer> renderer;
        std::optional<GpuAdmissionMonitor> admission;
        if (!args->info && !args->labels) {
            context.emplace(gpu::HeadlessContext::Options{.debug = args->verbose});
            renderer.emplace(gpu::SceneRenderer::Options{args->gl33});
            admission.emplace(renderer->volumeAdmission());
        }
        start = std::chrono::steady_clock::now();
        Volume volume = io::loadVolume(source, loadOptions, admission ? &*admission : nullptr);
        // --series all: every volume on the chosen one's grid, the time points of its series.
        std::vector<std::size_t> timePoints{loadOptions.seriesIndex.value_or(source.defaultSeries)};
        if (args->allTimePoints) {
            timePoints = source.series.size() > 1 ? io::volumesOnOneGrid(source, timePoints[0])
                                                  : std::vector<std::size_t>{};
            if (timePoints.size() < 2)
                throw InvalidInputError("--series all extracts the time points of a series of "
                                        "volumes on one grid, and " +
                                        args->volumePath + " holds one volume there");
        }
        // The output is checked now, not after a long extraction: a FIFO, a device or one of
        // the files just read is refused before any work (and checked again when written).
        // (Label maps' outputs are checked by checkLabelExport, per label.)
        if (!args->output.empty() && !args->labels) {
            for (std::size_t t = 0; t < timePoints.size(); ++t)
                for (std::size_t i = 0; i < args->isos.size(); ++i)
                    requireReplaceableDestination(outputFor(args->output, i, args->isos[i], t));
        }
        if (!args->mergedPly.empty()) requireReplaceableDestination(args->mergedPly);
        const auto withSpacing = [&](Volume& v) {
            if (!args->spacing) return;
            VolumeGeometry geometry = v.geometry();
            geometry.spacing = *args->spacing;
            v.setGeometry(geometry);
        };
        withSpacing(volume);
        const auto labelOf = [&](std::size_t index) {
            return source.series.empty() ? std::string() : source.series[index].volumeLabel;
        };
        // The volume loaded above takes its place among the time points; the others are read.
        const std::size_t chosen = loadOptions.seriesIndex.value_or(source.defaultSeries);
        std::optional<Volume> loaded(std::move(volume));
        std::vector<std::shared_ptr<const Volume>> volumes;
        std::vector<std::string> labels;
        for (const std::size_t index : timePoints) {
            labels.push_back(labelOf(index));
            if (loaded && (index == chosen || timePoints.size() == 1)) {
                volumes.push_back(std::make_shared<const Volume>(std::move(*loaded)));
                loaded.reset();
                continue;
            }
            io::LoadOptions other = loadOptions;
            other.seriesIndex = index;
            Volume next = io::loadVolume(source, other, admission ? &*admission : nullptr);
            withSpacing(next);
            volumes.push_back(std::make_shared<const Volume>(std::move(next)));
        }
        const double loadMs = openMs + millisecondsSince(start); // not the GPU's set-up
        const Volume& first = *volumes.front();
        const std::shared_ptr<const VolumeSeries> series =
            volumes.size() > 1 ? std::make_shared<const VolumeSeries>(volumes, labels) : nullptr;
        if (args->labels) return runLabels(*args, source, first, loadMs);
        if (args->info) {
            printInfo(source, first);
            std::printf("load_ms: %.2f\n", loadMs);
            return 0;
        }
        for (const std::string& w : first.metadata().warnings) {
            std::fprintf(stderr, "isoview-cli: warning: %s\n", w.c_str());
        }
        const glm::uvec3 d = first.dims();
        const glm::dvec3 s = first.geometry().spacing;

        start = std::chrono::steady_clock::now();
        if (series) {
            renderer->setTimePoint(series, 0);
        } else {
            renderer->setVolume(first);
        }
        // What is extracted: one surface at a time, in the crop box when one is given (in real
        // units, as the user gave them; the engine converts).
        Scene scene = Scene::withSurface(nullptr, args->isos.front());
        if (args->crop) {
            const auto& c = *args->crop;
            const VoxelBox box{{c[0], c[2], c[4]}, {c[1], c[3], c[5]}};
            requireInside(box, first.dims()); // Error names the problem
            scene.crop = box;
        }
        renderer->setScene(scene); // a crop's pyramid is allocated here, in the upload's time
        gpu::finishGpuWork();
        const double uploadMs = millisecondsSince(start);

        const gpu::GpuMemoryUse memory = renderer->memoryUse();
        std::printf("volume: %s\n", args->volumePath.c_str());
        std::printf("dimensions: %ux%ux%u %s, spacing %g %g %g\n", d.x, d.y, d.z,
                    std::string(scalarTypeName(first.type())).c_str(), s.x, s.y, s.z);
        std::printf("renderer: %s (%s)\n", renderer->capabilities().summary().c_str(),
                    context->platformDescription().c_str());
        std::printf("bricks: %zu\n", renderer->brickCount());
        std::printf("load_ms: %.2f\nupload_ms: %.2f\n", loadMs, uploadMs);
        std::printf("gpu_bytes: volume %zu, pyramid %zu (%.2f bytes per voxel)\n",
                    memory.volumeTextureBytes, memory.pyramidBytes,
                    double(memory.volumeTextureBytes + memory.pyramidBytes) /
                        double(memory.voxels));

        if (!series) {
            writeSurfaces(*args, *renderer, scene, first, 0);
            return 0;
        }
        for (std::size_t t = 0; t < series->size(); ++t) {
            if (t > 0) {
                start = std::chrono::steady_clock::now();
                renderer->setTimePoint(series, t); // the next values; pyramid and crop kept
                renderer->setScene(scene);
                gpu::finishGpuWork();
                std::printf("upload_ms: %.2f\n", millisecondsSince(start));
            }
            std::printf("time_point: %zu of %zu (%s)\n", t + 1, series->size(),
                        series->label(t).c_str());
            writeSurfaces(*args, *renderer, scene, *series->volume(t), t);
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
