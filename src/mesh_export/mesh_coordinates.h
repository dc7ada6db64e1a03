// What the three mesh writers (PLY, STL, OBJ) share, so that a mesh lands in the same place,
// with the same orientation, whatever the format:
// - MeshCoordinates: the map from an IsoMesh's index-space vertices to the output space
//   (physical millimetres in LPS or RAS axes, or voxel indices), its normals and its winding;
// - ExportProgress: progress reports and cancellation every kExportProgressInterval records;
// - validateMeshForExport and the locale-proof number formatting the text formats use.
// Callers normally use exportMesh (mesh_export.h); the writers use these.
//
// Coordinates:
// - MeshSpace::Physical: position = VolumeGeometry::toPhysical(index) (honours the per-slice
//   origins of tilted or unevenly spaced stacks), computed in double and stored as float. The
//   mesh's normals are already physical and are passed through. With PatientAxes::Ras x and y
//   of both are negated (a rotation by 180 degrees about z, so winding stays). When the
//   geometry mirrors space (VolumeGeometry::isMirrored()), every triangle's winding is reversed
//   so that its counter-clockwise side still faces outward, agreeing with the normals.
// - MeshSpace::VoxelIndex: positions as stored (voxel (i, j, k) at (i, j, k)), normals mapped
//   to index space (transpose of the local index->physical Jacobian, then normalised; zero
//   normals stay zero), winding unchanged. The axes do not apply.
//
// Threads: every function here is reentrant; a MeshCoordinates may be shared between threads.
//
// Example:
//   const MeshCoordinates map(volume.geometry(), MeshSpace::Physical, PatientAxes::Ras);
//   glm::vec3 p = map.position(mesh.positions[0]);
//   std::array<std::uint32_t, 3> corners = map.triangle(mesh, 0); // output winding
#pragma once

#include "extraction/iso_mesh.h"
#include "volume/volume.h"

#include <glm/glm.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>

namespace isoview {

enum class MeshSpace {
    Physical,   // millimetres in the volume's patient/world space (LPS for DICOM)
    VoxelIndex, // voxel index units, voxel (i, j, k) at (i, j, k)
};

// Patient axes of MeshSpace::Physical output: LPS as the volume stores them (DICOM), or RAS
// (x and y negated, as 3D Slicer and many printing tools expect). A rotation, so winding stays.
enum class PatientAxes { Lps, Ras };

class MeshCoordinates {
public:
    // Keeps a copy of geometry.
    MeshCoordinates(VolumeGeometry geometry, MeshSpace space, PatientAxes axes = PatientAxes::Lps);

    // An index-space vertex position in the output space, rounded to float once.
    glm::vec3 position(const glm::vec3& indexPosition) const;
    // The unit normal in the output space of a vertex at indexPosition whose mesh normal (a
    // physical unit vector, or zero) is physicalNormal.
    glm::vec3 normal(const glm::vec3& indexPosition, const glm::vec3& physicalNormal) const;
    // The three vertex indices of triangle t in the order to write them (reversed when the
    // map mirrors space). No bounds check.
    std::array<std::uint32_t, 3> triangle(const IsoMesh& mesh, std::size_t t) const;

    bool reversesWinding() const { return m_reverseWinding; }
    MeshSpace space() const { return m_space; }
    // "LPS", "RAS" or "voxel": the word files write after "SPACE=".
    std::string_view spaceName() const;
    // "mm" or "index".
    std::string_view unitName() const;

private:
    VolumeGeometry m_geometry;
    MeshSpace m_space;
    PatientAxes m_axes;
    bool m_reverseWinding;
};

// (records written, total records); return false to cancel.
using ExportProgressCallback = std::function<bool(std::uint64_t done, std::uint64_t total)>;

// Records (vertices or triangles) between two progress reports.
inline constexpr std::uint64_t kExportProgressInterval = 1u << 16;

// Counts written records and calls the callback every kExportProgressInterval of them and
// once more from finish(). Throws CancelledError (naming path) when the callback returns
// false; the writer's AtomicFileWriter then discards the file. An empty callback is fine; the
// callback must outlive this object.
class ExportProgress {
public:
    ExportProgress(const ExportProgressCallback& callback, std::uint64_t total,
                   std::filesystem::path path);

    void advance()
    {
        if (++m_done - m_lastReport >= kExportProgressInterval) report();
    }
    // The final report (done == total). Call it before committing the file, so that a cancel
    // in the last moment still leaves no file.
    void finish();

private:
    void report();

    const ExportProgressCallback& m_callback;
    std::uint64_t m_total;
    std::uint64_t m_done = 0;
    std::uint64_t m_lastReport = 0;
    std::filesystem::path m_path;
};

// Throws InvalidInputError when the normal count differs from the vertex count, the index
// count is not a multiple of 3, an index is out of range, or there are more than maxVertices
// vertices (format names the file format in that message).
void validateMeshForExport(const IsoMesh& mesh, std::string_view format, std::uint64_t maxVertices);

// Throws InvalidInputError (naming path and the vertex) when a component of value is NaN or
// infinite.
void requireFinite(const glm::vec3& value, std::size_t vertex, const std::filesystem::path& path);

// Throws InvalidInputError unless text is printable ASCII on one line (what a file header's
// comment may hold).
void requireHeaderText(std::string_view text, std::string_view what);

// Appends the shortest decimal text that reads back to exactly the same value, always with
// '.' as the decimal point whatever the C or C++ locale (std::to_chars).
void appendFloat(std::string& out, float value);
void appendInteger(std::string& out, std::uint64_t value);

// Appends value as little-endian bytes on every host.
void appendLittleEndian(std::string& out, std::uint16_t value);
void appendLittleEndian(std::string& out, std::uint32_t value);
void appendLittleEndian(std::string& out, float value);

} // namespace isoview
