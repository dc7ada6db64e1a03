#include "core/error.h"
#include "extraction/iso_mesh.h"

#include <limits>
#include <string>
#include <unordered_map>

namespace isoview {

IsoMesh weldByEdgeKey(const std::vector<SoupVertex>& soup)
{
    if (soup.size() % 3 != 0) {
        throw InvalidInputError("triangle stream holds " + std::to_string(soup.size()) +
                                " vertices, not a multiple of 3");
    }
    IsoMesh mesh;
    // On a closed isosurface each vertex is shared by about six triangles; a quarter of the
    // stream is a comfortable upper estimate of the distinct vertices that avoids rehashing.
    const std::size_t expected = soup.size() / 4 + 1;
    std::unordered_map<EdgeKey, std::uint32_t> indexOfKey;
    indexOfKey.reserve(expected);
    mesh.positions.reserve(expected);
    mesh.normals.reserve(expected);
    mesh.edgeKeys.reserve(expected);
    mesh.indices.reserve(soup.size());

    for (const SoupVertex& v : soup) {
        const auto [it, inserted] =
            indexOfKey.try_emplace(v.edgeKey, std::uint32_t(mesh.positions.size()));
        if (inserted) {
            if (mesh.positions.size() == std::numeric_limits<std::uint32_t>::max()) {
                throw InvalidInputError("isosurface has more than 2^32 - 1 distinct vertices");
            }
            mesh.positions.push_back(v.position);
            mesh.normals.push_back(v.normal);
            mesh.edgeKeys.push_back(v.edgeKey);
        }
        mesh.indices.push_back(it->second);
    }
    return mesh;
}

} // namespace isoview
