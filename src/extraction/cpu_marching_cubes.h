// The CPU reference marching cubes: the oracle the GPU extractor is tested against. It
// follows the same rules as the shaders, step for step and in float, so both produce the same
// triangles (same case table, same vertex order) and near-identical positions and normals.
//
// Rules (the GPU implements these exactly):
// - A voxel value v is inside when isfinite(v) && v >= iso (NaN and Inf are outside).
// - A vertex on the edge from the lower voxel p0 (value v0) to p0 + e_a (value v1) sits at
//   float(p0) with component a increased by t, where t = (iso - v0) / (v1 - v0), or 0.5 when
//   v0 or v1 is not finite.
// - Normals: the index-space gradients at both edge ends (see indexGradient) are mixed by t,
//   mapped to physical space with VolumeGeometry::gradientToPhysical and negated (values grow
//   inward, normals point outward), then normalised; a zero gradient gives a zero normal.
// - Cells are visited z slowest, then y, then x; each cell emits its triangles in case-table
//   order, and the stream is welded by edge key (weldByEdgeKey).
//
// Example:
//   IsoMesh mesh = extractIsosurfaceCpu(volume, float(volume.rescale().toStored(300.0)));
#pragma once

#include "extraction/iso_mesh.h"
#include "extraction/voxel_box.h"
#include "volume/volume.h"

#include <glm/glm.hpp>

namespace isoview {

// Extracts the isosurface at isoStored (in stored units, not rescaled ones). Positions are in
// index space; a volume with any dimension of 1 has no cells and gives an empty mesh.
IsoMesh extractIsosurfaceCpu(const Volume& volume, float isoStored);

// The same limited to the cells inside a crop (all eight corners in `crop`, which must fit the
// volume). Gradients still see the whole volume: a crop cuts the surface, it does not change
// its normals.
IsoMesh extractIsosurfaceCpu(const Volume& volume, float isoStored, const VoxelBox& crop);

// The index-space gradient at a voxel: central differences inside the volume, one-sided
// differences on its faces, 0 along an axis of extent 1. A non-finite neighbour is replaced
// by the voxel's own value; a non-finite voxel has gradient 0.
glm::vec3 indexGradient(const Volume& volume, glm::uvec3 voxel);

} // namespace isoview
