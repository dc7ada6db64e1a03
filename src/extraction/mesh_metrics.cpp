#include "extraction/mesh_metrics.h"

#include "core/error.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace isoview {
namespace {

void validate(const IsoMesh& mesh)
{
    if (mesh.indices.size() % 3 != 0) {
        throw InvalidInputError("mesh has " + std::to_string(mesh.indices.size()) +
                                " indices, not a multiple of 3");
    }
    for (std::uint32_t index : mesh.indices) {
        if (index >= mesh.positions.size()) {
            throw InvalidInputError("mesh index " + std::to_string(index) + " is out of range (" +
                                    std::to_string(mesh.positions.size()) + " vertices)");
        }
    }
}

glm::dvec3 transformed(const IsoMesh& mesh, std::uint32_t index, const glm::dmat4& m)
{
    return glm::dvec3(m * glm::dvec4(glm::dvec3(mesh.positions[index]), 1.0));
}

} // namespace

MeshTopology analyzeTopology(const IsoMesh& mesh)
{
    validate(mesh);

    // Per undirected edge (low index, high index): how often it is traversed low->high and
    // high->low.
    struct Uses {
        std::uint32_t forward = 0;
        std::uint32_t backward = 0;
    };
    std::unordered_map<std::uint64_t, Uses> edges;
    edges.reserve(mesh.indices.size());
    std::vector<bool> referenced(mesh.positions.size(), false);

    const std::size_t triangles = mesh.triangleCount();
    for (std::size_t t = 0; t < triangles; ++t) {
        for (int corner = 0; corner < 3; ++corner) {
            const std::uint32_t a = mesh.indices[3 * t + std::size_t(corner)];
            const std::uint32_t b = mesh.indices[3 * t + std::size_t((corner + 1) % 3)];
            referenced[a] = true;
            const std::uint64_t lo = std::min(a, b);
            const std::uint64_t hi = std::max(a, b);
            Uses& uses = edges[(lo << 32) | hi];
            if (a <= b) {
                ++uses.forward;
            } else {
                ++uses.backward;
            }
        }
    }

    MeshTopology topology;
    topology.edges = edges.size();
    for (const auto& [key, uses] : edges) {
        const std::uint32_t total = uses.forward + uses.backward;
        if (total == 1) ++topology.boundaryEdges;
        if (total > 2) ++topology.nonManifoldEdges;
        if (uses.forward > 1 || uses.backward > 1) ++topology.inconsistentlyOrientedEdges;
    }
    long long vertices = 0;
    for (bool r : referenced)
        vertices += r ? 1 : 0;
    topology.eulerCharacteristic =
        vertices - static_cast<long long>(edges.size()) + static_cast<long long>(triangles);
    return topology;
}

double surfaceArea(const IsoMesh& mesh, const glm::dmat4& indexToSpace)
{
    validate(mesh);
    double area = 0.0;
    for (std::size_t t = 0; t < mesh.indices.size(); t += 3) {
        const glm::dvec3 a = transformed(mesh, mesh.indices[t], indexToSpace);
        const glm::dvec3 b = transformed(mesh, mesh.indices[t + 1], indexToSpace);
        const glm::dvec3 c = transformed(mesh, mesh.indices[t + 2], indexToSpace);
        area += 0.5 * glm::length(glm::cross(b - a, c - a));
    }
    return area;
}

double enclosedVolume(const IsoMesh& mesh, const glm::dmat4& indexToSpace)
{
    validate(mesh);
    // Each triangle spans a signed tetrahedron with the origin; on a closed surface the origin's
    // choice cancels out. Measuring against the first vertex instead of (0, 0, 0) keeps the
    // terms small and so limits rounding for meshes far from the origin.
    if (mesh.indices.empty()) return 0.0;
    const glm::dvec3 origin = transformed(mesh, mesh.indices[0], indexToSpace);
    double sixTimesVolume = 0.0;
    for (std::size_t t = 0; t < mesh.indices.size(); t += 3) {
        const glm::dvec3 a = transformed(mesh, mesh.indices[t], indexToSpace) - origin;
        const glm::dvec3 b = transformed(mesh, mesh.indices[t + 1], indexToSpace) - origin;
        const glm::dvec3 c = transformed(mesh, mesh.indices[t + 2], indexToSpace) - origin;
        sixTimesVolume += glm::dot(a, glm::cross(b, c));
    }
    return sixTimesVolume / 6.0;
}

} // namespace isoview
