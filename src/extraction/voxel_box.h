// An axis-aligned box of voxels, inclusive on both ends (voxels first..last along each axis):
// the crop that limits extraction. Its cells are those with all eight corners inside, so a box
// one voxel thick along an axis has no cells.
#pragma once

#include <glm/glm.hpp>

#include <cstdint>

namespace isoview {

struct VoxelBox {
    glm::uvec3 first{0};
    glm::uvec3 last{0};

    static VoxelBox whole(glm::uvec3 dims) { return {glm::uvec3(0), dims - glm::uvec3(1)}; }

    // first <= last < dims on every axis.
    bool fitsIn(glm::uvec3 dims) const
    {
        return glm::all(glm::lessThanEqual(first, last)) && glm::all(glm::lessThan(last, dims));
    }
    glm::uvec3 voxelCount() const { return last - first + glm::uvec3(1); }
    bool contains(glm::uvec3 voxel) const
    {
        return glm::all(glm::greaterThanEqual(voxel, first)) &&
               glm::all(glm::lessThanEqual(voxel, last));
    }
    bool operator==(const VoxelBox&) const = default;
};

// Throws Error ("the crop box 1..9, 0..5, 0..5 does not lie in the volume's voxels (8x8x8)")
// unless box.fitsIn(dims): what every caller that takes a crop box from a user says.
void requireInside(const VoxelBox& box, glm::uvec3 dims);

} // namespace isoview
