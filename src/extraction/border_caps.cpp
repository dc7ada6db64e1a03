// Caps over the shell of padded cells; see border_caps.h for the construction.
#include "extraction/border_caps.h"

#include "core/error.h"
#include "extraction/cpu_marching_cubes.h"
#include "extraction/marching_cubes_tables.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <unordered_map>

namespace isoview {
namespace {

// Signed voxel coordinates: the padding sits at first - 1 and last + 1.
using Point = glm::i64vec3;

class CapBuilder {
public:
    CapBuilder(const IsoMesh& surface, const Volume& volume, float iso, const VoxelBox& crop)
        : m_mesh(surface), m_volume(volume), m_iso(iso), m_first(crop.first), m_last(crop.last)
    {
        m_indexOfKey.reserve(surface.edgeKeys.size());
        for (std::size_t v = 0; v < surface.edgeKeys.size(); ++v) {
            m_indexOfKey.emplace(surface.edgeKeys[v], std::uint32_t(v));
        }
    }

    void addCell(const Point& cell)
    {
        Point corner[8];
        bool real[8];
        unsigned caseIndex = 0;
        for (int c = 0; c < 8; ++c) {
            corner[c] = cell + Point(mc::cornerOffset(c, 0), mc::cornerOffset(c, 1),
                                     mc::cornerOffset(c, 2));
            real[c] = glm::all(glm::greaterThanEqual(corner[c], m_first)) &&
                      glm::all(glm::lessThanEqual(corner[c], m_last));
            // The padding is outside; real voxels follow the extraction's rule (+Inf inside).
            if (real[c] && isInsideIsosurface(m_volume.valueAt(linear(corner[c])), m_iso)) {
                caseIndex |= 1u << c;
            }
        }
        const mc::CaseTables& tables = mc::caseTables();
        const int count = tables.vertexCount[caseIndex];
        for (int v = 0; v < count; ++v) {
            const int edge = tables.triangleEdges[caseIndex][std::size_t(v)];
            const int c0 = mc::kEdgeCorners[std::size_t(edge)][0];
            const int c1 = mc::kEdgeCorners[std::size_t(edge)][1];
            m_mesh.indices.push_back(
                vertexOn(corner[c0], real[c0], corner[c1], real[c1], mc::edgeAxis(edge)));
        }
    }

    IsoMesh take() { return std::move(m_mesh); }

private:
    std::uint64_t linear(const Point& p) const
    {
        const glm::uvec3 d = m_volume.dims();
        return std::uint64_t(p.x) +
               std::uint64_t(d.x) * (std::uint64_t(p.y) + std::uint64_t(d.y) * std::uint64_t(p.z));
    }

    std::uint32_t vertexOn(const Point& lower, bool lowerReal, const Point& upper, bool upperReal,
                           int axis)
    {
        if (lowerReal && upperReal) {
            // An edge on the box's face: the surface's own rim vertex.
            const EdgeKey key = makeEdgeKey(linear(lower), axis);
            const auto it = m_indexOfKey.find(key);
            if (it == m_indexOfKey.end()) {
                throw InvalidInputError("closing the surface at the border: the surface has no "
                                        "vertex on grid edge " +
                                        std::to_string(key) +
                                        "; it was not extracted from this volume, isovalue and "
                                        "crop");
            }
            return it->second;
        }
        // From a box voxel to the padding: the vertex sits on the box voxel.
        const bool upperSide = lowerReal;
        const Point& voxel = lowerReal ? lower : upper;
        const EdgeKey key = capEdgeKey(linear(voxel), axis, upperSide);
        const auto [it, inserted] = m_indexOfKey.try_emplace(key, 0u);
        if (!inserted) return it->second;
        if (m_mesh.positions.size() >= std::numeric_limits<std::uint32_t>::max()) {
            throw InvalidInputError("the closed surface has more than 2^32 - 1 vertices");
        }
        it->second = std::uint32_t(m_mesh.positions.size());
        m_mesh.positions.emplace_back(voxel);
        m_mesh.normals.push_back(outwardNormal(std::size_t(voxel.z), axis, upperSide));
        m_mesh.edgeKeys.push_back(key);
        return it->second;
    }

    // The physical normal of the box face perpendicular to index axis `axis`: the gradient of
    // that index coordinate, mapped like the surface's normals are.
    glm::vec3 outwardNormal(std::size_t slice, int axis, bool upperSide) const
    {
        glm::dvec3 n = m_volume.geometry().voxelGradientToPhysical(slice)[axis];
        n = glm::normalize(n) * (upperSide ? 1.0 : -1.0);
        return glm::vec3(n);
    }

    IsoMesh m_mesh;
    const Volume& m_volume;
    float m_iso;
    Point m_first;
    Point m_last;
    std::unordered_map<EdgeKey, std::uint32_t> m_indexOfKey;
};

} // namespace

IsoMesh closeAtBorders(const IsoMesh& surface, const Volume& volume, StoredValue isovalue,
                       const VoxelBox& crop)
{
    if (!crop.fitsIn(volume.dims())) throw Error("the crop box does not fit the volume");
    if (glm::any(glm::equal(crop.first, crop.last))) return surface;

    CapBuilder caps(surface, volume, isovalue.classified(), crop);
    const Point f(crop.first);
    const Point l(crop.last);
    // The shell: padded cells (lowest corner from first - 1 to last) with a corner outside.
    for (std::int64_t k = f.z - 1; k <= l.z; ++k) {
        for (std::int64_t j = f.y - 1; j <= l.y; ++j) {
            const bool interiorRow = k >= f.z && k < l.z && j >= f.y && j < l.y;
            if (interiorRow) {
                caps.addCell({f.x - 1, j, k});
                caps.addCell({l.x, j, k});
                continue;
            }
            for (std::int64_t i = f.x - 1; i <= l.x; ++i)
                caps.addCell({i, j, k});
        }
    }
    return caps.take();
}

} // namespace isoview
