#include "engine/ply_writer.h"

#include "engine/atomic_file.h"
#include "engine/error.h"
#include "engine/log.h"

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string_view>
#include <utility>

namespace isoview {
namespace {

static_assert(std::endian::native == std::endian::little ||
                  std::endian::native == std::endian::big,
              "mixed-endian hosts are not supported");

// Bytes are gathered in a chunk and handed to the file writer in large pieces.
constexpr std::size_t kChunkBytes = 1 << 20;

void appendLittleEndian32(std::string& out, std::uint32_t value)
{
    if constexpr (std::endian::native == std::endian::big) {
        value = (value >> 24) | ((value >> 8) & 0x0000ff00u) | ((value << 8) & 0x00ff0000u) |
                (value << 24);
    }
    char bytes[4];
    std::memcpy(bytes, &value, sizeof bytes);
    out.append(bytes, sizeof bytes);
}

// std::to_chars ignores the locale, so the decimal point is always '.'.
template <class T>
void appendNumber(std::string& out, T value)
{
    char text[32];
    const auto result = std::to_chars(text, text + sizeof text, value);
    out.append(text, result.ptr);
}

void validateSpaceName(const std::string& name)
{
    const bool printableWord = !name.empty() && name.size() <= 64 &&
                               std::all_of(name.begin(), name.end(), [](char c) {
                                   return c > ' ' && c < 127;
                               });
    if (!printableWord) {
        throw InvalidInputError("PLY space name '" + name +
                                "' must be one word of printable ASCII (e.g. LPS or RAS)");
    }
}

void validateMesh(const IsoMesh& mesh)
{
    const std::size_t vertexCount = mesh.vertexCount();
    if (mesh.normals.size() != vertexCount) {
        throw InvalidInputError("cannot export mesh: it has " + std::to_string(vertexCount) +
                                " vertices but " + std::to_string(mesh.normals.size()) +
                                " normals");
    }
    if (mesh.indices.size() % 3 != 0) {
        throw InvalidInputError("cannot export mesh: its " + std::to_string(mesh.indices.size()) +
                                " triangle indices are not a multiple of 3");
    }
    // PLY face indices are written as signed 32-bit ints.
    if (vertexCount > std::size_t(std::numeric_limits<std::int32_t>::max())) {
        throw InvalidInputError("cannot export mesh: " + std::to_string(vertexCount) +
                                " vertices exceed the PLY limit of 2147483647");
    }
    for (std::size_t i = 0; i < mesh.indices.size(); ++i) {
        if (mesh.indices[i] >= vertexCount) {
            throw InvalidInputError("cannot export mesh: triangle " + std::to_string(i / 3) +
                                    " uses vertex " + std::to_string(mesh.indices[i]) +
                                    ", but there are only " + std::to_string(vertexCount));
        }
    }
}

std::string makeHeader(const IsoMesh& mesh, const PlyOptions& options)
{
    std::string header = "ply\n";
    header += options.encoding == PlyEncoding::Ascii ? "format ascii 1.0\n"
                                                     : "format binary_little_endian 1.0\n";
    header += options.space == MeshSpace::Physical
                  ? "comment isoview SPACE=" + options.physicalSpaceName + " units=mm\n"
                  : "comment isoview SPACE=voxel units=index\n";
    header += "element vertex " + std::to_string(mesh.vertexCount()) + "\n";
    for (const char* name : {"x", "y", "z", "nx", "ny", "nz"}) {
        header += std::string("property float ") + name + "\n";
    }
    header += "element face " + std::to_string(mesh.triangleCount()) + "\n";
    header += "property list uchar int vertex_indices\n";
    header += "end_header\n";
    return header;
}

// Maps one vertex into the output space: x, y, z, nx, ny, nz.
class VertexTransform {
public:
    VertexTransform(const VolumeGeometry& geometry, MeshSpace space)
        : m_physical(space == MeshSpace::Physical), m_geometry(geometry)
    {
    }

    std::array<float, 6> operator()(const glm::vec3& position, const glm::vec3& normal) const
    {
        if (m_physical) {
            // toPhysical honours per-slice origins of tilted or unevenly spaced stacks.
            const glm::dvec3 p = m_geometry.toPhysical(glm::dvec3(position));
            return {float(p.x), float(p.y), float(p.z), normal.x, normal.y, normal.z};
        }
        // A physical gradient g_p relates to the index gradient by g_i = J^T g_p.
        glm::dvec3 n = glm::transpose(m_geometry.jacobianAt(position.z)) * glm::dvec3(normal);
        const double length = glm::length(n);
        n = length > 0.0 ? n / length : glm::dvec3(0.0);
        return {position.x, position.y, position.z, float(n.x), float(n.y), float(n.z)};
    }

private:
    bool m_physical;
    const VolumeGeometry& m_geometry;
};

} // namespace

void writePly(const std::filesystem::path& path, const IsoMesh& mesh,
              const VolumeGeometry& geometry, const PlyOptions& options)
{
    if (options.space == MeshSpace::Physical) validateSpaceName(options.physicalSpaceName);
    validateMesh(mesh);

    const bool ascii = options.encoding == PlyEncoding::Ascii;
    // A mirroring map turns counter-clockwise into clockwise; swapping two corners undoes it.
    const bool reverseWinding = options.space == MeshSpace::Physical && geometry.isMirrored();
    const VertexTransform transform(geometry, options.space);

    AtomicFileWriter out(path);
    std::string chunk = makeHeader(mesh, options);
    chunk.reserve(kChunkBytes + 256);
    const auto flushIfFull = [&] {
        if (chunk.size() >= kChunkBytes) {
            out.write(chunk.data(), chunk.size());
            chunk.clear();
        }
    };

    for (std::size_t v = 0; v < mesh.vertexCount(); ++v) {
        const std::array<float, 6> values = transform(mesh.positions[v], mesh.normals[v]);
        for (std::size_t c = 0; c < values.size(); ++c) {
            if (!std::isfinite(values[c])) {
                throw InvalidInputError("cannot export mesh to '" + path.string() + "': vertex " +
                                        std::to_string(v) + " has a non-finite coordinate");
            }
            if (ascii) {
                if (c > 0) chunk += ' ';
                appendNumber(chunk, values[c]);
            } else {
                appendLittleEndian32(chunk, std::bit_cast<std::uint32_t>(values[c]));
            }
        }
        if (ascii) chunk += '\n';
        flushIfFull();
    }

    for (std::size_t t = 0; t < mesh.triangleCount(); ++t) {
        std::array<std::uint32_t, 3> corners = {mesh.indices[3 * t], mesh.indices[3 * t + 1],
                                                mesh.indices[3 * t + 2]};
        if (reverseWinding) std::swap(corners[1], corners[2]);
        if (ascii) {
            chunk += '3';
            for (std::uint32_t index : corners) {
                chunk += ' ';
                appendNumber(chunk, index);
            }
            chunk += '\n';
        } else {
            chunk += char(3);
            for (std::uint32_t index : corners) appendLittleEndian32(chunk, index);
        }
        flushIfFull();
    }

    out.write(chunk.data(), chunk.size());
    out.commit();
    log::get("io")->info("wrote {} ({} vertices, {} triangles, {})", path.string(),
                         mesh.vertexCount(), mesh.triangleCount(),
                         ascii ? "ascii" : "binary little-endian");
}

} // namespace isoview
