// Measurements of an indexed triangle mesh, used by the tests to check extracted isosurfaces
// against analytic answers (a sphere's area and volume) and topological invariants (closed,
// manifold, consistently oriented, Euler characteristic).
//
// Example:
//   MeshTopology topo = analyzeTopology(mesh);
//   bool closed = topo.boundaryEdges == 0 && topo.nonManifoldEdges == 0;
//   double mm3 = enclosedVolume(mesh, volume.geometry().indexToPhysical());
#pragma once

#include "extraction/iso_mesh.h"

#include <glm/glm.hpp>

#include <cstddef>

namespace isoview {

struct MeshTopology {
    // Undirected edges, identified by their two vertex indices.
    std::size_t edges = 0;
    // Edges used by exactly one triangle (the rim of an open surface).
    std::size_t boundaryEdges = 0;
    // Edges used by more than two triangles.
    std::size_t nonManifoldEdges = 0;
    // Edges traversed more than once in the same direction: on a consistently oriented
    // surface each interior edge is traversed once each way.
    std::size_t inconsistentlyOrientedEdges = 0;
    // V - E + F, counting only vertices that some triangle references (2 for a sphere).
    long long eulerCharacteristic = 0;
};

// Throws InvalidInputError when the index count is not a multiple of 3 or an index is out of
// range (this applies to the three functions).
MeshTopology analyzeTopology(const IsoMesh& mesh);

// Total triangle area after mapping positions through indexToSpace (e.g.
// VolumeGeometry::indexToPhysical() for square millimetres).
double surfaceArea(const IsoMesh& mesh, const glm::dmat4& indexToSpace = glm::dmat4(1.0));

// Signed enclosed volume by the divergence theorem (sum of signed tetrahedra against the
// origin), after mapping positions through indexToSpace. Positive for a closed surface wound
// counter-clockwise seen from outside. A mirroring transform (negative determinant) flips the
// sign, because it turns counter-clockwise into clockwise: that is why exporters reverse the
// winding when VolumeGeometry::isMirrored(). Only meaningful for closed meshes.
double enclosedVolume(const IsoMesh& mesh, const glm::dmat4& indexToSpace = glm::dmat4(1.0));

} // namespace isoview
