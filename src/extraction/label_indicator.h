// A label's indicator over a box of a label map's grid: 1 where the voxel holds the label, 0
// elsewhere, x fastest. Read straight from the voxel bytes of the volume's type (no per-voxel
// conversion through valueAt): what both the plain and the smoothed label surfaces march or
// blur. Internal to the extraction library.
//
// Thread: any. The box must fit the volume (not checked here: callers clamp it).
#pragma once

#include "extraction/voxel_box.h"
#include "volume/volume.h"

#include <cstdint>
#include <vector>

namespace isoview {

std::vector<std::uint8_t> labelIndicator(const Volume& volume, std::uint32_t label,
                                         const VoxelBox& box);

} // namespace isoview
