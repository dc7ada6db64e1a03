// Exports an IsoMesh as a Wavefront OBJ text file:
//
//   # isoview OBJ SPACE=LPS units=mm
//   # isoview processing: close-borders smooth=10     (only when processing was applied)
//   # N vertices, M triangles
//   v x y z                     (one line per vertex)
//   vn nx ny nz                 (one line per vertex, unless options.normals is false)
//   f a//a b//b c//c            (1-based; "f a b c" without normals)
//
// Numbers are the shortest text that reads back to the same float, always with '.' as the
// decimal point whatever the C or C++ locale. Coordinates, normals and winding are those of
// MeshCoordinates (mesh_coordinates.h); SPACE is LPS, RAS or voxel (units=index).
//
// Contract: written through AtomicFileWriter, so on any failure or cancellation no partial file
// is left at path and a previous file there is untouched. Throws InvalidInputError when the
// mesh is inconsistent (normal count differs from vertex count, index count not a multiple of
// 3, an index out of range, a non-finite coordinate or normal), IoError when the file cannot be
// written, CancelledError when options.progress returns false. Progress counts records
// (vertices + triangles), every kExportProgressInterval and once at the end. Runs on the
// calling thread.
//
// Example:
//   writeObj("skull.obj", mesh, volume.geometry(), {.normals = false});
#pragma once

#include "extraction/iso_mesh.h"
#include "mesh_export/mesh_coordinates.h"
#include "volume/volume.h"

#include <filesystem>
#include <string>

namespace isoview {

struct ObjOptions {
    MeshSpace space = MeshSpace::Physical;
    PatientAxes axes = PatientAxes::Lps; // MeshSpace::Physical only
    bool normals = true;
    ExportProgressCallback progress = {};
    // Processing applied before export, written as "# isoview processing: <words>" after the
    // first line. Printable ASCII, one line.
    std::string processing = {};
};

void writeObj(const std::filesystem::path& path, const IsoMesh& mesh,
              const VolumeGeometry& geometry, const ObjOptions& options = {});

} // namespace isoview
