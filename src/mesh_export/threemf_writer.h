// Exports one or more IsoMeshes as a 3MF file (3D Manufacturing Format), the package today's
// slicers prefer to STL: a ZIP holding an XML model with shared vertices, a unit, and named,
// coloured objects. Written through lib3mf (the 3MF Consortium's reference library), never by
// hand, so the package (content types, relationships, model schema) is what readers expect.
//
// What is written:
// - unit "millimeter"; positions in physical millimetres (LPS, or RAS on request), mapped and
//   wound as MeshCoordinates (mesh_coordinates.h) maps them for every format (lib3mf 1.8
//   writes six decimals: positions to the micrometre, not float round trip as PLY/STL);
// - one mesh object per surface with triangles, named by its NamedMesh::name and coloured
//   through one base material group (a material per surface, opaque displaycolor, the object's
//   default property); one build item per object, without transform. Surfaces without
//   triangles are left out (a 3MF object needs at least one);
// - model metadata "Application" = "isoview" and "Description" = "isoview surfaces SPACE=LPS
//   units=mm", followed by " processing: <words>" when options.processing is set.
//
// Contract: the package is built in memory, then written through AtomicFileWriter, so on any
// failure or cancellation no partial file is left at path and a previous file there is
// untouched. Throws InvalidInputError when a mesh is inconsistent (see validateMeshForExport),
// holds more than 2^32 - 1 vertices or triangles or a non-finite coordinate, when no surface
// has triangles, when options.space is MeshSpace::VoxelIndex (3MF positions are lengths in its
// unit) or the processing note is not printable ASCII; IoError when lib3mf or the file fails;
// CancelledError when options.progress returns false. Progress counts triangles (of all
// surfaces together), every kExportProgressInterval and once at the end. Runs on the calling
// thread; memory: the mesh once more as lib3mf's copy, plus the compressed package.
//
// Example:
//   writeThreeMf("head.3mf", {{&skin, "skin", {230, 217, 191}}, {&bone, "bone", {255, 255, 240}}},
//                volume.geometry(), {});
#pragma once

#include "extraction/iso_mesh.h"
#include "mesh_export/mesh_coordinates.h"
#include "volume/volume.h"

#include <glm/glm.hpp>

#include <filesystem>
#include <string>
#include <vector>

namespace isoview {

// A surface to write as one 3MF object. mesh must outlive the call.
struct NamedMesh {
    const IsoMesh* mesh = nullptr;
    std::string name;
    glm::u8vec3 color{255, 255, 255};
};

struct ThreeMfOptions {
    MeshSpace space = MeshSpace::Physical; // VoxelIndex is refused
    PatientAxes axes = PatientAxes::Lps;
    ExportProgressCallback progress = {};
    // Processing applied before export (print_preparation.h's describeSteps), recorded in the
    // model's "Description" metadata. Printable ASCII, one line.
    std::string processing = {};
};

void writeThreeMf(const std::filesystem::path& path, const std::vector<NamedMesh>& surfaces,
                  const VolumeGeometry& geometry, const ThreeMfOptions& options = {});

} // namespace isoview
