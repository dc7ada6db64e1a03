#include "mesh_processing/physical_mesh.h"

#include "core/error.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

namespace isoview {
namespace {

void reverseWinding(IsoMesh& mesh)
{
    for (std::size_t t = 0; t + 2 < mesh.indices.size(); t += 3) {
        std::swap(mesh.indices[t + 1], mesh.indices[t + 2]);
    }
}

} // namespace

IsoMesh toPhysicalMesh(const IsoMesh& indexMesh, const VolumeGeometry& geometry)
{
    IsoMesh mesh = indexMesh;
    for (glm::vec3& p : mesh.positions)
        p = glm::vec3(geometry.toPhysical(glm::dvec3(p)));
    if (geometry.isMirrored()) reverseWinding(mesh);
    return mesh;
}

IsoMesh toIndexMesh(const IsoMesh& physicalMesh, const VolumeGeometry& geometry)
{
    if (geometry.hasSliceOrigins()) {
        throw InvalidInputError("a processed mesh of a tilted or unevenly spaced stack cannot be "
                                "written in voxel coordinates; write it in millimetres instead");
    }
    const glm::dmat4 toPhysical = geometry.indexToPhysical();
    if (std::abs(glm::determinant(toPhysical)) < 1e-300) {
        throw InvalidInputError("the volume's geometry is singular: no voxel coordinates");
    }
    const glm::dmat4 toIndex = glm::inverse(toPhysical);
    IsoMesh mesh = physicalMesh;
    // Normals stay physical: that is what an index-space IsoMesh carries (iso_mesh.h).
    for (glm::vec3& p : mesh.positions)
        p = glm::vec3(toIndex * glm::dvec4(glm::dvec3(p), 1.0));
    if (geometry.isMirrored()) reverseWinding(mesh);
    return mesh;
}

void recomputeNormalsAndKeys(IsoMesh& mesh)
{
    std::vector<glm::dvec3> sums(mesh.positions.size(), glm::dvec3(0.0));
    for (std::size_t t = 0; t + 2 < mesh.indices.size(); t += 3) {
        const glm::dvec3 a(mesh.positions[mesh.indices[t]]);
        const glm::dvec3 b(mesh.positions[mesh.indices[t + 1]]);
        const glm::dvec3 c(mesh.positions[mesh.indices[t + 2]]);
        // The cross product's length is twice the area: an area-weighted sum.
        const glm::dvec3 n = glm::cross(b - a, c - a);
        for (int corner = 0; corner < 3; ++corner)
            sums[mesh.indices[t + std::size_t(corner)]] += n;
    }
    mesh.normals.resize(mesh.positions.size());
    mesh.edgeKeys.resize(mesh.positions.size());
    for (std::size_t v = 0; v < sums.size(); ++v) {
        const double length = glm::length(sums[v]);
        mesh.normals[v] = length > 0.0 ? glm::vec3(sums[v] / length) : glm::vec3(0.0f);
        mesh.edgeKeys[v] = EdgeKey(v);
    }
}

void removeUnreferencedVertices(IsoMesh& mesh)
{
    constexpr std::uint32_t kUnused = std::numeric_limits<std::uint32_t>::max();
    std::vector<std::uint32_t> newIndex(mesh.positions.size(), kUnused);
    for (std::uint32_t i : mesh.indices)
        newIndex[i] = 0;
    std::uint32_t next = 0;
    for (std::size_t v = 0; v < newIndex.size(); ++v) {
        if (newIndex[v] == kUnused) continue;
        newIndex[v] = next;
        mesh.positions[next] = mesh.positions[v];
        if (v < mesh.normals.size()) mesh.normals[next] = mesh.normals[v];
        if (v < mesh.edgeKeys.size()) mesh.edgeKeys[next] = mesh.edgeKeys[v];
        ++next;
    }
    mesh.positions.resize(next);
    mesh.normals.resize(std::min<std::size_t>(mesh.normals.size(), next));
    mesh.edgeKeys.resize(std::min<std::size_t>(mesh.edgeKeys.size(), next));
    for (std::uint32_t& i : mesh.indices)
        i = newIndex[i];
}

} // namespace isoview
