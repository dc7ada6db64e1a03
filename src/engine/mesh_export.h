// Exports the current isosurface mesh in the formats users expect: PLY (binary or ASCII),
// STL (binary) and OBJ, in patient/world millimetres (LPS, or RAS on request) or in voxel
// indices. The one entry point the viewer, the CLI and the tests call; the per-format writers
// sit behind it.
//
// Contract: written through AtomicFileWriter, so on failure or cancellation no partial file is
// left at path and a previous file there is untouched. Throws IoError (with the system's reason,
// e.g. "No space left on device"), InvalidInputError (inconsistent mesh), CancelledError (the
// monitor asked to stop). Progress is reported as written triangles.
//
// Example:
//   exportMesh("skull.stl", mesh, volume.geometry(), {.format = MeshFormat::Stl});
#pragma once

#include "engine/iso_mesh.h"
#include "engine/ply_writer.h"
#include "engine/volume.h"

#include <glm/glm.hpp>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string_view>

namespace isoview {

enum class MeshFormat { Ply, Stl, Obj };

// Patient axes of MeshSpace::Physical output: LPS as the volume stores them (DICOM), or RAS
// (x and y negated, as 3D Slicer and many printing tools expect). A rotation, so winding stays.
enum class PatientAxes { Lps, Ras };

struct MeshExportOptions {
    MeshFormat format = MeshFormat::Ply;
    MeshSpace space = MeshSpace::Physical;
    PatientAxes axes = PatientAxes::Lps;
    PlyEncoding plyEncoding = PlyEncoding::BinaryLittleEndian; // PLY only
    bool normals = true;                                       // PLY and OBJ
    std::optional<glm::u8vec3> vertexColor;                    // PLY only: uchar red green blue
    // Called now and then with (triangles written, total); return false to cancel.
    std::function<bool(std::uint64_t done, std::uint64_t total)> progress;
};

// "ply", "stl", "obj"; and the format for a file name's extension (case-insensitive).
std::string_view meshFormatExtension(MeshFormat format);
std::optional<MeshFormat> meshFormatForPath(const std::filesystem::path& path);

void exportMesh(const std::filesystem::path& path, const IsoMesh& mesh,
                const VolumeGeometry& geometry, const MeshExportOptions& options = {});

} // namespace isoview
