#include "mesh_export/obj_writer.h"

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/log.h"

#include <array>
#include <cstdint>
#include <limits>
#include <string>

namespace isoview {
namespace {

// Bytes are gathered in a chunk and handed to the file writer in large pieces.
constexpr std::size_t kChunkBytes = 1 << 20;

// "<tag> x y z\n"
void appendLine(std::string& out, const char* tag, const glm::vec3& v)
{
    out += tag;
    for (int c = 0; c < 3; ++c) {
        out += ' ';
        appendFloat(out, v[c]);
    }
    out += '\n';
}

} // namespace

void writeObj(const std::filesystem::path& path, const IsoMesh& mesh,
              const VolumeGeometry& geometry, const ObjOptions& options)
{
    validateMeshForExport(mesh, "OBJ", std::numeric_limits<std::uint64_t>::max());
    requireHeaderText(options.processing, "OBJ processing note");
    const MeshCoordinates map(geometry, options.space, options.axes);
    ExportProgress progress(options.progress, mesh.vertexCount() + mesh.triangleCount(), path);

    AtomicFileWriter out(path);
    std::string chunk = "# isoview OBJ SPACE=" + std::string(map.spaceName()) +
                        " units=" + std::string(map.unitName()) + "\n";
    if (!options.processing.empty()) chunk += "# isoview processing: " + options.processing + "\n";
    chunk += "# " + std::to_string(mesh.vertexCount()) + " vertices, " +
             std::to_string(mesh.triangleCount()) + " triangles\n";
    chunk.reserve(kChunkBytes + 256);
    const auto flushIfFull = [&] {
        if (chunk.size() >= kChunkBytes) {
            out.write(chunk.data(), chunk.size());
            chunk.clear();
        }
    };

    // Pass 1: positions and normals, interleaved so both share one vertex number.
    for (std::size_t v = 0; v < mesh.vertexCount(); ++v) {
        const glm::vec3 position = map.position(mesh.positions[v]);
        requireFinite(position, v, path);
        appendLine(chunk, "v", position);
        if (options.normals) {
            const glm::vec3 normal = map.normal(mesh.positions[v], mesh.normals[v]);
            requireFinite(normal, v, path);
            appendLine(chunk, "vn", normal);
        }
        flushIfFull();
        progress.advance();
    }

    // Pass 2: the faces, 1-based, in the winding of the output space.
    for (std::size_t t = 0; t < mesh.triangleCount(); ++t) {
        const std::array<std::uint32_t, 3> corners = map.triangle(mesh, t);
        chunk += 'f';
        for (std::uint32_t index : corners) {
            chunk += ' ';
            appendInteger(chunk, std::uint64_t(index) + 1);
            if (options.normals) {
                chunk += "//";
                appendInteger(chunk, std::uint64_t(index) + 1);
            }
        }
        chunk += '\n';
        flushIfFull();
        progress.advance();
    }

    out.write(chunk.data(), chunk.size());
    progress.finish();
    out.commit();
    log::get("io")->info("wrote {} ({} vertices, {} triangles, OBJ, SPACE={})", path.string(),
                         mesh.vertexCount(), mesh.triangleCount(), map.spaceName());
}

} // namespace isoview
