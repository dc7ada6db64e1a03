#include "mesh_export/mesh_coordinates.h"

#include "core/error.h"

#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>
#include <utility>

namespace isoview {
namespace {

static_assert(std::endian::native == std::endian::little || std::endian::native == std::endian::big,
              "mixed-endian hosts are not supported");

template <class T> void appendBytesLittleEndian(std::string& out, T value)
{
    char bytes[sizeof(T)];
    std::memcpy(bytes, &value, sizeof bytes);
    if constexpr (std::endian::native == std::endian::big) {
        for (std::size_t i = 0; i < sizeof bytes / 2; ++i) {
            std::swap(bytes[i], bytes[sizeof bytes - 1 - i]);
        }
    }
    out.append(bytes, sizeof bytes);
}

} // namespace

MeshCoordinates::MeshCoordinates(VolumeGeometry geometry, MeshSpace space, PatientAxes axes)
    : m_geometry(std::move(geometry)), m_space(space), m_axes(axes),
      // A mirroring map turns counter-clockwise into clockwise; swapping two corners undoes it.
      m_reverseWinding(space == MeshSpace::Physical && m_geometry.isMirrored())
{
}

glm::vec3 MeshCoordinates::position(const glm::vec3& indexPosition) const
{
    if (m_space == MeshSpace::VoxelIndex) return indexPosition;
    // toPhysical honours per-slice origins of tilted or unevenly spaced stacks.
    glm::dvec3 p = m_geometry.toPhysical(glm::dvec3(indexPosition));
    if (m_axes == PatientAxes::Ras) {
        p.x = -p.x;
        p.y = -p.y;
    }
    return glm::vec3(p);
}

glm::vec3 MeshCoordinates::normal(const glm::vec3& indexPosition,
                                  const glm::vec3& physicalNormal) const
{
    if (m_space == MeshSpace::Physical) {
        if (m_axes == PatientAxes::Lps) return physicalNormal;
        return {-physicalNormal.x, -physicalNormal.y, physicalNormal.z};
    }
    // A physical gradient g_p relates to the index gradient by g_i = J^T g_p.
    glm::dvec3 n =
        glm::transpose(m_geometry.jacobianAt(indexPosition.z)) * glm::dvec3(physicalNormal);
    const double length = glm::length(n);
    n = length > 0.0 ? n / length : glm::dvec3(0.0);
    return glm::vec3(n);
}

std::array<std::uint32_t, 3> MeshCoordinates::triangle(const IsoMesh& mesh, std::size_t t) const
{
    const std::uint32_t* corners = mesh.indices.data() + 3 * t;
    if (m_reverseWinding) return {corners[0], corners[2], corners[1]};
    return {corners[0], corners[1], corners[2]};
}

std::string_view MeshCoordinates::spaceName() const
{
    if (m_space == MeshSpace::VoxelIndex) return "voxel";
    return m_axes == PatientAxes::Ras ? "RAS" : "LPS";
}

std::string_view MeshCoordinates::unitName() const
{
    return m_space == MeshSpace::VoxelIndex ? "index" : "mm";
}

ExportProgress::ExportProgress(const ExportProgressCallback& callback, std::uint64_t total,
                               std::filesystem::path path)
    : m_callback(callback), m_total(total), m_path(std::move(path))
{
}

void ExportProgress::finish()
{
    m_done = m_total;
    report();
}

void ExportProgress::report()
{
    m_lastReport = m_done;
    if (m_callback && !m_callback(m_done, m_total)) {
        throw CancelledError("export to '" + m_path.string() +
                             "' cancelled; no file was written there");
    }
}

void validateMeshForExport(const IsoMesh& mesh, std::string_view format, std::uint64_t maxVertices)
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
    if (vertexCount > maxVertices) {
        throw InvalidInputError("cannot export mesh: " + std::to_string(vertexCount) +
                                " vertices exceed the " + std::string(format) + " limit of " +
                                std::to_string(maxVertices));
    }
    for (std::size_t i = 0; i < mesh.indices.size(); ++i) {
        if (mesh.indices[i] >= vertexCount) {
            throw InvalidInputError("cannot export mesh: triangle " + std::to_string(i / 3) +
                                    " uses vertex " + std::to_string(mesh.indices[i]) +
                                    ", but there are only " + std::to_string(vertexCount));
        }
    }
}

void requireFinite(const glm::vec3& value, std::size_t vertex, const std::filesystem::path& path)
{
    if (!std::isfinite(value.x) || !std::isfinite(value.y) || !std::isfinite(value.z)) {
        throw InvalidInputError("cannot export mesh to '" + path.string() + "': vertex " +
                                std::to_string(vertex) + " has a non-finite coordinate");
    }
}

void requireHeaderText(std::string_view text, std::string_view what)
{
    for (const char c : text) {
        if (c < 0x20 || c > 0x7e) {
            throw InvalidInputError(std::string(what) + " must be one line of printable ASCII");
        }
    }
}

// std::to_chars ignores the locale, so the decimal point is always '.', and without a
// precision it prints the shortest text that round-trips.
void appendFloat(std::string& out, float value)
{
    char text[32];
    const auto result = std::to_chars(text, text + sizeof text, value);
    out.append(text, result.ptr);
}

void appendInteger(std::string& out, std::uint64_t value)
{
    char text[24];
    const auto result = std::to_chars(text, text + sizeof text, value);
    out.append(text, result.ptr);
}

void appendLittleEndian(std::string& out, std::uint16_t value)
{
    appendBytesLittleEndian(out, value);
}

void appendLittleEndian(std::string& out, std::uint32_t value)
{
    appendBytesLittleEndian(out, value);
}

void appendLittleEndian(std::string& out, float value)
{
    appendBytesLittleEndian(out, std::bit_cast<std::uint32_t>(value));
}

} // namespace isoview
