// Exports an IsoMesh as a binary STL file, the format 3D printing and CAD tools expect:
//
//   80-byte header    "isoview binary STL SPACE=LPS units=mm", padded with zero bytes (never
//                     starting with "solid", which readers take for ASCII STL)
//   uint32            triangle count
//   per triangle      float normal[3], float vertex[3][3], uint16 attribute (0)
//
// all little-endian on every host. STL has no shared vertices and no vertex normals: every
// triangle carries its corners and a facet normal, computed (in double) from the corner
// positions as written, in the output space and winding, so it agrees with the
// counter-clockwise order and points outward. A degenerate triangle gets a zero normal.
// Coordinates and winding are those of MeshCoordinates (mesh_coordinates.h); SPACE is LPS,
// RAS or voxel (units=index).
//
// Contract: written through AtomicFileWriter, so on any failure or cancellation no partial file
// is left at path and a previous file there is untouched. Throws InvalidInputError when the
// mesh is inconsistent (normal count differs from vertex count, index count not a multiple of
// 3, an index out of range, more than 2^32 - 1 triangles, a non-finite coordinate), IoError
// when the file cannot be written, CancelledError when options.progress returns false.
// Progress counts triangles, every kExportProgressInterval and once at the end. Runs on the
// calling thread.
//
// Example:
//   writeStl("skull.stl", mesh, volume.geometry(), {.axes = PatientAxes::Ras});
#pragma once

#include "extraction/iso_mesh.h"
#include "mesh_export/mesh_coordinates.h"
#include "volume/volume.h"

#include <filesystem>
#include <string>

namespace isoview {

struct StlOptions {
    MeshSpace space = MeshSpace::Physical;
    PatientAxes axes = PatientAxes::Lps; // MeshSpace::Physical only
    ExportProgressCallback progress = {};
    // Processing applied before export (print_preparation.h's describeSteps), appended to the
    // header as " processing: <words>" as far as its 80 bytes go. Printable ASCII, one line.
    std::string processing = {};
};

void writeStl(const std::filesystem::path& path, const IsoMesh& mesh,
              const VolumeGeometry& geometry, const StlOptions& options = {});

} // namespace isoview
