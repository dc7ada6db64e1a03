// CPU reference marching cubes.
//
//   Pass 1: visit the cells (z slowest, x fastest), classify the eight corners into a case
//           index and, for each vertex the case table lists, interpolate its position and
//           normal on the table's edge; append the triangles to an unwelded stream.
//   Pass 2: weld the stream by edge key, which is exact: every vertex is identified by the
//           grid edge it lies on, and neighbouring cells compute it identically.
#include "extraction/cpu_marching_cubes.h"

#include "core/error.h"
#include "extraction/marching_cubes_tables.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace isoview {
namespace {

std::size_t linearIndex(glm::uvec3 dims, glm::uvec3 p)
{
    return std::size_t(p.x) + std::size_t(dims.x) * (std::size_t(p.y) + std::size_t(dims.y) * p.z);
}

} // namespace

glm::vec3 indexGradient(const Volume& volume, glm::uvec3 voxel)
{
    const glm::uvec3 dims = volume.dims();
    const float center = volume.valueAt(linearIndex(dims, voxel));
    if (!std::isfinite(center)) return glm::vec3(0.0f);

    // A non-finite neighbour would poison the difference; it is treated as flat instead.
    const auto sample = [&](glm::uvec3 p) {
        const float v = volume.valueAt(linearIndex(dims, p));
        return std::isfinite(v) ? v : center;
    };

    glm::vec3 gradient(0.0f);
    for (int a = 0; a < 3; ++a) {
        const std::uint32_t n = dims[a];
        const std::uint32_t pa = voxel[a];
        if (n == 1) continue;
        glm::uvec3 lower = voxel;
        glm::uvec3 upper = voxel;
        if (pa > 0) lower[a] = pa - 1;
        if (pa + 1 < n) upper[a] = pa + 1;
        if (pa > 0 && pa + 1 < n) {
            gradient[a] = (sample(upper) - sample(lower)) * 0.5f;
        } else if (pa == 0) {
            gradient[a] = sample(upper) - center;
        } else {
            gradient[a] = center - sample(lower);
        }
    }
    return gradient;
}

IsoMesh extractIsosurfaceCpu(const Volume& volume, StoredValue isovalue)
{
    return extractIsosurfaceCpu(volume, isovalue, VoxelBox::whole(volume.dims()));
}

IsoMesh extractIsosurfaceCpu(const Volume& volume, StoredValue isovalue, const VoxelBox& crop)
{
    const float isoStored = isovalue.classified();
    const glm::uvec3 dims = volume.dims();
    if (!crop.fitsIn(dims)) throw Error("the crop box does not fit the volume");
    const glm::uvec3 cells = crop.last - crop.first; // per axis; 0 where the box is one voxel
    if (cells.x == 0 || cells.y == 0 || cells.z == 0) return {};

    const mc::CaseTables& tables = mc::caseTables();
    // Per slice, since stacks with per-slice origins change their Jacobian along the stack.
    std::vector<glm::mat3> gradientToPhysical(dims.z);
    for (std::uint32_t k = 0; k < dims.z; ++k) {
        gradientToPhysical[k] = glm::mat3(volume.geometry().voxelGradientToPhysical(k));
    }

    std::vector<SoupVertex> soup;
    for (std::uint32_t k = crop.first.z; k < crop.last.z; ++k) {
        for (std::uint32_t j = crop.first.y; j < crop.last.y; ++j) {
            for (std::uint32_t i = crop.first.x; i < crop.last.x; ++i) {
                // Pass 1: classify the cell. Corner c sits at (c & 1, (c >> 1) & 1, c >> 2).
                const glm::uvec3 cell(i, j, k);
                glm::uvec3 corner[8];
                float value[8];
                unsigned caseIndex = 0;
                for (int c = 0; c < 8; ++c) {
                    corner[c] = cell + glm::uvec3(mc::cornerOffset(c, 0), mc::cornerOffset(c, 1),
                                                  mc::cornerOffset(c, 2));
                    value[c] = volume.valueAt(linearIndex(dims, corner[c]));
                    if (isInsideIsosurface(value[c], isoStored)) caseIndex |= 1u << c;
                }
                const int count = tables.vertexCount[caseIndex];
                for (int v = 0; v < count; ++v) {
                    const int edge = tables.triangleEdges[caseIndex][std::size_t(v)];
                    const int axis = mc::edgeAxis(edge);
                    const int c0 = mc::kEdgeCorners[std::size_t(edge)][0];
                    const int c1 = mc::kEdgeCorners[std::size_t(edge)][1];
                    const float t = edgeCrossing(value[c0], value[c1], isoStored);
                    glm::vec3 position(corner[c0]);
                    position[axis] += t;

                    // Physical gradients at both ends, interpolated.
                    const glm::vec3 n = glm::mix(
                        gradientToPhysical[corner[c0].z] * indexGradient(volume, corner[c0]),
                        gradientToPhysical[corner[c1].z] * indexGradient(volume, corner[c1]), t);
                    const glm::vec3 normal =
                        glm::length(n) > 0.0f ? -glm::normalize(n) : glm::vec3(0.0f);

                    soup.push_back(
                        {position, normal, makeEdgeKey(linearIndex(dims, corner[c0]), axis)});
                }
            }
        }
    }
    // Pass 2: weld.
    return weldByEdgeKey(soup);
}

} // namespace isoview
