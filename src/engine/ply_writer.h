// Exports an IsoMesh as a PLY file that common tools (VTK, ParaView, MeshLab, Blender) read:
//
//   ply
//   format binary_little_endian 1.0            (or: format ascii 1.0)
//   comment isoview SPACE=LPS units=mm         (or: comment isoview SPACE=voxel units=index)
//   element vertex N
//   property float x / y / z / nx / ny / nz    (one property line each)
//   element face M
//   property list uchar int vertex_indices
//   end_header
//
// Coordinates:
// - MeshSpace::Physical: positions are geometry.indexToPhysical() applied to the index-space
//   positions (computed in double, stored as float), normals are the mesh's physical unit
//   normals. When geometry.isMirrored(), each triangle's winding is reversed so that the
//   counter-clockwise side still faces outward, agreeing with the normals.
// - MeshSpace::VoxelIndex: positions as stored in the mesh (voxel (i, j, k) at (i, j, k)),
//   normals converted to index space (transpose of the index->physical linear part, then
//   normalised; zero normals stay zero), winding unchanged.
//
// Contract: the file is written through AtomicFileWriter, so on any failure no partial file is
// left at path. Throws InvalidInputError when the mesh is inconsistent (normal count differs
// from vertex count, index count not a multiple of 3, an index out of range, more than
// 2^31 - 1 vertices, a non-finite coordinate) or physicalSpaceName is not a single printable
// word; throws IoError when the file cannot be written. ASCII output always uses '.' as the
// decimal point, whatever the C or C++ locale, and prints the shortest text that reads back to
// the same float. Binary output is little-endian on every host.
//
// Example:
//   writePly("skull.ply", mesh, volume.geometry()); // binary, LPS millimetres
//   writePly("skull_index.ply", mesh, volume.geometry(),
//            {.encoding = PlyEncoding::Ascii, .space = MeshSpace::VoxelIndex});
#pragma once

#include "engine/iso_mesh.h"
#include "engine/volume.h"

#include <filesystem>
#include <string>

namespace isoview {

enum class PlyEncoding { BinaryLittleEndian, Ascii };

enum class MeshSpace {
    Physical,   // millimetres in the volume's patient/world space (LPS for DICOM)
    VoxelIndex, // voxel index units, voxel (i, j, k) at (i, j, k)
};

struct PlyOptions {
    PlyEncoding encoding = PlyEncoding::BinaryLittleEndian;
    MeshSpace space = MeshSpace::Physical;
    // Written into the header comment for MeshSpace::Physical ("SPACE=LPS"); a single word.
    std::string physicalSpaceName = "LPS";
};

void writePly(const std::filesystem::path& path, const IsoMesh& mesh,
              const VolumeGeometry& geometry, const PlyOptions& options = {});

} // namespace isoview
