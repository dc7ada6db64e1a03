#include "extraction/label_surface.h"

#include "core/error.h"

#include <algorithm>
#include <cstddef>
#include <limits>
#include <map>
#include <string>
#include <utility>

namespace isoview {

std::vector<LabelSurface> splitByLabel(const IsoMesh& mesh,
                                       const std::vector<std::uint32_t>& vertexLabels)
{
    if (vertexLabels.size() != mesh.vertexCount())
        throw Error("splitByLabel: one label per vertex is needed");
    // Which labels' meshes use each vertex: a vertex belongs to one label, so one new index
    // each, given in ascending vertex order below.
    constexpr std::uint32_t kUnused = std::numeric_limits<std::uint32_t>::max();
    std::vector<std::uint32_t> newIndex(mesh.vertexCount(), kUnused);
    std::map<std::uint32_t, LabelSurface> byLabel;
    for (std::size_t t = 0; t < mesh.triangleCount(); ++t) {
        const std::uint32_t label = vertexLabels[mesh.indices[3 * t]];
        for (int k = 0; k < 3; ++k) {
            const std::uint32_t v = mesh.indices[3 * t + k];
            if (vertexLabels[v] != label || label == 0) {
                throw Error("splitByLabel: triangle " + std::to_string(t) +
                            " names vertices of different labels or an unused vertex");
            }
            newIndex[v] = 0; // used; numbered below
        }
        byLabel[label].label = label;
    }
    for (std::size_t v = 0; v < mesh.vertexCount(); ++v) {
        if (newIndex[v] == kUnused) continue;
        IsoMesh& out = byLabel.at(vertexLabels[v]).mesh;
        newIndex[v] = std::uint32_t(out.positions.size());
        out.positions.push_back(mesh.positions[v]);
        out.normals.push_back(mesh.normals[v]);
        out.edgeKeys.push_back(mesh.edgeKeys[v]);
    }
    for (std::size_t t = 0; t < mesh.triangleCount(); ++t) {
        IsoMesh& out = byLabel.at(vertexLabels[mesh.indices[3 * t]]).mesh;
        for (int k = 0; k < 3; ++k)
            out.indices.push_back(newIndex[mesh.indices[3 * t + k]]);
    }
    std::vector<LabelSurface> surfaces;
    surfaces.reserve(byLabel.size());
    for (auto& [label, surface] : byLabel)
        surfaces.push_back(std::move(surface));
    return surfaces;
}

} // namespace isoview
