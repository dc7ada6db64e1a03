#include "mesh_export/ply_writer.h"

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/log.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <string_view>
#include <vector>

namespace isoview {
namespace {

// Bytes are gathered in a chunk and handed to the file writer in large pieces.
constexpr std::size_t kChunkBytes = 1 << 20;

// PLY face indices are written as signed 32-bit ints.
constexpr std::uint64_t kMaxPlyVertices = std::uint64_t(std::numeric_limits<std::int32_t>::max());

void validateSpaceName(const std::string& name)
{
    const bool printableWord =
        !name.empty() && name.size() <= 64 &&
        std::all_of(name.begin(), name.end(), [](char c) { return c > ' ' && c < 127; });
    if (!printableWord) {
        throw InvalidInputError("PLY space name '" + name +
                                "' must be one word of printable ASCII (e.g. LPS or RAS)");
    }
}

std::string makeHeader(const IsoMesh& mesh, const PlyOptions& options, const std::string& spaceName,
                       std::string_view unitName)
{
    std::string header = "ply\n";
    header += options.encoding == PlyEncoding::Ascii ? "format ascii 1.0\n"
                                                     : "format binary_little_endian 1.0\n";
    header += "comment isoview SPACE=" + spaceName + " units=" + std::string(unitName) + "\n";
    if (!options.processing.empty())
        header += "comment isoview processing: " + options.processing + "\n";
    header += "element vertex " + std::to_string(mesh.vertexCount()) + "\n";
    std::vector<const char*> floats = {"x", "y", "z"};
    if (options.normals) floats.insert(floats.end(), {"nx", "ny", "nz"});
    for (const char* name : floats) {
        header += std::string("property float ") + name + "\n";
    }
    if (options.vertexColor || !options.vertexColors.empty()) {
        for (const char* name : {"red", "green", "blue"}) {
            header += std::string("property uchar ") + name + "\n";
        }
    }
    header += "element face " + std::to_string(mesh.triangleCount()) + "\n";
    header += "property list uchar int vertex_indices\n";
    header += "end_header\n";
    return header;
}

// ASCII values are separated by one space; a record starts without one.
void appendVector(std::string& out, const glm::vec3& v, bool ascii, bool startsRecord)
{
    for (int c = 0; c < 3; ++c) {
        if (ascii) {
            if (c > 0 || !startsRecord) out += ' ';
            appendFloat(out, v[c]);
        } else {
            appendLittleEndian(out, v[c]);
        }
    }
}

} // namespace

void writePly(const std::filesystem::path& path, const IsoMesh& mesh,
              const VolumeGeometry& geometry, const PlyOptions& options)
{
    const MeshCoordinates map(geometry, options.space, options.axes);
    const std::string spaceName =
        options.space == MeshSpace::Physical && !options.physicalSpaceName.empty()
            ? options.physicalSpaceName
            : std::string(map.spaceName());
    validateSpaceName(spaceName);
    validateMeshForExport(mesh, "PLY", kMaxPlyVertices);
    requireHeaderText(options.processing, "PLY processing note");
    const bool perVertexColor = !options.vertexColors.empty();
    if (perVertexColor && options.vertexColors.size() != mesh.vertexCount()) {
        throw InvalidInputError("cannot export mesh to '" + path.string() +
                                "': " + std::to_string(options.vertexColors.size()) +
                                " vertex colours for " + std::to_string(mesh.vertexCount()) +
                                " vertices");
    }

    const bool ascii = options.encoding == PlyEncoding::Ascii;
    ExportProgress progress(options.progress, mesh.vertexCount() + mesh.triangleCount(), path);

    AtomicFileWriter out(path);
    std::string chunk = makeHeader(mesh, options, spaceName, map.unitName());
    chunk.reserve(kChunkBytes + 256);
    const auto flushIfFull = [&] {
        if (chunk.size() >= kChunkBytes) {
            out.write(chunk.data(), chunk.size());
            chunk.clear();
        }
    };

    // Pass 1: the vertex records.
    for (std::size_t v = 0; v < mesh.vertexCount(); ++v) {
        const glm::vec3 position = map.position(mesh.positions[v]);
        requireFinite(position, v, path);
        appendVector(chunk, position, ascii, true);
        if (options.normals) {
            const glm::vec3 normal = map.normal(mesh.positions[v], mesh.normals[v]);
            requireFinite(normal, v, path);
            appendVector(chunk, normal, ascii, false);
        }
        if (options.vertexColor || perVertexColor) {
            const glm::u8vec3 color =
                perVertexColor ? options.vertexColors[v] : *options.vertexColor;
            for (int c = 0; c < 3; ++c) {
                const std::uint8_t component = color[c];
                if (ascii) {
                    chunk += ' ';
                    appendInteger(chunk, component);
                } else {
                    chunk += char(component);
                }
            }
        }
        if (ascii) chunk += '\n';
        flushIfFull();
        progress.advance();
    }

    // Pass 2: the faces, in the winding of the output space.
    for (std::size_t t = 0; t < mesh.triangleCount(); ++t) {
        const std::array<std::uint32_t, 3> corners = map.triangle(mesh, t);
        if (ascii) {
            chunk += '3';
            for (std::uint32_t index : corners) {
                chunk += ' ';
                appendInteger(chunk, index);
            }
            chunk += '\n';
        } else {
            chunk += char(3);
            for (std::uint32_t index : corners) {
                appendLittleEndian(chunk, index);
            }
        }
        flushIfFull();
        progress.advance();
    }

    out.write(chunk.data(), chunk.size());
    progress.finish();
    out.commit();
    log::get("io")->info("wrote {} ({} vertices, {} triangles, {}, SPACE={})", path.string(),
                         mesh.vertexCount(), mesh.triangleCount(),
                         ascii ? "ascii" : "binary little-endian", spaceName);
}

} // namespace isoview
