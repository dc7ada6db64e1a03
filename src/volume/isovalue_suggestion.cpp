#include "volume/isovalue_suggestion.h"

#include <algorithm>
#include <cstddef>
#include <vector>

namespace isoview {
namespace {

constexpr double kCtSkinHu = -400.0;

// Box-filtered counts: single bins are noisy (integer data aliasing, small volumes).
std::vector<double> smoothedCounts(const std::vector<std::uint64_t>& counts, std::size_t radius)
{
    std::vector<double> out(counts.size(), 0.0);
    for (std::size_t i = 0; i < counts.size(); ++i) {
        const std::size_t lo = i >= radius ? i - radius : 0;
        const std::size_t hi = std::min(counts.size() - 1, i + radius);
        double sum = 0.0;
        for (std::size_t j = lo; j <= hi; ++j)
            sum += double(counts[j]);
        out[i] = sum / double(hi - lo + 1);
    }
    return out;
}

} // namespace

namespace {
double suggestFromCounts(const Histogram& histogram, const std::vector<std::uint64_t>& counts);
} // namespace

double suggestIsovalue(const Histogram& histogram, const VolumeMetadata& metadata)
{
    const std::size_t n = histogram.counts.size();
    if (n == 0) return histogram.min;
    if (metadata.units == "HU" && histogram.min < kCtSkinHu && histogram.max > kCtSkinHu)
        return kCtSkinHu;
    if (n < 3) return histogram.binCenter(n - 1);

    // Values clipped to the top of the range (neghip's 255: 4,598 voxels beside bins of a few
    // dozen) pile up in the last bin; that spike is no object, and searched as one it put the
    // isovalue just below it, on a few bright specks. It is left out.
    std::vector<std::uint64_t> counts = histogram.counts;
    const std::size_t tail = std::max<std::size_t>(2, n / 32);
    std::uint64_t before = 0;
    for (std::size_t i = n - 1 - tail; i < n - 1; ++i)
        before += counts[i];
    if (double(counts[n - 1]) > 4.0 * double(before) / double(tail)) counts.pop_back();
    return suggestFromCounts(histogram, counts);
}

namespace {

// The rule on (possibly trimmed) counts; the bins keep the histogram's edges.
double suggestFromCounts(const Histogram& histogram, const std::vector<std::uint64_t>& counts)
{
    const std::size_t n = counts.size();
    // Two smoothings: a wide one finds the peaks (the background's long tail must not look
    // like an object), a narrow one measures the valley (it keeps the valley's shape but
    // evens out integer-aliasing stripes, where bins hold 3 or 4 stored values in turn).
    const std::size_t wideRadius = std::max<std::size_t>(2, n / 32);
    const std::vector<double> wide = smoothedCounts(counts, wideRadius);
    const std::vector<double> s = smoothedCounts(counts, std::max<std::size_t>(1, n / 128));
    // The background: the tallest bin. It is usually the darkest values, but not always the
    // lowest of the range: a signed 12-bit MR (stripes stored as -241 and -1) has it in the
    // middle of -2048..2047, with the object above it.
    const std::size_t background =
        std::size_t(std::max_element(counts.begin(), counts.end()) - counts.begin());

    // The background's smoothed peak (aliasing can put the tallest single bin beside it), the
    // end of its descent (the first local minimum of the wide curve), the object (the highest
    // point of the wide curve beyond), and the valley (the lowest point of the narrow curve
    // between the peak and the object).
    const std::size_t peakSearchEnd = std::min(n, background + wideRadius + 1);
    const std::size_t peak =
        std::size_t(std::max_element(wide.begin() + std::ptrdiff_t(background),
                                     wide.begin() + std::ptrdiff_t(peakSearchEnd)) -
                    wide.begin());
    std::size_t descentEnd = peak;
    while (descentEnd + 1 < n && wide[descentEnd + 1] <= wide[descentEnd])
        ++descentEnd;
    if (descentEnd + 1 >= n) {
        // Nothing rises above the background. When it sits in the upper half there is no dark
        // background to separate from; the middle of the range is as good as any guess.
        if (background >= n / 2) return 0.5 * (histogram.min + histogram.max);
        return histogram.binCenter(std::min(n - 1, peak + 1));
    }
    const std::size_t object = std::size_t(
        std::max_element(wide.begin() + std::ptrdiff_t(descentEnd), wide.end()) - wide.begin());
    const std::size_t valley = std::size_t(
        std::min_element(s.begin() + std::ptrdiff_t(peak + 1), s.begin() + std::ptrdiff_t(object)) -
        s.begin());
    // Where the descent levels off: the first bin within 10% of the valley's floor. The floor
    // itself often lies deeper in a flat valley, where the surface starts tracing inner
    // structures.
    const double level = s[valley] * 1.1;
    for (std::size_t i = peak + 1; i <= valley; ++i) {
        if (s[i] <= level) return histogram.binCenter(i);
    }
    return histogram.binCenter(valley);
}

} // namespace

} // namespace isoview
