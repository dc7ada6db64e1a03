#include "extraction/voxel_box.h"

#include "core/error.h"

#include <string>

namespace isoview {

void requireInside(const VoxelBox& box, glm::uvec3 dims)
{
    if (box.fitsIn(dims)) return;
    const auto range = [&](int a) {
        return std::to_string(box.first[a]) + ".." + std::to_string(box.last[a]);
    };
    throw Error("the crop box " + range(0) + ", " + range(1) + ", " + range(2) +
                " does not lie in the volume's voxels (" + std::to_string(dims.x) + "x" +
                std::to_string(dims.y) + "x" + std::to_string(dims.z) + ")");
}

} // namespace isoview
