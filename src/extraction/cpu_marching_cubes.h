// The CPU reference marching cubes: the oracle the GPU extractor is tested against. It
// follows the same rules as the shaders, step for step and in float, so both produce the same
// triangles (same case table, same vertex order) and near-identical positions and normals.
//
// Rules (the GPU implements these exactly):
// - A voxel value v is inside when v >= iso (isInsideIsosurface): +Inf is inside, -Inf and NaN
//   are outside, for every finite isovalue.
// - A vertex on the edge from the lower voxel p0 (value v0) to p0 + e_a (value v1) sits at
//   float(p0) with component a increased by t = edgeCrossing(v0, v1, iso): (iso - v0) /
//   (v1 - v0) when both are finite; at the finite end when the other is not (the limit of that
//   formula as the other end goes to +-Inf; NaN, which has no limit, is placed the same way);
//   0.5 when neither is finite. Positions and normals are therefore always finite.
// - Normals: the index-space gradients at both edge ends (see indexGradient) are mixed by t,
//   mapped to physical space with VolumeGeometry::gradientToPhysical and negated (values grow
//   inward, normals point outward), then normalised; a zero gradient gives a zero normal.
// - Cells are visited z slowest, then y, then x; each cell emits its triangles in case-table
//   order, and the stream is welded by edge key (weldByEdgeKey).
//
// Example:
//   IsoMesh mesh = extractIsosurfaceCpu(volume, volume.rescale().toStored(300.0));
#pragma once

#include "extraction/iso_mesh.h"
#include "extraction/voxel_box.h"
#include "volume/volume.h"

#include <glm/glm.hpp>

#include <cmath>

namespace isoview {

// The one inside rule of isoview (README, shaders/common/flat3d_sampling.glsl, border caps).
inline bool isInsideIsosurface(float value, float iso)
{
    return value >= iso;
}

// Where on a crossed edge (one end inside, one outside) the vertex sits, from v0's end (0) to
// v1's (1); see the rules above.
inline float edgeCrossing(float v0, float v1, float iso)
{
    const bool finite0 = std::isfinite(v0);
    const bool finite1 = std::isfinite(v1);
    if (finite0 && finite1) return (iso - v0) / (v1 - v0); // v0 != v1: one is inside
    if (finite0) return 0.0f;
    if (finite1) return 1.0f;
    return 0.5f;
}

// Extracts the isosurface at isoStored (in stored units, not rescaled ones). Positions are in
// index space; a volume with any dimension of 1 has no cells and gives an empty mesh.
IsoMesh extractIsosurfaceCpu(const Volume& volume, StoredValue isovalue);

// The same limited to the cells inside a crop (all eight corners in `crop`, which must fit the
// volume). Gradients still see the whole volume: a crop cuts the surface, it does not change
// its normals.
IsoMesh extractIsosurfaceCpu(const Volume& volume, StoredValue isovalue, const VoxelBox& crop);

// The index-space gradient at a voxel: central differences inside the volume, one-sided
// differences on its faces, 0 along an axis of extent 1. A non-finite neighbour is replaced
// by the voxel's own value; a non-finite voxel has gradient 0.
glm::vec3 indexGradient(const Volume& volume, glm::uvec3 voxel);

} // namespace isoview
