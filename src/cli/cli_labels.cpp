#include "cli_labels.h"

#include "core/atomic_file.h"
#include "core/error.h"
#include "extraction/smoothed_label_surfaces.h"
#include "gpu/headless_context.h"
#include "gpu/label_map_extractor.h"
#include "mesh_export/merged_surfaces.h"
#include "mesh_export/mesh_export.h"
#include "mesh_export/ply_writer.h"
#include "mesh_processing/label_print_preparation.h"
#include "mesh_processing/physical_mesh.h"
#include "output_names.h"
#include "terminal_progress.h"
#include "volume/label_volume.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <set>

namespace isoview::cli {
namespace {

double millisecondsSince(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
        .count();
}

// A label's name as a file name part: letters, digits, '-' and '.' kept, anything else (spaces,
// slashes, quotes) becomes '_'; the number when the table has no name.
std::string fileNamePart(std::uint32_t label, const std::string& name)
{
    std::string part;
    for (const char c : name) {
        const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                          (c >= '0' && c <= '9') || c == '-' || c == '.';
        part += keep ? c : '_';
    }
    if (part.find_first_not_of("_.") == std::string::npos) return std::to_string(label);
    return part;
}

// Every label in one GPU pass (gpu/label_map_extractor.h), with the timings reported.
std::map<std::uint32_t, IsoMesh> surfacesOnTheGpu(const LabelExport& request, const Volume& labels,
                                                  const VoxelBox& box)
{
    gpu::HeadlessContext context(gpu::HeadlessContext::Options{.debug = request.verbose});
    gpu::LabelMapExtractor extractor(gpu::LabelMapExtractor::Options{request.gl33});
    auto start = std::chrono::steady_clock::now();
    extractor.setLabelMap(labels, box);
    const double uploadMs = millisecondsSince(start);
    start = std::chrono::steady_clock::now();
    extractor.build();
    const std::uint32_t triangles = extractor.triangleCount();
    const double extractMs = millisecondsSince(start);
    start = std::chrono::steady_clock::now();
    std::map<std::uint32_t, IsoMesh> meshes;
    for (LabelSurface& s : extractor.capture())
        meshes[s.label] = std::move(s.mesh);
    const double captureMs = millisecondsSince(start);
    std::printf("renderer: %s (%s)\n", extractor.capabilities().summary().c_str(),
                context.platformDescription().c_str());
    std::printf("upload_ms: %.2f\nextraction_ms: %.2f (every label, %u triangles)\n"
                "capture_ms: %.2f\n",
                uploadMs, extractMs, triangles, captureMs);
    return meshes;
}

// --label-smoothing: each label's blurred indicator marched on the CPU, with progress on a
// terminal.
std::map<std::uint32_t, IsoMesh> smoothedSurfaces(const LabelExport& request, const Volume& labels,
                                                  const LabelStatistics& statistics,
                                                  const VoxelBox& box)
{
    const auto start = std::chrono::steady_clock::now();
    std::vector<LabelSurface> surfaces;
    {
        const TerminalProgress shown("smoothing labels");
        const auto callback = shown.callback();
        surfaces = extractSmoothedLabelSurfacesCpu(
            labels, statistics, request.smoothingSigmaMm, request.labels, box,
            [&](double fraction) { return !callback || callback("smoothing", fraction); });
    }
    std::map<std::uint32_t, IsoMesh> meshes;
    std::size_t triangles = 0;
    for (LabelSurface& s : surfaces) {
        triangles += s.mesh.triangleCount();
        meshes[s.label] = std::move(s.mesh);
    }
    std::printf("smoothing: Gaussian, sigma %g mm, on the CPU\n", request.smoothingSigmaMm);
    std::printf("extraction_ms: %.2f (%zu labels, %zu triangles)\n", millisecondsSince(start),
                surfaces.size(), triangles);
    return meshes;
}

} // namespace

std::optional<std::vector<std::uint32_t>> parseLabelList(std::string_view text, std::string& error)
{
    std::vector<std::uint32_t> labels;
    std::set<std::uint32_t> seen;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t comma = std::min(text.find(',', start), text.size());
        const std::string_view item = text.substr(start, comma - start);
        std::uint64_t value = 0;
        const bool digits =
            !item.empty() && item.size() <= 6 &&
            std::all_of(item.begin(), item.end(), [](char c) { return c >= '0' && c <= '9'; });
        if (digits) {
            for (const char c : item)
                value = value * 10 + std::uint64_t(c - '0');
        }
        if (!digits || value == 0 || value > kMaxLabel) {
            error = "--labels expects label numbers from 1 to " + std::to_string(kMaxLabel) +
                    " separated by commas (e.g. 3,10,13), got '" + std::string(text) + "'";
            return std::nullopt;
        }
        if (!seen.insert(std::uint32_t(value)).second) {
            error = "--labels names label " + std::to_string(value) + " twice";
            return std::nullopt;
        }
        labels.push_back(std::uint32_t(value));
        start = comma + 1;
    }
    return labels;
}

