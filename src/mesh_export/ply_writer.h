// Exports an IsoMesh as a PLY file that common tools (VTK, ParaView, MeshLab, Blender) read:
//
//   ply
//   format binary_little_endian 1.0            (or: format ascii 1.0)
//   comment isoview SPACE=LPS units=mm         (SPACE=RAS with PatientAxes::Ras; or:
//                                               comment isoview SPACE=voxel units=index)
//   comment isoview processing: smooth=10      (only when processing was applied)
//   element vertex N
//   property float x / y / z                   (one property line each)
//   property float nx / ny / nz                (unless options.normals is false)
//   property uchar red / green / blue          (only with options.vertexColor or vertexColors)
//   element face M
//   property list uchar int vertex_indices
//   end_header
//
// Coordinates, normals and winding are those of MeshCoordinates (mesh_coordinates.h):
// physical millimetres through VolumeGeometry::toPhysical (per-slice origins honoured), in LPS
// or RAS axes, with the winding reversed where the geometry mirrors space; or voxel indices
// with index-space normals.
//
// Contract: the file is written through AtomicFileWriter, so on any failure or cancellation no
// partial file is left at path and a previous file there is untouched. Throws
// InvalidInputError when the mesh is inconsistent (normal count differs from vertex count,
// index count not a multiple of 3, an index out of range, more than 2^31 - 1 vertices, a
// non-finite coordinate or normal, vertexColors not one per vertex) or physicalSpaceName
// is not a single printable word;
// IoError when the file cannot be written; CancelledError when options.progress returns false.
// Progress counts records: (vertices + triangles written, their total), every
// kExportProgressInterval records and once at the end. ASCII output always uses '.' as the
// decimal point, whatever the C or C++ locale, and prints the shortest text that reads back to
// the same float. Binary output is little-endian on every host. Runs on the calling thread.
//
// Example:
//   writePly("skull.ply", mesh, volume.geometry()); // binary, LPS millimetres
//   writePly("skull_index.ply", mesh, volume.geometry(),
//            {.encoding = PlyEncoding::Ascii, .space = MeshSpace::VoxelIndex});
#pragma once

#include "extraction/iso_mesh.h"
#include "mesh_export/mesh_coordinates.h"
#include "volume/volume.h"

#include <glm/glm.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace isoview {

enum class PlyEncoding { BinaryLittleEndian, Ascii };

struct PlyOptions {
    PlyEncoding encoding = PlyEncoding::BinaryLittleEndian;
    MeshSpace space = MeshSpace::Physical;
    PatientAxes axes = PatientAxes::Lps; // MeshSpace::Physical only
    // Written into the header comment for MeshSpace::Physical ("SPACE=LPS"); a single word.
    // Empty: the name of axes, LPS or RAS. (The CLI writes "world" for raw volumes.)
    std::string physicalSpaceName = {};
    bool normals = true;
    std::optional<glm::u8vec3> vertexColor = {}; // the same colour on every vertex
    // One colour per vertex (merged_surfaces.h: each surface of one file in its own); when not
    // empty it replaces vertexColor and must hold one entry per vertex.
    std::vector<glm::u8vec3> vertexColors = {};
    ExportProgressCallback progress = {};
    // Processing applied before export, written as "comment isoview processing: <words>".
    // Printable ASCII, one line.
    std::string processing = {};
};

void writePly(const std::filesystem::path& path, const IsoMesh& mesh,
              const VolumeGeometry& geometry, const PlyOptions& options = {});

} // namespace isoview
