// The largest stored value on every axis-aligned plane of voxels: an upper bound, for any crop
// box, on the values of the box's boundary voxels (its six faces lie in six such planes), exact
// for the whole volume's box.
//
// What it is for: where every voxel of a face of the crop box is outside the isosurface (below
// the isovalue, as classification counts it), no cell on that face has a crossing in it, so the
// marching-cubes surface is not open there. A ray from a camera outside the box that enters it
// through such a face starts outside the surface, so the first face it meets is a front face:
// when every face turned to the camera is so, the renderer may cull the back faces.
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

    // The box's faces, as bits of a mask: face 2a is the plane i_a = first[a] (outward -a),
    // face 2a + 1 the plane i_a = last[a] (outward +a).
    static constexpr unsigned kAllFaces = 0x3f;

    // An upper bound on the stored values of the voxels on the faces in the mask (-Inf for an
    // empty PlaneMaxima or mask). The box must lie in the volume.
    float boundaryBound(const VoxelBox& box, unsigned faces = kAllFaces) const;
    // The faces of the box with a voxel that may be inside the isosurface at this stored
    // isovalue (value >= isovalue, NaN isovalue: all): where the surface may be open.
    unsigned openFaces(const VoxelBox& box, StoredValue isovalue) const;
    // Whether every boundary voxel of the box is outside: the surface in the box is closed.
    bool boundaryOutside(const VoxelBox& box, StoredValue isovalue) const
    {
        return openFaces(box, isovalue) == 0;
    }

    // The maximum of plane `index` across `axis` (0 = x: the plane of voxels with i = index).
    float planeMax(int axis, std::uint32_t index) const { return m_max[std::size_t(axis)][index]; }

private:
    std::array<std::vector<float>, 3> m_max;
};

} // namespace isoview
