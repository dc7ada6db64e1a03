// The isovalue a volume opens at, so that the first view already shows a meaningful surface:
// for CT in Hounsfield units the skin (-400 HU, between air and soft tissue); otherwise the
// boundary between the background peak of the histogram and the object, where the descent
// from the background levels off into the valley before the tissue values; a spike of values
// clipped to the top of the range (saturation) is no object and is ignored. CPU only.
//
// Example:
//   double iso = suggestIsovalue(computeHistogram(volume), volume.metadata());   // real units
#pragma once

#include "volume/histogram.h"
#include "volume/volume.h"

namespace isoview {

// Real units, inside [histogram.min, histogram.max]. Never throws; an empty histogram gives
// its min.
double suggestIsovalue(const Histogram& histogram, const VolumeMetadata& metadata);

} // namespace isoview
