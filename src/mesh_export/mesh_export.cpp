#include "mesh_export/mesh_export.h"

#include "mesh_export/obj_writer.h"
#include "mesh_export/stl_writer.h"

#include <algorithm>
#include <cctype>
#include <string>

namespace isoview {
namespace {

constexpr MeshFormat kFormats[] = {MeshFormat::Ply, MeshFormat::Stl, MeshFormat::Obj,
                                   MeshFormat::ThreeMf};

} // namespace

std::string_view meshFormatExtension(MeshFormat format)
{
    switch (format) {
    case MeshFormat::Ply: return "ply";
    case MeshFormat::Stl: return "stl";
    case MeshFormat::Obj: return "obj";
    case MeshFormat::ThreeMf: return "3mf";
    }
    return "ply";
}

std::optional<MeshFormat> meshFormatForPath(const std::filesystem::path& path)
{
    std::string extension = path.extension().string();
    std::transform(extension.begin(), extension.end(), extension.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    for (MeshFormat format : kFormats) {
        if (extension == "." + std::string(meshFormatExtension(format))) return format;
    }
    return std::nullopt;
}

std::string meshFormatList()
{
    std::string list;
    for (MeshFormat format : kFormats) {
        if (!list.empty()) list += ", ";
        list += meshFormatExtension(format);
    }
    return list;
}

void exportMesh(const std::filesystem::path& path, const IsoMesh& mesh,
                const VolumeGeometry& geometry, const MeshExportOptions& options)
{
    switch (options.format) {
    case MeshFormat::Ply: {
        PlyOptions ply;
        ply.encoding = options.plyEncoding;
        ply.space = options.space;
        ply.axes = options.axes;
        ply.normals = options.normals;
        ply.vertexColor = options.vertexColor;
        ply.progress = options.progress;
        ply.processing = options.processing;
        writePly(path, mesh, geometry, ply);
        return;
    }
    case MeshFormat::Stl:
        writeStl(path, mesh, geometry,
                 {.space = options.space,
                  .axes = options.axes,
                  .progress = options.progress,
                  .processing = options.processing});
        return;
    case MeshFormat::Obj:
        writeObj(path, mesh, geometry,
                 {.space = options.space,
                  .axes = options.axes,
                  .normals = options.normals,
                  .progress = options.progress,
                  .processing = options.processing});
        return;
    case MeshFormat::ThreeMf:
        exportSurfaces3mf(path,
                          {{&mesh, path.stem().string(),
                            options.vertexColor.value_or(glm::u8vec3(255, 255, 255))}},
                          geometry, options);
        return;
    }
}

void exportSurfaces3mf(const std::filesystem::path& path, const std::vector<NamedMesh>& surfaces,
                       const VolumeGeometry& geometry, const MeshExportOptions& options)
{
    writeThreeMf(path, surfaces, geometry,
                 {.space = options.space,
                  .axes = options.axes,
                  .progress = options.progress,
                  .processing = options.processing});
}

} // namespace isoview
