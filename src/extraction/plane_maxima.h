// The largest stored value on every axis-aligned plane of voxels: an upper bound, for any crop
// box, on the values of the box's boundary voxels (its six faces lie in six such planes), exact
// for the whole volume's box.
//
// What it is for: when every boundary voxel of the crop is outside the isosurface (below the
// isovalue, as classification counts it), no cell on the box's faces has a crossing in its
// boundary face, so the marching-cubes surface is closed; a camera outside the box then sees
// only its front faces, and the renderer may cull the back ones.
//
// Contract: values in the volume's stored units, as Volume::valueAt gives them. NaN counts as
// -Inf (outside for every isovalue, as classification has it), +Inf as itself (inside).
// Immutable once computed; one pass over the voxels.
#pragma once

#include "extraction/voxel_box.h"
#include "volume/volume.h"

#include <array>
#include <vector>

namespace isoview {

class PlaneMaxima {
public:
    PlaneMaxima() = default;
    static PlaneMaxima compute(const Volume& volume);

    // An upper bound on the stored values of the box's boundary voxels (-Inf for an empty
    // PlaneMaxima). The box must lie in the volume.
    float boundaryBound(const VoxelBox& box) const;
    // Whether every boundary voxel of the box is outside the isosurface at this stored
    // isovalue (value < isovalue): the surface inside the box is then closed.
    bool boundaryOutside(const VoxelBox& box, float storedIsovalue) const
    {
        return boundaryBound(box) < storedIsovalue;
    }

    // The maximum of plane `index` across `axis` (0 = x: the plane of voxels with i = index).
    float planeMax(int axis, std::uint32_t index) const { return m_max[std::size_t(axis)][index]; }

private:
    std::array<std::vector<float>, 3> m_max;
};

} // namespace isoview
