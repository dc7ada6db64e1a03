// Exports the current isosurface mesh in the formats users expect: PLY (binary or ASCII),
// STL (binary), OBJ and 3MF, in patient/world millimetres (LPS, or RAS on request) or in voxel
// indices. The one entry point the viewer, the CLI and the tests call; the per-format writers
// sit behind it.
//
// Contract: written through AtomicFileWriter, so on failure or cancellation no partial file is
// left at path and a previous file there is untouched. Throws IoError (with the system's reason,
// e.g. "No space left on device"), InvalidInputError (inconsistent mesh), CancelledError (the
// monitor asked to stop). Progress is reported as records written: vertices then triangles for
// PLY and OBJ (total = vertices + triangles), triangles for STL and 3MF; every 65536 records
// (kExportProgressInterval) and once at the end with done == total, before the file is
// committed, so a cancel even then leaves no file. Runs on the calling thread (the viewer calls
// it from a background task); the progress callback is called on that thread.
//
// Formats (coordinates, normals and winding as in mesh_coordinates.h, in every format):
// - PLY: see ply_writer.h; the only format with vertex colours.
// - STL: binary, facet normals computed from the written positions (see stl_writer.h).
// - OBJ: text, "v", optional "vn", 1-based "f a//a b//b c//c" (see obj_writer.h).
// - 3MF: a ZIP package through lib3mf, unit millimetre, one named and coloured object per
//   surface (see threemf_writer.h); physical space only (voxel indices are refused).
//
// Example:
//   exportMesh("skull.stl", mesh, volume.geometry(), {.format = MeshFormat::Stl});
#pragma once

#include "extraction/iso_mesh.h"
#include "mesh_export/mesh_coordinates.h"
#include "mesh_export/ply_writer.h"
#include "mesh_export/threemf_writer.h"
#include "volume/volume.h"

#include <glm/glm.hpp>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace isoview {

enum class MeshFormat { Ply, Stl, Obj, ThreeMf };

// MeshSpace and PatientAxes (LPS, or RAS: x and y negated) come from mesh_coordinates.h.

struct MeshExportOptions {
    MeshFormat format = MeshFormat::Ply;
    MeshSpace space = MeshSpace::Physical;
    PatientAxes axes = PatientAxes::Lps;
    PlyEncoding plyEncoding = PlyEncoding::BinaryLittleEndian; // PLY only
    bool normals = true;                                       // PLY and OBJ
    std::optional<glm::u8vec3> vertexColor = {};               // PLY: uchar red green blue;
                                                               // 3MF: the object's colour
    // Called now and then with (records written, total); return false to cancel.
    std::function<bool(std::uint64_t done, std::uint64_t total)> progress = {};
    // Processing applied before export, recorded in the file's header (every format).
    std::string processing = {};
};

// "ply", "stl", "obj", "3mf"; and the format for a file name's extension (case-insensitive),
// nullopt for any other extension (callers refuse it rather than guess).
std::string_view meshFormatExtension(MeshFormat format);
std::optional<MeshFormat> meshFormatForPath(const std::filesystem::path& path);
// "ply, stl, obj, 3mf": the extensions meshFormatForPath knows, for error messages.
std::string meshFormatList();

void exportMesh(const std::filesystem::path& path, const IsoMesh& mesh,
                const VolumeGeometry& geometry, const MeshExportOptions& options = {});

// Several surfaces in one 3MF file, each an object with its name and colour (threemf_writer.h);
// options' space, axes, progress and processing apply. Same contract as exportMesh.
void exportSurfaces3mf(const std::filesystem::path& path, const std::vector<NamedMesh>& surfaces,
                       const VolumeGeometry& geometry, const MeshExportOptions& options = {});

} // namespace isoview
