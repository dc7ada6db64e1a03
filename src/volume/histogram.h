// The histogram of a volume's values in real units (HU for CT), for the isovalue panel and the
// transfer-function editor. Computed once per volume on the loading thread.
//
// Bins: binCount equal bins over [min, max] of the finite real values. For integer volumes
// whose whole range has at most binCount distinct stored values, one bin per stored value (so
// no bin is empty by aliasing). Non-finite voxels are counted apart, never binned; so are
// padding voxels (VolumeMetadata::paddingValue), which are no data: they widen neither the
// range nor any bin, so the isovalue suggested from the histogram ignores them.
//
// Example:
//   Histogram h = computeHistogram(volume);
//   double hu = h.binCenter(h.binOf(300.0));
#pragma once

#include "volume/volume.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace isoview {

struct Histogram {
    double min = 0.0; // real units: the lower edge of the first bin
    double max = 0.0; // the upper edge of the last bin
    std::vector<std::uint64_t> counts;
    std::uint64_t nonFiniteCount = 0;
    std::uint64_t paddingCount = 0; // voxels holding the volume's padding value

    double binWidth() const;
    // The bin holding a real value (clamped to the first/last bin).
    std::size_t binOf(double real) const;
    double binCenter(std::size_t bin) const;
    std::uint64_t total() const; // finite voxels
    std::uint64_t maxCount() const;
    // The largest count once the single tallest bin is left out: a display scale that is not
    // flattened by the background peak (air in CT, zero padding). maxCount() when no other bin
    // holds anything, so the scale is never 0 for a non-empty histogram.
    std::uint64_t displayMaxCount() const;
};

// Throws InvalidInputError when binCount is 0. One pass over the voxels, typed on the scalar
// type (8- and 16-bit volumes count every stored value, then fold the table into bins); about
// 3 ms for 256x256x113 int16, 20 ms as float32 (one core). Thread-safe: reads the volume only.
// Values are taken as Volume::valueAt converts them (to float, as the GPU samples them), so
// float64 values beyond the float range count as non-finite. A volume whose finite values are
// all equal gets one bin of width slope (integers) or 1e-3 * max(|value|, 1) (floats) centred on
// the value; a volume with no finite value gets one empty bin around 0.
Histogram computeHistogram(const Volume& volume, std::size_t binCount = 256);

// The volume's values counted in the bins of `layout` (its min, max and bin count; its counts
// are ignored): histograms of several volumes that line up bin for bin. Values outside the
// layout's range go to its first or last bin. Throws InvalidInputError for a layout without
// bins or with max <= min.
Histogram computeHistogram(const Volume& volume, const Histogram& layout);

// Bins that hold every volume's values (the union of their real ranges), chosen as
// computeHistogram chooses them for one volume: one bin per stored value when the volumes are
// integers of one rescale with at most binCount distinct values in all, else binCount equal
// bins. Counts are zero. Throws InvalidInputError for no volumes or no bins.
Histogram histogramLayoutFor(const std::vector<const Volume*>& volumes, std::size_t binCount = 256);

// The counts of histograms of one layout added up (nonFinite and padding too). Throws
// InvalidInputError for none, or layouts that differ.
Histogram sumHistograms(const std::vector<Histogram>& histograms);

} // namespace isoview
