// An extracted isosurface as an indexed triangle mesh, welded by cell-edge identity.
//
// Positions are in voxel index space (voxel (i, j, k) at point (i, j, k)); normals are unit
// vectors in physical space (see VolumeGeometry::gradientToPhysical), pointing outward, away
// from the inside (values >= isovalue). Every vertex lies on one grid edge and carries that
// edge's key, so the CPU reference and the GPU capture can be compared vertex by vertex and
// welding is exact (no epsilon).
#pragma once

#include <glm/glm.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace isoview {

// Grid-edge identity: (linear index of the edge's lower voxel) * 3 + axis.
using EdgeKey = std::uint64_t;

constexpr EdgeKey makeEdgeKey(std::uint64_t lowerVoxelIndex, int axis)
{
    return lowerVoxelIndex * 3u + std::uint64_t(axis);
}

struct IsoMesh {
    std::vector<glm::vec3> positions;   // index space
    std::vector<glm::vec3> normals;     // physical space, unit (zero where the gradient vanishes)
    std::vector<EdgeKey> edgeKeys;      // one per vertex, unique
    std::vector<std::uint32_t> indices; // 3 per triangle, counter-clockwise seen from outside

    std::size_t vertexCount() const { return positions.size(); }
    std::size_t triangleCount() const { return indices.size() / 3; }
};

// One vertex of an unwelded triangle stream (three consecutive vertices per triangle), as the
// GPU captures it.
struct SoupVertex {
    glm::vec3 position;
    glm::vec3 normal;
    EdgeKey edgeKey;
};

// Welds a triangle stream into an IsoMesh: vertices with the same edge key become one (the
// first occurrence's position and normal are kept). Triangle order and winding are preserved.
IsoMesh weldByEdgeKey(const std::vector<SoupVertex>& soup);

} // namespace isoview
