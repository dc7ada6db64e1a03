#include "support/mesh_compare.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <sstream>
#include <unordered_map>
#include <vector>

namespace isoview::test {
namespace {

using TriangleKey = std::array<EdgeKey, 3>;

// Triangles by edge keys, rotated so the smallest key comes first (the cyclic order, i.e. the
// winding, is kept), then sorted.
std::vector<TriangleKey> triangleKeys(const IsoMesh& mesh)
{
    std::vector<TriangleKey> keys;
    keys.reserve(mesh.triangleCount());
    for (std::size_t t = 0; t < mesh.triangleCount(); ++t) {
        TriangleKey k{mesh.edgeKeys[mesh.indices[3 * t]], mesh.edgeKeys[mesh.indices[3 * t + 1]],
                      mesh.edgeKeys[mesh.indices[3 * t + 2]]};
        const auto smallest = std::min_element(k.begin(), k.end());
        std::rotate(k.begin(), smallest, k.end());
        keys.push_back(k);
    }
    std::sort(keys.begin(), keys.end());
    return keys;
}

} // namespace

std::string MeshComparison::describe() const
{
    std::ostringstream s;
    s << "triangles " << trianglesA << " vs " << trianglesB << ", vertices " << verticesA << " vs "
      << verticesB << ", unmatched triangles " << unmatchedTriangles << ", unmatched vertices "
      << unmatchedVertices << ", max position distance " << maxPositionDistance
      << ", max normal angle " << maxNormalAngleDegrees << " deg (" << normalsBeyondOneDegree
      << " beyond 1 deg), non-finite positions " << nonFinitePositions;
    return s.str();
}

MeshComparison compareMeshes(const IsoMesh& a, const IsoMesh& b)
{
    MeshComparison c;
    c.trianglesA = a.triangleCount();
    c.trianglesB = b.triangleCount();
    c.verticesA = a.vertexCount();
    c.verticesB = b.vertexCount();

    const std::vector<TriangleKey> ka = triangleKeys(a);
    const std::vector<TriangleKey> kb = triangleKeys(b);
    std::vector<TriangleKey> difference;
    std::set_symmetric_difference(ka.begin(), ka.end(), kb.begin(), kb.end(),
                                  std::back_inserter(difference));
    c.unmatchedTriangles = difference.size();

    std::unordered_map<EdgeKey, std::size_t> indexInB;
    indexInB.reserve(b.vertexCount());
    for (std::size_t i = 0; i < b.vertexCount(); ++i)
        indexInB.emplace(b.edgeKeys[i], i);
    for (std::size_t i = 0; i < a.vertexCount(); ++i) {
        const glm::vec3 pa = a.positions[i];
        if (!std::isfinite(pa.x) || !std::isfinite(pa.y) || !std::isfinite(pa.z)) {
            ++c.nonFinitePositions;
        }
        const auto it = indexInB.find(a.edgeKeys[i]);
        if (it == indexInB.end()) {
            ++c.unmatchedVertices;
            continue;
        }
        c.maxPositionDistance =
            std::max(c.maxPositionDistance, double(glm::length(pa - b.positions[it->second])));
        const glm::vec3 na = a.normals[i];
        const glm::vec3 nb = b.normals[it->second];
        if (glm::length(na) > 0.5f && glm::length(nb) > 0.5f) {
            const double cosine = std::clamp(double(glm::dot(na, nb)), -1.0, 1.0);
            const double angle = std::acos(cosine) * 180.0 / 3.14159265358979323846;
            c.maxNormalAngleDegrees = std::max(c.maxNormalAngleDegrees, angle);
            if (angle > 1.0) ++c.normalsBeyondOneDegree;
        } else if ((glm::length(na) > 0.5f) != (glm::length(nb) > 0.5f)) {
            ++c.normalsBeyondOneDegree; // one has a normal, the other none
        }
    }
    return c;
}

} // namespace isoview::test
