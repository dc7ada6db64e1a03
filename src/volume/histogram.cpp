#include "volume/histogram.h"

#include "core/error.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <type_traits>

namespace isoview {
namespace {

// The bin of a real value among n equal bins starting at lo. computeHistogram and
// Histogram::binOf both go through it with the same arguments, so a voxel is always counted in
// the bin that binOf names for its real value, even at a bin edge.
std::size_t binIndex(double real, double lo, double binsPerUnit, std::size_t n)
{
    const double t = (real - lo) * binsPerUnit;
    if (!(t > 0.0)) return 0; // below the range, or NaN
    if (t >= double(n - 1)) return n - 1;
    return std::size_t(t);
}

double binsPerUnit(const Histogram& h)
{
    return double(h.counts.size()) / (h.max - h.min);
}

bool isIntegerType(ScalarType type)
{
    return type != ScalarType::Float32 && type != ScalarType::Float64;
}

// Every integer up to 2^24 is exact as a float, so the float-converted stored values of an
// integer volume inside that range are its true stored values.
constexpr double kExactFloatIntegers = 16777216.0;

// Sets min, max and the bin count from the volume's finite stored range.
void chooseBins(const Volume& volume, std::size_t binCount, Histogram& h)
{
    const ValueRange stored = volume.storedRange();
    const ValueRescale& rescale = volume.rescale();
    const double distinct = stored.max - stored.min + 1.0;
    const bool exact = std::max(std::abs(stored.min), std::abs(stored.max)) <= kExactFloatIntegers;
    if (isIntegerType(volume.type()) && exact && distinct <= double(binCount)) {
        // One bin per stored value, centred on it: equal bins over a few integers would leave
        // some bins empty and double others (aliasing).
        h.min = rescale.toReal(stored.min - 0.5);
        h.max = rescale.toReal(stored.max + 0.5);
        h.counts.assign(std::size_t(distinct), 0);
        return;
    }
    const double lo = rescale.toReal(stored.min);
    const double hi = rescale.toReal(stored.max);
    if (hi > lo) {
        h.min = lo;
        h.max = hi;
        h.counts.assign(binCount, 0);
        return;
    }
    // Every finite value is the same (or there is none): one bin of a small, non-zero width so
    // that binWidth() and binOf() stay well defined.
    const double halfWidth = 0.5e-3 * std::max(std::abs(lo), 1.0);
    h.min = lo - halfWidth;
    h.max = lo + halfWidth;
    h.counts.assign(1, 0);
}

template <class T> T loadVoxel(const std::byte* bytes, std::size_t index)
{
    T value;
    std::memcpy(&value, bytes + index * sizeof(T), sizeof(T));
    return value;
}

// 8- and 16-bit volumes: count each stored value in a table indexed by the value (at most
// 65,536 entries, cache-resident), then fold the table into the bins. The per-voxel work is one
// load and one increment.
template <class T> void countThroughValueTable(const Volume& volume, Histogram& h)
{
    static_assert(std::is_integral_v<T> && sizeof(T) <= 2);
    constexpr long long kOffset = -static_cast<long long>(std::numeric_limits<T>::min());
    constexpr std::size_t kValues = std::size_t(1) << (8 * sizeof(T));
    std::vector<std::uint64_t> table(kValues, 0);
    const std::byte* bytes = volume.bytes();
    const std::size_t n = volume.voxelCount();
    for (std::size_t i = 0; i < n; ++i) {
        ++table[std::size_t(static_cast<long long>(loadVoxel<T>(bytes, i)) + kOffset)];
    }
    const ValueRescale& rescale = volume.rescale();
    const double perUnit = binsPerUnit(h);
    const std::optional<double> padding = volume.metadata().paddingValue;
    for (std::size_t s = 0; s < kValues; ++s) {
        if (table[s] == 0) continue;
        const float stored = static_cast<float>(static_cast<long long>(s) - kOffset);
        if (padding && double(stored) == *padding) {
            h.paddingCount = table[s];
            continue;
        }
        h.counts[binIndex(rescale.toReal(stored), h.min, perUnit, h.counts.size())] += table[s];
    }
}

// 32-bit integers and floats: the bin of every voxel directly. Values are converted to float
// first, as Volume::valueAt and the GPU sampler do.
template <class T> void binEachVoxel(const Volume& volume, Histogram& h)
{
    const std::byte* bytes = volume.bytes();
    const std::size_t n = volume.voxelCount();
    const ValueRescale rescale = volume.rescale();
    const double lo = h.min;
    const double perUnit = binsPerUnit(h);
    const std::size_t bins = h.counts.size();
    std::uint64_t* counts = h.counts.data();
    std::uint64_t nonFinite = 0;
    std::uint64_t padded = 0;
    // Without padding the test compares with NaN, which matches nothing.
    const std::optional<double> paddingValue = volume.metadata().paddingValue;
    const float padding =
        paddingValue ? static_cast<float>(*paddingValue) : std::numeric_limits<float>::quiet_NaN();
    for (std::size_t i = 0; i < n; ++i) {
        const float v = static_cast<float>(loadVoxel<T>(bytes, i));
        if constexpr (std::is_floating_point_v<T>) {
            if (!std::isfinite(v)) {
                ++nonFinite;
                continue;
            }
        }
        if (v == padding) {
            ++padded;
            continue;
        }
        ++counts[binIndex(rescale.toReal(v), lo, perUnit, bins)];
    }
    h.nonFiniteCount = nonFinite;
    h.paddingCount = padded;
}

} // namespace

double Histogram::binWidth() const
{
    return counts.empty() ? 0.0 : (max - min) / double(counts.size());
}

std::size_t Histogram::binOf(double real) const
{
    if (counts.empty()) return 0;
    return binIndex(real, min, binsPerUnit(*this), counts.size());
}

double Histogram::binCenter(std::size_t bin) const
{
    return min + (double(bin) + 0.5) * binWidth();
}

std::uint64_t Histogram::total() const
{
    std::uint64_t sum = 0;
    for (std::uint64_t c : counts)
        sum += c;
    return sum;
}

std::uint64_t Histogram::maxCount() const
{
    return counts.empty() ? 0 : *std::max_element(counts.begin(), counts.end());
}

std::uint64_t Histogram::displayMaxCount() const
{
    if (counts.empty()) return 0;
    const auto tallest = std::max_element(counts.begin(), counts.end());
    std::uint64_t second = 0;
    for (auto it = counts.begin(); it != counts.end(); ++it) {
        if (it != tallest) second = std::max(second, *it);
    }
    return second > 0 ? second : *tallest;
}

namespace {

void countInto(const Volume& volume, Histogram& h)
{
    switch (volume.type()) {
    case ScalarType::UInt8: countThroughValueTable<std::uint8_t>(volume, h); break;
    case ScalarType::Int8: countThroughValueTable<std::int8_t>(volume, h); break;
    case ScalarType::UInt16: countThroughValueTable<std::uint16_t>(volume, h); break;
    case ScalarType::Int16: countThroughValueTable<std::int16_t>(volume, h); break;
    case ScalarType::UInt32: binEachVoxel<std::uint32_t>(volume, h); break;
    case ScalarType::Int32: binEachVoxel<std::int32_t>(volume, h); break;
    case ScalarType::Float32: binEachVoxel<float>(volume, h); break;
    case ScalarType::Float64: binEachVoxel<double>(volume, h); break;
    }
}

} // namespace

Histogram computeHistogram(const Volume& volume, std::size_t binCount)
{
    if (binCount == 0) throw InvalidInputError("a histogram needs at least one bin");
    Histogram h;
    chooseBins(volume, binCount, h);
    countInto(volume, h);
    return h;
}

Histogram computeHistogram(const Volume& volume, const Histogram& layout)
{
    if (layout.counts.empty() || !(layout.max > layout.min))
        throw InvalidInputError("a histogram's layout needs bins over a non-empty range");
    Histogram h;
    h.min = layout.min;
    h.max = layout.max;
    h.counts.assign(layout.counts.size(), 0);
    countInto(volume, h);
    return h;
}

Histogram histogramLayoutFor(const std::vector<const Volume*>& volumes, std::size_t binCount)
{
    if (volumes.empty() || binCount == 0)
        throw InvalidInputError("a histogram layout needs volumes and bins");
    const Volume& first = *volumes.front();
    ValueRange stored = first.storedRange();
    bool sameIntegers = isIntegerType(first.type());
    for (const Volume* v : volumes) {
        stored.min = std::min(stored.min, v->storedRange().min);
        stored.max = std::max(stored.max, v->storedRange().max);
        sameIntegers = sameIntegers && v->type() == first.type() &&
                       v->rescale().slope == first.rescale().slope &&
                       v->rescale().intercept == first.rescale().intercept;
    }
    Histogram h;
    const double distinct = stored.max - stored.min + 1.0;
    const bool exact = std::max(std::abs(stored.min), std::abs(stored.max)) <= kExactFloatIntegers;
    if (sameIntegers && exact && distinct <= double(binCount)) {
        h.min = first.rescale().toReal(stored.min - 0.5);
        h.max = first.rescale().toReal(stored.max + 0.5);
        h.counts.assign(std::size_t(distinct), 0);
        return h;
    }
    double lo = first.realRange().min;
    double hi = first.realRange().max;
    for (const Volume* v : volumes) {
        lo = std::min(lo, v->realRange().min);
        hi = std::max(hi, v->realRange().max);
    }
    if (hi > lo) {
        h.min = lo;
        h.max = hi;
        h.counts.assign(binCount, 0);
        return h;
    }
    const double halfWidth = 0.5e-3 * std::max(std::abs(lo), 1.0);
    h.min = lo - halfWidth;
    h.max = lo + halfWidth;
    h.counts.assign(1, 0);
    return h;
}

Histogram sumHistograms(const std::vector<Histogram>& histograms)
{
    if (histograms.empty()) throw InvalidInputError("no histograms to add up");
    Histogram sum = histograms.front();
    for (std::size_t i = 1; i < histograms.size(); ++i) {
        const Histogram& h = histograms[i];
        if (h.min != sum.min || h.max != sum.max || h.counts.size() != sum.counts.size())
            throw InvalidInputError("histograms of different bins cannot be added up");
        for (std::size_t b = 0; b < h.counts.size(); ++b)
            sum.counts[b] += h.counts[b];
        sum.nonFiniteCount += h.nonFiniteCount;
        sum.paddingCount += h.paddingCount;
    }
    return sum;
}

} // namespace isoview
