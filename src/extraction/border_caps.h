// Closing an isosurface where it meets the border of the volume (or of the crop box): the
// surface is completed as if the box were surrounded by one layer of voxels outside the
// isovalue, so a head cut by the field of view becomes a closed solid that can be printed.
//
// How: marching cubes runs, with the same case table, over the shell of cells that a one-voxel
// padding adds around the box. Their crossed edges are of two kinds:
// - edges between two voxels of the box, on its faces: these are edges of the surface already
//   extracted, and the cap reuses that mesh's vertex (welded by edge key), so the cap and the
//   surface share their rim exactly;
// - edges from a voxel of the box to the padding: the vertex sits on the box voxel itself (the
//   cap lies in the plane of the outermost voxel centres, where the surface ends), with the
//   outward face direction as its normal, keyed by capEdgeKey.
// The case table is watertight (neighbouring cells agree on every shared face), so the closed
// mesh has no boundary edges by construction. Where two or three faces of the box meet, some
// cap triangles have coincident corners (zero area); they keep the mesh closed and add nothing
// to its area or volume.
//
// The mesh may come from the CPU reference or from the GPU capture: both key vertices by grid
// edge identically, which is what makes the GPU path close exactly as the CPU one does.
//
// Example:
//   IsoMesh open = extractIsosurfaceCpu(volume, iso, crop);
//   IsoMesh closed = closeAtBorders(open, volume, iso, crop);
#pragma once

#include "extraction/iso_mesh.h"
#include "extraction/voxel_box.h"
#include "volume/volume.h"

namespace isoview {

// Keys of cap vertices lie above every grid edge key (bit 63 set).
inline constexpr EdgeKey kCapEdgeKeyFlag = EdgeKey(1) << 63;

// The key of the cap vertex on the edge from box voxel `linearVoxelIndex` outward along
// `axis`, towards lower indices (upperSide false) or higher ones (true).
constexpr EdgeKey capEdgeKey(std::uint64_t linearVoxelIndex, int axis, bool upperSide)
{
    return kCapEdgeKeyFlag | (makeEdgeKey(linearVoxelIndex, axis) * 2u + (upperSide ? 1u : 0u));
}

// `surface` (index space, extracted at isoStored from the cells of `crop`) with the caps that
// close it at the crop's faces appended. Returns the surface unchanged when the box is one voxel
// thick along some axis (it has no cells). Throws InvalidInputError when surface lacks a rim
// vertex the caps need (it was not extracted from this volume, isovalue and crop).
IsoMesh closeAtBorders(const IsoMesh& surface, const Volume& volume, StoredValue isovalue,
                       const VoxelBox& crop);

} // namespace isoview
