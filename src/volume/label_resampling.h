// A label map laid over an image: on the image's grid, where the viewer draws both. A label
// map made on the image's own grid (the usual case: a segmentation of that scan) is taken as
// it is; one on another grid of the same physical space (a different spacing, a sub-volume, a
// resampled export) is resampled onto the image's by nearest neighbour in physical
// coordinates, labels never blended, 0 where the label map does not reach.
#pragma once

#include "volume/volume.h"

#include <string>

namespace isoview {

struct LabelsOnImage {
    Volume labels;    // uint16 on the image's grid, with the image's geometry
    bool resampled;   // false: the label map's own voxels (same grid)
    std::string note; // for the user when resampled: what was done, from which grid
};

// labelMap: uint16 labels (toLabelVolume), taken (moved on, not copied, when on the image's
// grid). Throws InvalidInputError naming both physical extents (mm) when no voxel of the image
// lies in the label map.
LabelsOnImage labelsOnImageGrid(Volume labelMap, const Volume& image);

} // namespace isoview
