#include "mesh_export/merged_surfaces.h"

#include "core/error.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

namespace isoview {

MergedSurfaces mergeSurfaces(const std::vector<ColoredSurface>& parts)
{
    std::uint64_t vertices = 0;
    std::uint64_t indices = 0;
    for (std::size_t p = 0; p < parts.size(); ++p) {
        const IsoMesh& mesh = *parts[p].mesh;
        if (mesh.normals.size() != mesh.vertexCount() ||
            mesh.edgeKeys.size() != mesh.vertexCount()) {
            throw InvalidInputError("cannot merge surface " + std::to_string(p + 1) + ": its " +
                                    std::to_string(mesh.vertexCount()) + " vertices have " +
                                    std::to_string(mesh.normals.size()) + " normals and " +
                                    std::to_string(mesh.edgeKeys.size()) + " edge keys");
        }
        vertices += mesh.vertexCount();
        indices += mesh.indices.size();
    }
    if (vertices > std::numeric_limits<std::uint32_t>::max()) {
        throw InvalidInputError("cannot merge the surfaces: together they have " +
                                std::to_string(vertices) +
                                " vertices, more than one mesh can index (2^32 - 1)");
    }
    MergedSurfaces merged;
    IsoMesh& out = merged.mesh;
    out.positions.reserve(vertices);
    out.normals.reserve(vertices);
    out.edgeKeys.reserve(vertices);
    out.indices.reserve(indices);
    merged.vertexColors.reserve(vertices);
    for (const ColoredSurface& part : parts) {
        const IsoMesh& mesh = *part.mesh;
        const auto offset = std::uint32_t(out.vertexCount());
        out.positions.insert(out.positions.end(), mesh.positions.begin(), mesh.positions.end());
        out.normals.insert(out.normals.end(), mesh.normals.begin(), mesh.normals.end());
        out.edgeKeys.insert(out.edgeKeys.end(), mesh.edgeKeys.begin(), mesh.edgeKeys.end());
        for (std::uint32_t index : mesh.indices)
            out.indices.push_back(index + offset);
        merged.vertexColors.insert(merged.vertexColors.end(), mesh.vertexCount(), part.color);
    }
    return merged;
}

glm::u8vec3 toColor8(const glm::vec3& color)
{
    glm::u8vec3 out;
    for (int c = 0; c < 3; ++c) {
        const float v = std::isfinite(color[c]) ? std::clamp(color[c], 0.0f, 1.0f) : 0.0f;
        out[c] = std::uint8_t(std::lround(v * 255.0f));
    }
    return out;
}

} // namespace isoview
