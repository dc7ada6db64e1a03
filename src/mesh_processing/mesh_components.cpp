#include "mesh_processing/mesh_components.h"

#include "mesh_processing/physical_mesh.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace isoview {
namespace {

// Union-find over vertices, with path halving and union by size.
class DisjointSets {
public:
    explicit DisjointSets(std::size_t n) : m_parent(n), m_size(n, 1)
    {
        std::iota(m_parent.begin(), m_parent.end(), std::uint32_t(0));
    }
    std::uint32_t find(std::uint32_t x)
    {
        while (m_parent[x] != x) {
            m_parent[x] = m_parent[m_parent[x]];
            x = m_parent[x];
        }
        return x;
    }
    void unite(std::uint32_t a, std::uint32_t b)
    {
        a = find(a);
        b = find(b);
        if (a == b) return;
        if (m_size[a] < m_size[b]) std::swap(a, b);
        m_parent[b] = a;
        m_size[a] += m_size[b];
    }

private:
    std::vector<std::uint32_t> m_parent;
    std::vector<std::uint32_t> m_size;
};

} // namespace

MeshComponents findComponents(const IsoMesh& mesh)
{
    DisjointSets sets(mesh.positions.size());
    const std::size_t triangles = mesh.triangleCount();
    for (std::size_t t = 0; t < triangles; ++t) {
        sets.unite(mesh.indices[3 * t], mesh.indices[3 * t + 1]);
        sets.unite(mesh.indices[3 * t], mesh.indices[3 * t + 2]);
    }
    MeshComponents result;
    result.ofTriangle.resize(triangles);
    constexpr std::uint32_t kNone = ~std::uint32_t(0);
    std::vector<std::uint32_t> idOfRoot(mesh.positions.size(), kNone);
    for (std::size_t t = 0; t < triangles; ++t) {
        const std::uint32_t root = sets.find(mesh.indices[3 * t]);
        if (idOfRoot[root] == kNone) {
            idOfRoot[root] = std::uint32_t(result.count++);
            result.triangles.push_back(0);
            result.volume.push_back(0.0);
        }
        const std::uint32_t id = idOfRoot[root];
        result.ofTriangle[t] = id;
        ++result.triangles[id];
        const glm::dvec3 a(mesh.positions[mesh.indices[3 * t]]);
        const glm::dvec3 b(mesh.positions[mesh.indices[3 * t + 1]]);
        const glm::dvec3 c(mesh.positions[mesh.indices[3 * t + 2]]);
        result.volume[id] += glm::dot(a, glm::cross(b, c)) / 6.0;
    }
    return result;
}

ComponentFilterResult filterComponents(const IsoMesh& mesh, const ComponentFilter& filter)
{
    const MeshComponents pieces = findComponents(mesh);
    std::vector<bool> keep(pieces.count, true);
    for (std::size_t p = 0; p < pieces.count; ++p) {
        if (pieces.triangles[p] < filter.minTriangles) keep[p] = false;
        if (std::abs(pieces.volume[p]) < filter.minVolume) keep[p] = false;
    }
    if (filter.keepLargest && pieces.count > 0) {
        const auto largest =
            std::size_t(std::max_element(pieces.triangles.begin(), pieces.triangles.end()) -
                        pieces.triangles.begin());
        std::fill(keep.begin(), keep.end(), false);
        keep[largest] = true;
    }

    ComponentFilterResult result;
    result.before = pieces.count;
    result.dropped = std::size_t(std::count(keep.begin(), keep.end(), false));
    result.mesh.positions = mesh.positions;
    result.mesh.normals = mesh.normals;
    result.mesh.edgeKeys = mesh.edgeKeys;
    result.mesh.indices.reserve(mesh.indices.size());
    for (std::size_t t = 0; t < pieces.ofTriangle.size(); ++t) {
        if (!keep[pieces.ofTriangle[t]]) continue;
        result.mesh.indices.insert(result.mesh.indices.end(), mesh.indices.begin() + 3 * t,
                                   mesh.indices.begin() + 3 * t + 3);
    }
    removeUnreferencedVertices(result.mesh);
    return result;
}

} // namespace isoview
