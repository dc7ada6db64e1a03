// Compares two welded isosurface meshes vertex by vertex through their edge keys: the way the
// GPU capture is checked against the CPU reference.
#pragma once

#include "extraction/iso_mesh.h"

#include <cstddef>
#include <string>

namespace isoview::test {

struct MeshComparison {
    std::size_t trianglesA = 0, trianglesB = 0;
    std::size_t verticesA = 0, verticesB = 0;
    // Triangles (as edge-key triples, same winding) present in one mesh but not the other.
    std::size_t unmatchedTriangles = 0;
    // Vertices of A whose edge key B lacks.
    std::size_t unmatchedVertices = 0;
    double maxPositionDistance = 0.0; // index-space units (voxels)
    double maxNormalAngleDegrees = 0.0;
    std::size_t normalsBeyondOneDegree = 0;
    std::size_t nonFinitePositions = 0;

    std::string describe() const;
};

MeshComparison compareMeshes(const IsoMesh& a, const IsoMesh& b);

} // namespace isoview::test