bool isLabelNamePattern(const std::string& pattern)
{
    return pattern.find("{label}") != std::string::npos ||
           pattern.find("{name}") != std::string::npos;
}

std::string labelOutputFor(const std::string& pattern, std::uint32_t label, const std::string& name)
{
    std::string out = pattern;
    replaceAll(out, "{label}", std::to_string(label));
    replaceAll(out, "{name}", fileNamePart(label, name));
    return out;
}

void printLabelInfo(const LabelStatistics& statistics, const LabelTable& table)
{
    std::uint64_t voxels = 0;
    for (const LabelInfo& info : statistics.labels) {
        std::printf("label %u: %s, %llu voxels\n", info.label, table.nameOf(info.label).c_str(),
                    static_cast<unsigned long long>(info.voxelCount));
        voxels += info.voxelCount;
    }
    std::printf("labels: %zu, %llu labelled voxels, %llu background voxels\n",
                statistics.labels.size(), static_cast<unsigned long long>(voxels),
                static_cast<unsigned long long>(statistics.backgroundVoxels));
}

std::vector<std::uint32_t> checkLabelExport(const LabelExport& request,
                                            const LabelStatistics& statistics)
{
    std::vector<std::uint32_t> wanted = request.labels;
    if (wanted.empty()) {
        for (const LabelInfo& info : statistics.labels)
            wanted.push_back(info.label);
        if (wanted.empty()) throw InvalidInputError("the label map holds no label but 0");
    }
    for (const std::uint32_t label : wanted) {
        if (statistics.find(label) == nullptr) {
            throw InvalidInputError(
                "label " + std::to_string(label) + " is not in the volume (it holds " +
                std::to_string(statistics.labels.size()) + " labels; --info --labels lists them)");
        }
    }
    // One .3mf without a pattern holds every label as a named, coloured object.
    const bool oneThreeMf = !request.output.empty() && !isLabelNamePattern(request.output) &&
                            meshFormatForPath(request.output) == MeshFormat::ThreeMf;
    if (!request.output.empty() && wanted.size() > 1 && !isLabelNamePattern(request.output) &&
        !oneThreeMf) {
        throw InvalidInputError("with several labels, -o needs {label} or {name} in its name to "
                                "give each label its own file (e.g. -o 'label_{label}.ply'); "
                                "--merge-ply ALL.ply writes them all into one PLY, -o ALL.3mf "
                                "into one 3MF");
    }
    std::vector<std::pair<std::string, std::string>> files; // path, what writes it
    if (oneThreeMf) {
        files.emplace_back(request.output, "-o");
    } else if (!request.output.empty()) {
        for (const std::uint32_t label : wanted) {
            files.emplace_back(labelOutputFor(request.output, label, request.table.nameOf(label)),
                               "label " + std::to_string(label));
        }
    }
    if (!request.mergedPly.empty()) {
        const std::optional<MeshFormat> format = meshFormatForPath(request.mergedPly);
        if (format && *format != MeshFormat::Ply) {
            throw InvalidInputError("--merge-ply writes PLY (it keeps a colour per vertex), not '" +
                                    request.mergedPly + "'");
        }
        files.emplace_back(request.mergedPly, "--merge-ply");
    }
    for (std::size_t i = 0; i < files.size(); ++i) {
        for (std::size_t j = 0; j < i; ++j) {
            if (sameFile(files[i].first, files[j].first)) {
                throw InvalidInputError(files[j].second + " and " + files[i].second +
                                        " would both write '" + files[i].first +
                                        "'; use {label} to tell them apart");
            }
        }
        requireReplaceableDestination(files[i].first);
    }
    return wanted;
}

