#include "mesh_export/stl_writer.h"

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/log.h"

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace isoview {
namespace {

constexpr std::size_t kHeaderBytes = 80;
constexpr std::size_t kTriangleBytes = 50;
// Bytes are gathered in a chunk and handed to the file writer in large pieces.
constexpr std::size_t kChunkBytes = 1 << 20;

// The unit normal of triangle (a, b, c) wound counter-clockwise, or zero when it has no area.
glm::vec3 facetNormal(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c)
{
    const glm::dvec3 n = glm::cross(glm::dvec3(b) - glm::dvec3(a), glm::dvec3(c) - glm::dvec3(a));
    const double length = glm::length(n);
    if (!(length > 0.0) || !std::isfinite(length)) return glm::vec3(0.0f);
    return glm::vec3(n / length);
}

} // namespace

void writeStl(const std::filesystem::path& path, const IsoMesh& mesh,
              const VolumeGeometry& geometry, const StlOptions& options)
{
    validateMeshForExport(mesh, "STL", std::numeric_limits<std::uint64_t>::max());
    requireHeaderText(options.processing, "STL processing note");
    if (mesh.triangleCount() > std::numeric_limits<std::uint32_t>::max()) {
        throw InvalidInputError("cannot export mesh: " + std::to_string(mesh.triangleCount()) +
                                " triangles exceed the STL limit of 4294967295");
    }
    const MeshCoordinates map(geometry, options.space, options.axes);

    // Each vertex is used by about six triangles: map it once.
    std::vector<glm::vec3> positions(mesh.vertexCount());
    for (std::size_t v = 0; v < positions.size(); ++v) {
        positions[v] = map.position(mesh.positions[v]);
        requireFinite(positions[v], v, path);
    }

    ExportProgress progress(options.progress, mesh.triangleCount(), path);
    AtomicFileWriter out(path);

    std::string chunk = "isoview binary STL SPACE=" + std::string(map.spaceName()) +
                        " units=" + std::string(map.unitName());
    if (!options.processing.empty()) chunk += " processing: " + options.processing;
    chunk.resize(kHeaderBytes, '\0'); // cut to the header's 80 bytes
    appendLittleEndian(chunk, std::uint32_t(mesh.triangleCount()));
    chunk.reserve(kChunkBytes + kTriangleBytes);

    for (std::size_t t = 0; t < mesh.triangleCount(); ++t) {
        const std::array<std::uint32_t, 3> corners = map.triangle(mesh, t);
        const glm::vec3& a = positions[corners[0]];
        const glm::vec3& b = positions[corners[1]];
        const glm::vec3& c = positions[corners[2]];
        for (const glm::vec3& v : {facetNormal(a, b, c), a, b, c}) {
            appendLittleEndian(chunk, v.x);
            appendLittleEndian(chunk, v.y);
            appendLittleEndian(chunk, v.z);
        }
        appendLittleEndian(chunk, std::uint16_t(0)); // "attribute byte count", unused
        if (chunk.size() >= kChunkBytes) {
            out.write(chunk.data(), chunk.size());
            chunk.clear();
        }
        progress.advance();
    }

    out.write(chunk.data(), chunk.size());
    progress.finish();
    out.commit();
    log::get("io")->info("wrote {} ({} triangles, binary STL, SPACE={})", path.string(),
                         mesh.triangleCount(), map.spaceName());
}

} // namespace isoview
