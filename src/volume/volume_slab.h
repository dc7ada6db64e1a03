// Parts of a volume as volumes of their own, in the same physical space: a slab of whole
// slices (the bricks of a volume too large for one GPU texture), a copy at a coarser grid
// (what volume rendering shows of such a volume) and one at half the resolution by averaging
// (the surface shown while an isovalue is dragged, gpu/surface_preview.h). Index (i, j, k) of
// the part lands where the corresponding voxel (or block) of the whole lies; rescale and
// metadata are kept.
#pragma once

#include "volume/volume.h"

#include <cstdint>

namespace isoview {

// Slices first..last (inclusive) of `volume`. Throws Error when they do not lie in it.
Volume copySlab(const Volume& volume, std::uint32_t first, std::uint32_t last);

// Every factor-th voxel along each axis, starting at voxel 0 (nearest, no filtering: the
// values stay values the volume holds). factor >= 1.
Volume subsample(const Volume& volume, std::uint32_t factor);

// Half the resolution along each axis: voxel (i, j, k) is the mean of the 2 x 2 x 2 block at
// (2i, 2j, 2k) (rounded to the nearest value for integer types) and lies at that block's
// centre. Padding voxels (metadata().paddingValue) and non-finite values are left out of the
// mean; a block of nothing else stays padding (or NaN). A last odd slice, row or column is
// dropped. Throws Error when an axis has fewer than 4 voxels.
Volume halfResolution(const Volume& volume);

} // namespace isoview
