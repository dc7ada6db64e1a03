// Zero-area triangles out of an extracted surface. Marching cubes puts a vertex on a voxel's
// centre when the voxel holds exactly the isovalue (integer data at a whole-number isovalue),
// once for every crossing edge that meets that voxel: the vertices coincide and the triangles
// between them have no area (a third of a label volume's triangles at 13). Welding the
// coincident vertices removes exactly those triangles; every other triangle keeps its corners,
// so the surface does not move (but for the rare vertices kept apart, by a thousandth of an
// edge).
//
// Example:
//   const std::size_t dropped = weldCoincidentVertices(mesh); // before export
#pragma once

#include "extraction/iso_mesh.h"

#include <cstddef>

namespace isoview {

// Merges vertices whose positions are bitwise equal (the first one's normal and edge key stay),
// drops the triangles that then name a vertex twice, and the vertices no triangle uses. Returns
// the number of triangles dropped. A merge that would make an edge of more than two triangles
// (the surface touching a cap, or itself, at a voxel holding the isovalue) is not made: those
// vertices instead move a thousandth of the way towards their neighbours, so no triangle is
// left without area and the mesh stays manifold. Linear in the mesh's size, a few rounds.
std::size_t weldCoincidentVertices(IsoMesh& mesh);

} // namespace isoview
