// The CPU reference's marching cubes over any scalar field on a volume's grid: the one
// implementation behind extractIsosurfaceCpu (the volume's stored values) and
// extractLabelSurfacesCpu (a label's indicator). Internal to the extraction library; callers
// outside it use those two.
//
// A field is a callable `float field(glm::uvec3 voxel)` that returns the value at any voxel of
// the WHOLE grid (dims), so that gradients, edge keys and the per-slice normal matrices are
// those of the whole volume however few cells are marched. marchCells visits only the cells
// of `cells` (all eight corners inside it); a field that is known to be outside everywhere
// beyond some box may therefore be stored for that box only (see label_surfaces_cpu.cpp).
//
// The rules are those stated in cpu_marching_cubes.h; this file is where they are carried out.
// Cost: 4 field reads per cell plus 14 per emitted vertex (its two gradients); no allocation
// but the triangle stream and the weld.
#pragma once

#include "extraction/cpu_marching_cubes.h"
#include "extraction/iso_mesh.h"
#include "extraction/marching_cubes_tables.h"
#include "extraction/voxel_box.h"
#include "volume/volume.h"

#include <glm/glm.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace isoview::marching {

inline std::size_t linearIndex(glm::uvec3 dims, glm::uvec3 p)
{
    return std::size_t(p.x) + std::size_t(dims.x) * (std::size_t(p.y) + std::size_t(dims.y) * p.z);
}

// indexGradient (cpu_marching_cubes.h) of any field on a grid of `dims`.
template <class Field>
glm::vec3 fieldGradient(const Field& field, glm::uvec3 dims, glm::uvec3 voxel)
{
    const float center = field(voxel);
    if (!std::isfinite(center)) return glm::vec3(0.0f);

    // A non-finite neighbour would poison the difference; it is treated as flat instead.
    const auto sample = [&](glm::uvec3 p) {
        const float v = field(p);
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

// Marches the cells of `cells` (which must fit dims) of the field at isoStored: the welded mesh
// the rules of cpu_marching_cubes.h give, restricted to those cells.
template <class Field>
IsoMesh marchCells(const Field& field, glm::uvec3 dims, const VolumeGeometry& geometry,
                   float isoStored, const VoxelBox& cells)
{
    const glm::uvec3 extent = cells.last - cells.first; // cells per axis
    if (extent.x == 0 || extent.y == 0 || extent.z == 0) return {};

    const mc::CaseTables& tables = mc::caseTables();
    // Per slice, since stacks with per-slice origins change their Jacobian along the stack;
    // only the slices the corners reach, indexed from cells.first.z.
    std::vector<glm::mat3> gradientToPhysical(extent.z + 1);
    for (std::uint32_t k = cells.first.z; k <= cells.last.z; ++k) {
        gradientToPhysical[k - cells.first.z] = glm::mat3(geometry.voxelGradientToPhysical(k));
    }

    // Corner c of cell (i, j, k) is voxel (i, j, k) + cornerStep(c).
    const auto cornerStep = [](int c) {
        return glm::uvec3(mc::cornerOffset(c, 0), mc::cornerOffset(c, 1), mc::cornerOffset(c, 2));
    };
    std::vector<SoupVertex> soup;
    for (std::uint32_t k = cells.first.z; k < cells.last.z; ++k) {
        for (std::uint32_t j = cells.first.y; j < cells.last.y; ++j) {
            // Along a row, a cell's four upper-x corners are the next cell's lower-x corners
            // (even c: x offset 0, odd c: 1): each voxel is read once per row, not twice.
            float value[8];
            for (int c = 0; c < 8; c += 2)
                value[c + 1] = field(glm::uvec3(cells.first.x, j, k) + cornerStep(c));
            for (std::uint32_t i = cells.first.x; i < cells.last.x; ++i) {
                // Pass 1: classify the cell. Corner c sits at (c & 1, (c >> 1) & 1, c >> 2).
                const glm::uvec3 cell(i, j, k);
                unsigned caseIndex = 0;
                for (int c = 0; c < 8; c += 2) {
                    value[c] = value[c + 1];
                    value[c + 1] = field(cell + cornerStep(c + 1));
                }
                for (int c = 0; c < 8; ++c) {
                    if (isInsideIsosurface(value[c], isoStored)) caseIndex |= 1u << c;
                }
                const int count = tables.vertexCount[caseIndex];
                if (count == 0) continue;
                glm::uvec3 corner[8];
                for (int c = 0; c < 8; ++c)
                    corner[c] = cell + cornerStep(c);
                for (int v = 0; v < count; ++v) {
                    const int edge = tables.triangleEdges[caseIndex][std::size_t(v)];
                    const int axis = mc::edgeAxis(edge);
                    const int c0 = mc::kEdgeCorners[std::size_t(edge)][0];
                    const int c1 = mc::kEdgeCorners[std::size_t(edge)][1];
                    const float t = edgeCrossing(value[c0], value[c1], isoStored);
                    glm::vec3 position(corner[c0]);
                    position[axis] += t;

                    // Physical gradients at both ends, interpolated.
                    const glm::mat3& m0 = gradientToPhysical[corner[c0].z - cells.first.z];
                    const glm::mat3& m1 = gradientToPhysical[corner[c1].z - cells.first.z];
                    const glm::vec3 n = glm::mix(m0 * fieldGradient(field, dims, corner[c0]),
                                                 m1 * fieldGradient(field, dims, corner[c1]), t);
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

} // namespace isoview::marching