int runLabelExport(const LabelExport& request, const Volume& volume,
                   const LabelStatistics& statistics, const std::string& volumePath)
{
    const std::vector<std::uint32_t> wanted = checkLabelExport(request, statistics);
    VoxelBox box = VoxelBox::whole(volume.dims());
    if (request.crop) {
        const auto& c = *request.crop;
        box = VoxelBox{{c[0], c[2], c[4]}, {c[1], c[3], c[5]}};
        requireInside(box, volume.dims());
    }
    validateLabelSmoothing(request.smoothingSigmaMm, volume.geometry()); // before any work
    const Volume labels = toLabelVolume(volume, statistics);
    const glm::uvec3 d = volume.dims();
    std::printf("volume: %s\n", volumePath.c_str());
    std::printf("dimensions: %ux%ux%u %s, %zu labels\n", d.x, d.y, d.z,
                std::string(scalarTypeName(volume.type())).c_str(), statistics.labels.size());
    std::map<std::uint32_t, IsoMesh> meshes =
        request.smoothingSigmaMm > 0.0 ? smoothedSurfaces(request, labels, statistics, box)
                                       : surfacesOnTheGpu(request, labels, box);
    VolumeGeometry writtenGeometry = volume.geometry();
    if (request.steps.any() && !request.voxelSpace) writtenGeometry = VolumeGeometry{};
    std::vector<std::pair<std::uint32_t, IsoMesh>> surfaces;
    for (const std::uint32_t label : wanted) {
        IsoMesh mesh = std::move(meshes[label]); // empty where the crop leaves none of it
        const std::string name = request.table.nameOf(label);
        std::printf("label: %u%s%s%s\n", label, name.empty() ? "" : " (", name.c_str(),
                    name.empty() ? "" : ")");
        std::printf("triangles: %zu\nvertices: %zu\n", mesh.triangleCount(), mesh.vertexCount());
        if (request.steps.any() && mesh.triangleCount() > 0) {
            const auto start = std::chrono::steady_clock::now();
            PreparedMesh p = [&] {
                const TerminalProgress shown("preparing label " + std::to_string(label));
                return prepareLabelMesh(mesh, labels, *statistics.find(label),
                                        request.smoothingSigmaMm, box, request.steps,
                                        shown.callback());
            }();
            std::printf("%s", p.report.text().c_str());
            std::printf("processing_ms: %.2f\n", millisecondsSince(start));
            mesh = request.voxelSpace ? toIndexMesh(p.mesh, volume.geometry()) : std::move(p.mesh);
        }
        surfaces.emplace_back(label, std::move(mesh));
    }

    std::string processing = request.steps.any() ? describeSteps(request.steps) : "";
    if (request.smoothingSigmaMm > 0.0) {
        char sigma[64];
        std::snprintf(sigma, sizeof sigma, "label-smoothing=%gmm", request.smoothingSigmaMm);
        processing = processing.empty() ? sigma : std::string(sigma) + " " + processing;
    }
    const MeshSpace space = request.voxelSpace ? MeshSpace::VoxelIndex : MeshSpace::Physical;
    PlyOptions plyOptions;
    plyOptions.encoding = request.ascii ? PlyEncoding::Ascii : PlyEncoding::BinaryLittleEndian;
    plyOptions.space = space;
    const std::string& sourceFormat = volume.metadata().sourceFormat;
    plyOptions.physicalSpaceName = sourceFormat.empty() || sourceFormat == "raw" ? "world" : "LPS";
    plyOptions.processing = processing;
    if (!request.output.empty() && !isLabelNamePattern(request.output) &&
        meshFormatForPath(request.output) == MeshFormat::ThreeMf) {
        std::vector<NamedMesh> parts;
        parts.reserve(surfaces.size());
        for (const auto& [label, mesh] : surfaces) {
            const std::string name = request.table.nameOf(label);
            parts.push_back({&mesh, name.empty() ? "label " + std::to_string(label) : name,
                             toColor8(glm::vec3(request.table.colorOf(label)))});
        }
        exportSurfaces3mf(request.output, parts, writtenGeometry,
                          {.space = space, .processing = processing});
        std::printf("wrote: %s (%zu labels)\n", request.output.c_str(), surfaces.size());
    } else if (!request.output.empty()) {
        for (const auto& [label, mesh] : surfaces) {
            const std::string path =
                labelOutputFor(request.output, label, request.table.nameOf(label));
            const std::optional<MeshFormat> format = meshFormatForPath(path);
            if (format != MeshFormat::Ply) { // checked: a known format
                exportMesh(path, mesh, writtenGeometry,
                           {.format = *format, .space = space, .processing = processing});
            } else {
                writePly(path, mesh, writtenGeometry, plyOptions);
            }
            std::printf("wrote: %s\n", path.c_str());
        }
    }
    if (!request.mergedPly.empty()) {
        std::vector<ColoredSurface> parts;
        parts.reserve(surfaces.size());
        for (const auto& [label, mesh] : surfaces)
            parts.push_back({&mesh, toColor8(glm::vec3(request.table.colorOf(label)))});
        const MergedSurfaces merged = mergeSurfaces(parts);
        PlyOptions mergedOptions = plyOptions;
        mergedOptions.vertexColors = merged.vertexColors;
        writePly(request.mergedPly, merged.mesh, writtenGeometry, mergedOptions);
        std::printf("wrote: %s (%zu labels, %zu triangles)\n", request.mergedPly.c_str(),
                    surfaces.size(), merged.mesh.triangleCount());
    }
    return 0;
}

} // namespace isoview::cli
