// The print-preparation steps work on meshes in physical millimetres, where distances, areas
// and volumes mean what a printer means: an extracted IsoMesh (index space) is mapped there
// once, and back to index space only when a file asks for voxel coordinates.
//
// A physical mesh is an IsoMesh whose positions are millimetres (the volume's patient/world
// space, LPS for DICOM), wound counter-clockwise seen from outside in that space, with unit
// normals. Its edgeKeys no longer name grid edges once a step has moved or merged vertices;
// the steps renumber them (key = vertex index) so they stay unique.
//
// Example:
//   IsoMesh mm = toPhysicalMesh(surface, volume.geometry());
//   exportMesh(path, mm, VolumeGeometry{}, options); // identity: positions are already mm
#pragma once

#include "extraction/iso_mesh.h"
#include "volume/volume.h"

namespace isoview {

// Positions through VolumeGeometry::toPhysical (per-slice origins honoured); normals kept
// (they are physical already); winding reversed where the geometry mirrors space, so that
// counter-clockwise still faces outward.
IsoMesh toPhysicalMesh(const IsoMesh& indexMesh, const VolumeGeometry& geometry);

// The inverse, for export in voxel coordinates: positions through the inverse of
// indexToPhysical, winding restored. Throws InvalidInputError for stacks with per-slice origins
// (their map is not one affine transform) or a singular geometry.
IsoMesh toIndexMesh(const IsoMesh& physicalMesh, const VolumeGeometry& geometry);

// Area-weighted vertex normals from the triangles (zero for a vertex whose triangles have no
// area), and edge keys renumbered to the vertex indices.
void recomputeNormalsAndKeys(IsoMesh& mesh);

// Drops vertices no triangle references, renumbering indices (order kept).
void removeUnreferencedVertices(IsoMesh& mesh);

} // namespace isoview
