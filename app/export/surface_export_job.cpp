#include "export/surface_export_job.h"

#include "core/error.h"
#include "mesh_export/merged_surfaces.h"
#include "mesh_processing/coincident_vertices.h"
#include "mesh_processing/physical_mesh.h"

#include <cmath>
#include <cstdint>
#include <set>
#include <string_view>
#include <system_error>

namespace isoview::app {

void checkSurfaceExport(const PrintSteps& steps, const MeshExportOptions& options,
                        const VolumeGeometry& geometry)
{
    if (options.format == MeshFormat::ThreeMf && options.space == MeshSpace::VoxelIndex) {
        throw InvalidInputError("3MF holds millimetres, not voxel indices: choose millimetre "
                                "coordinates, or PLY, STL or OBJ");
    }
    if (!steps.any()) return;
    validateSteps(steps);
    if (options.space == MeshSpace::VoxelIndex) (void)toIndexMesh(IsoMesh{}, geometry);
}

std::optional<PrintReport> writeCapturedSurface(CapturedSurface& surface, const Volume& volume,
                                                const MeshExportOptions& options,
                                                const PrintSteps& steps, const std::string& path,
                                                TaskContext& context)
{
    MeshExportOptions o = options;
    o.progress = [&context](std::uint64_t done, std::uint64_t total) {
        context.progress("writing", done, total);
        return !context.cancelRequested();
    };
    if (!steps.any()) {
        weldCoincidentVertices(surface.mesh);
        exportMesh(path, surface.mesh, volume.geometry(), o);
        return std::nullopt;
    }
    // The isovalue and crop the capture was extracted at: closing needs exactly those.
    PreparedMesh prepared =
        prepareMesh(surface.mesh, volume, surface.isovalue, surface.crop, steps,
                    [&context](std::string_view stage, double fraction) {
                        context.progress(stage, std::uint64_t(std::lround(fraction * 1000)), 1000);
                        return !context.cancelRequested();
                    });
    o.processing = describeSteps(steps);
    if (o.space == MeshSpace::VoxelIndex)
        exportMesh(path, toIndexMesh(prepared.mesh, volume.geometry()), volume.geometry(), o);
    else
        exportMesh(path, prepared.mesh, VolumeGeometry{}, o); // already in millimetres
    return std::move(prepared.report);
}

namespace {

std::string replaceAll(std::string text, const std::string& key, const std::string& value)
{
    for (std::size_t at = text.find(key); at != std::string::npos;
         at = text.find(key, at + value.size()))
        text.replace(at, key.size(), value);
    return text;
}

// A name as part of a file name: no folder separators, NULs or control characters.
std::string fileNamePart(std::string name)
{
    for (char& c : name) {
        if (c == '/' || c == '\\' || static_cast<unsigned char>(c) < 0x20) c = '_';
    }
    return name;
}

// Progress over several files: each file's records counted after the previous files'.
MeshExportOptions withProgress(const MeshExportOptions& options, TaskContext& context,
                               std::uint64_t before, std::uint64_t total)
{
    MeshExportOptions o = options;
    o.progress = [&context, before, total](std::uint64_t done, std::uint64_t) {
        context.progress("writing", before + done, total);
        return !context.cancelRequested();
    };
    return o;
}

std::uint64_t records(const IsoMesh& mesh)
{
    return mesh.vertexCount() + mesh.triangleCount();
}

} // namespace

std::vector<std::filesystem::path> surfaceFilePaths(const std::filesystem::path& folder,
                                                    const std::string& pattern,
                                                    const std::string& volumeName,
                                                    const std::vector<std::string>& names,
                                                    MeshFormat format)
{
    if (pattern.empty()) throw InvalidInputError("the file name pattern is empty");
    std::vector<std::filesystem::path> paths;
    paths.reserve(names.size());
    std::set<std::filesystem::path> seen;
    for (std::size_t i = 0; i < names.size(); ++i) {
        std::string name = replaceAll(pattern, "{volume}", volumeName);
        name = replaceAll(name, "{surface}", names[i]);
        name = replaceAll(name, "{n}", std::to_string(i + 1));
        std::filesystem::path path =
            folder / (fileNamePart(name) + "." + std::string(meshFormatExtension(format)));
        if (!seen.insert(path).second) {
            throw InvalidInputError("two surfaces would be written to the same file '" +
                                    path.filename().string() +
                                    "': put {surface} or {n} in the name pattern");
        }
        paths.push_back(std::move(path));
    }
    return paths;
}

void refuseExistingFiles(const std::vector<std::filesystem::path>& paths)
{
    for (const std::filesystem::path& path : paths) {
        std::error_code ec;
        if (std::filesystem::exists(path, ec)) {
            throw IoError("'" + path.string() +
                          "' already exists: choose another folder or name pattern (an export "
                          "of all surfaces never replaces a file)");
        }
    }
}

void writeSurfaceFiles(std::vector<NamedSurface>& surfaces, const VolumeGeometry& geometry,
                       const MeshExportOptions& options,
                       const std::vector<std::filesystem::path>& paths, TaskContext& context)
{
    if (paths.size() != surfaces.size()) throw InvalidInputError("one file per surface is needed");
    refuseExistingFiles(paths);
    std::uint64_t total = 0;
    for (NamedSurface& s : surfaces) {
        weldCoincidentVertices(s.surface.mesh);
        total += records(s.surface.mesh);
    }
    std::vector<std::filesystem::path> written;
    try {
        std::uint64_t before = 0;
        for (std::size_t i = 0; i < surfaces.size(); ++i) {
            const IsoMesh& mesh = surfaces[i].surface.mesh;
            exportMesh(paths[i], mesh, geometry, withProgress(options, context, before, total));
            written.push_back(paths[i]);
            before += records(mesh);
        }
    } catch (...) {
        // All or nothing: what this export wrote goes again.
        for (const std::filesystem::path& path : written) {
            std::error_code ec;
            std::filesystem::remove(path, ec);
        }
        throw;
    }
}

void writeMergedSurfaces(std::vector<NamedSurface>& surfaces, const VolumeGeometry& geometry,
                         const MeshExportOptions& options, const std::filesystem::path& path,
                         TaskContext& context)
{
    for (NamedSurface& s : surfaces)
        weldCoincidentVertices(s.surface.mesh);
    if (options.format == MeshFormat::ThreeMf) { // an object per surface, named and coloured
        std::vector<NamedMesh> objects;
        objects.reserve(surfaces.size());
        std::uint64_t triangles = 0;
        for (const NamedSurface& s : surfaces) {
            objects.push_back({&s.surface.mesh, s.name, toColor8(s.color)});
            triangles += s.surface.mesh.triangleCount();
        }
        exportSurfaces3mf(path, objects, geometry, withProgress(options, context, 0, triangles));
        return;
    }
    if (options.format != MeshFormat::Ply)
        throw InvalidInputError("one file of several coloured surfaces must be PLY or 3MF");
    std::vector<ColoredSurface> parts;
    parts.reserve(surfaces.size());
    for (const NamedSurface& s : surfaces)
        parts.push_back({&s.surface.mesh, toColor8(s.color)});
    const MergedSurfaces merged = mergeSurfaces(parts);
    const MeshExportOptions o = withProgress(options, context, 0, records(merged.mesh));
    PlyOptions ply;
    ply.encoding = o.plyEncoding;
    ply.space = o.space;
    ply.axes = o.axes;
    ply.normals = o.normals;
    ply.vertexColors = merged.vertexColors;
    ply.progress = o.progress;
    ply.processing = o.processing;
    writePly(path, merged.mesh, geometry, ply);
}

} // namespace isoview::app
