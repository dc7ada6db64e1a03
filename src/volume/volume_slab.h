// Parts of a volume as volumes of their own, in the same physical space: a slab of whole
// slices (the bricks of a volume too large for one GPU texture) and a copy at a coarser grid
// (what volume rendering shows of such a volume). Index (i, j, k) of the part lands where the
// corresponding voxel of the whole lies; rescale and metadata are kept.
#pragma once

#include "volume/volume.h"

#include <cstdint>

namespace isoview {

// Slices first..last (inclusive) of `volume`. Throws Error when they do not lie in it.
Volume copySlab(const Volume& volume, std::uint32_t first, std::uint32_t last);

// Every factor-th voxel along each axis, starting at voxel 0 (nearest, no filtering: the
// values stay values the volume holds). factor >= 1.
Volume subsample(const Volume& volume, std::uint32_t factor);

} // namespace isoview
