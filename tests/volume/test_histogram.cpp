// computeHistogram: real units, one bin per stored value for integer volumes with few values,
// equal bins over the finite range otherwise, non-finite voxels apart, degenerate volumes, and
// agreement with a voxel-by-voxel count through binOf (the oracle) for every scalar type.
#include "core/error.h"
#include "support/shared_data.h"
#include "support/synthetic_volumes.h"
#include "volume/histogram.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace isoview {
namespace {

using test::makeTypedVolume;

// The slow, obvious histogram: every voxel through valueAt, rescale and binOf.
std::vector<std::uint64_t> countThroughBinOf(const Volume& volume, const Histogram& h,
                                             std::uint64_t& nonFinite)
{
    std::vector<std::uint64_t> counts(h.counts.size(), 0);
    nonFinite = 0;
    for (std::size_t i = 0; i < volume.voxelCount(); ++i) {
        const float v = volume.valueAt(i);
        if (!std::isfinite(v)) {
            ++nonFinite;
            continue;
        }
        ++counts[h.binOf(volume.rescale().toReal(v))];
    }
    return counts;
}

void expectMatchesOracle(const Volume& volume, const Histogram& h)
{
    std::uint64_t nonFinite = 0;
    const std::vector<std::uint64_t> expected = countThroughBinOf(volume, h, nonFinite);
    EXPECT_EQ(h.counts, expected);
    EXPECT_EQ(h.nonFiniteCount, nonFinite);
    EXPECT_EQ(h.total() + h.nonFiniteCount, volume.voxelCount());
}

TEST(Histogram, ZeroBinsIsInvalidInput)
{
    const Volume v = makeTypedVolume<std::uint8_t>({2, 2, 2}, [](auto i, auto, auto) { return i; });
    EXPECT_THROW(computeHistogram(v, 0), InvalidInputError);
}

TEST(Histogram, Uint8FullRangeGetsOneBinPerValueCentredOnIt)
{
    // 16^3 voxels cycling through 0..255: each value 16 times.
    const Volume v = makeTypedVolume<std::uint8_t>(
        {16, 16, 16}, [](auto i, auto j, auto k) { return (i + 16 * j + 256 * k) % 256; });
    const Histogram h = computeHistogram(v);
    ASSERT_EQ(h.counts.size(), 256u);
    EXPECT_DOUBLE_EQ(h.min, -0.5);
    EXPECT_DOUBLE_EQ(h.max, 255.5);
    EXPECT_DOUBLE_EQ(h.binWidth(), 1.0);
    for (std::size_t b = 0; b < 256; ++b) {
        EXPECT_EQ(h.counts[b], 16u) << "bin " << b;
        EXPECT_DOUBLE_EQ(h.binCenter(b), double(b));
        EXPECT_EQ(h.binOf(double(b)), b);
    }
    EXPECT_EQ(h.nonFiniteCount, 0u);
    expectMatchesOracle(v, h);
}

TEST(Histogram, Uint8WithFewerBinsThanValuesUsesEqualBinsOverTheRange)
{
    const Volume v = makeTypedVolume<std::uint8_t>(
        {16, 16, 16}, [](auto i, auto j, auto k) { return (i + 16 * j + 256 * k) % 256; });
    const Histogram h = computeHistogram(v, 64);
    ASSERT_EQ(h.counts.size(), 64u);
    EXPECT_DOUBLE_EQ(h.min, 0.0);
    EXPECT_DOUBLE_EQ(h.max, 255.0);
    EXPECT_EQ(h.total(), v.voxelCount());
    expectMatchesOracle(v, h);
}

TEST(Histogram, Int16WithFewValuesGetsBinCentresOnTheRealValues)
{
    // Stored 100..150 with slope 0.5 and intercept -1024: 51 real values, 0.5 apart.
    const ValueRescale rescale{0.5, -1024.0};
    const Volume v = makeTypedVolume<std::int16_t>(
        {51, 4, 3}, [](auto i, auto, auto) { return 100 + int(i); }, {}, rescale);
    const Histogram h = computeHistogram(v);
    ASSERT_EQ(h.counts.size(), 51u);
    EXPECT_DOUBLE_EQ(h.binWidth(), 0.5);
    for (std::size_t b = 0; b < 51; ++b) {
        const double real = rescale.toReal(100.0 + double(b));
        EXPECT_NEAR(h.binCenter(b), real, 1e-9) << "bin " << b;
        EXPECT_EQ(h.binOf(real), b);
        EXPECT_EQ(h.counts[b], 12u);
    }
    expectMatchesOracle(v, h);
}

TEST(Histogram, Int16CtLikeVolumeIsInHounsfieldUnits)
{
    // A CT-like slab: half padding (-2000 stored), air, soft tissue and bone, intercept -1024.
    const ValueRescale rescale{1.0, -1024.0};
    const Volume v = makeTypedVolume<std::int16_t>(
        {40, 10, 10},
        [](auto i, auto, auto) {
            if (i < 20) return -2000;  // -3024 HU padding
            if (i < 30) return 0;      // -1024 HU air
            if (i < 38) return 1064;   // 40 HU tissue
            return 2024 + int(i - 38); // 1000, 1001 HU bone
        },
        {}, rescale);
    const Histogram h = computeHistogram(v);
    ASSERT_EQ(h.counts.size(), 256u);
    EXPECT_DOUBLE_EQ(h.min, -3024.0);
    EXPECT_DOUBLE_EQ(h.max, 1001.0);
    EXPECT_EQ(h.counts[h.binOf(-3024.0)], 2000u);
    EXPECT_EQ(h.counts[h.binOf(-1024.0)], 1000u);
    EXPECT_EQ(h.counts[h.binOf(40.0)], 800u);
    EXPECT_EQ(h.counts.back(), 200u); // both bone values share the last bin
    EXPECT_EQ(h.total(), v.voxelCount());
    EXPECT_EQ(h.maxCount(), 2000u);
    EXPECT_EQ(h.displayMaxCount(), 1000u); // the padding peak left out
    expectMatchesOracle(v, h);
}

TEST(Histogram, FloatVolumeCountsNanAndInfApartAndBinsTheFiniteRange)
{
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    const Volume v = makeTypedVolume<float>({10, 10, 10}, [&](auto i, auto j, auto k) {
        if (i == 0 && j == 0) return k % 2 == 0 ? nan : inf; // 10 non-finite voxels
        if (i == 1 && j == 0 && k == 0) return -inf;
        return -2.5f + 0.01f * float(i + 10 * j + 100 * k); // -2.5 .. 7.49
    });
    const Histogram h = computeHistogram(v, 100);
    ASSERT_EQ(h.counts.size(), 100u);
    EXPECT_EQ(h.nonFiniteCount, 11u);
    EXPECT_EQ(h.total(), 1000u - 11u);
    EXPECT_NEAR(h.min, -2.48, 1e-6); // (2, 0, 0): the smaller ones are not finite
    EXPECT_NEAR(h.max, 7.49, 1e-5);
    expectMatchesOracle(v, h);
}

TEST(Histogram, ConstantVolumesGetOneNonEmptyBinAroundTheValue)
{
    {
        const Volume v = makeTypedVolume<std::int16_t>(
            {4, 4, 4}, [](auto, auto, auto) { return 7; }, {}, ValueRescale{2.0, 1.0});
        const Histogram h = computeHistogram(v);
        ASSERT_EQ(h.counts.size(), 1u);
        EXPECT_EQ(h.counts[0], 64u);
        EXPECT_DOUBLE_EQ(h.binCenter(0), 15.0);
        EXPECT_DOUBLE_EQ(h.binWidth(), 2.0);
    }
    for (float value : {3.5f, 0.0f, -1200.0f}) {
        const Volume v = makeTypedVolume<float>({4, 4, 4}, [&](auto, auto, auto) { return value; });
        const Histogram h = computeHistogram(v);
        ASSERT_EQ(h.counts.size(), 1u) << value;
        EXPECT_EQ(h.counts[0], 64u);
        EXPECT_GT(h.binWidth(), 0.0);
        EXPECT_LT(h.min, double(value));
        EXPECT_GT(h.max, double(value));
        EXPECT_NEAR(h.binCenter(0), double(value), 1e-9);
        EXPECT_EQ(h.binOf(double(value)), 0u);
        EXPECT_EQ(h.displayMaxCount(), 64u);
    }
}

TEST(Histogram, VolumeWithoutFiniteValuesHasOneEmptyBin)
{
    const Volume v = makeTypedVolume<double>(
        {3, 3, 3}, [](auto, auto, auto) { return std::numeric_limits<double>::quiet_NaN(); });
    const Histogram h = computeHistogram(v);
    ASSERT_EQ(h.counts.size(), 1u);
    EXPECT_EQ(h.counts[0], 0u);
    EXPECT_EQ(h.nonFiniteCount, 27u);
    EXPECT_GT(h.binWidth(), 0.0);
    EXPECT_EQ(h.maxCount(), 0u);
    EXPECT_EQ(h.displayMaxCount(), 0u);
}

TEST(Histogram, EveryScalarTypeAgreesWithTheVoxelByVoxelCount)
{
    const ScalarType types[] = {ScalarType::UInt8,   ScalarType::Int8,   ScalarType::UInt16,
                                ScalarType::Int16,   ScalarType::UInt32, ScalarType::Int32,
                                ScalarType::Float32, ScalarType::Float64};
    for (ScalarType type : types) {
        SCOPED_TRACE(std::string(scalarTypeName(type)));
        const Volume raw = test::makeRandomVolume({23, 17, 11}, type, 1234u);
        // The same voxels with a non-trivial rescale, so bins are computed in real units.
        const Volume rescaled(raw.dims(), raw.type(),
                              std::vector<std::byte>(raw.bytes(), raw.bytes() + raw.byteCount()),
                              {}, ValueRescale{0.37, -250.0});
        for (const Volume* v : {&raw, &rescaled}) {
            for (std::size_t bins :
                 {std::size_t(1), std::size_t(7), std::size_t(256), std::size_t(5000)}) {
                SCOPED_TRACE(bins);
                const Histogram h = computeHistogram(*v, bins);
                EXPECT_LE(h.counts.size(), bins);
                EXPECT_LE(h.min, v->rescale().toReal(v->storedRange().min));
                EXPECT_GE(h.max, v->rescale().toReal(v->storedRange().max));
                expectMatchesOracle(*v, h);
            }
        }
    }
}

TEST(Histogram, Int32BeyondExactFloatIntegersStillCountsEveryVoxel)
{
    // Few distinct values, but too large for per-value bins after the float conversion.
    const Volume v = makeTypedVolume<std::int32_t>(
        {5, 2, 2}, [](auto i, auto, auto) { return 100'000'000 + 64 * int(i); });
    const Histogram h = computeHistogram(v);
    EXPECT_EQ(h.counts.size(), 256u);
    EXPECT_EQ(h.counts.front(), 4u);
    EXPECT_EQ(h.counts.back(), 4u);
    expectMatchesOracle(v, h);
}

TEST(Histogram, BinOfAndBinCenterAreConsistentAndBinOfClamps)
{
    const Volume v = test::makeRandomVolume({20, 20, 20}, ScalarType::Float32, 7u);
    const Histogram h = computeHistogram(v, 200);
    ASSERT_EQ(h.counts.size(), 200u);
    EXPECT_NEAR(h.binWidth() * 200.0, h.max - h.min, 1e-12);
    for (std::size_t b = 0; b < h.counts.size(); ++b) {
        EXPECT_EQ(h.binOf(h.binCenter(b)), b);
        // Just inside each edge of the bin.
        EXPECT_EQ(h.binOf(h.min + h.binWidth() * (double(b) + 0.01)), b);
        EXPECT_EQ(h.binOf(h.min + h.binWidth() * (double(b) + 0.99)), b);
    }
    EXPECT_EQ(h.binOf(h.min - 100.0), 0u);
    EXPECT_EQ(h.binOf(h.max + 100.0), 199u);
    EXPECT_EQ(h.binOf(h.max), 199u);
    EXPECT_EQ(h.binOf(std::numeric_limits<double>::quiet_NaN()), 0u);
    EXPECT_EQ(h.binOf(std::numeric_limits<double>::infinity()), 199u);
}

TEST(Histogram, DisplayMaxCountLeavesOutOnlyTheTallestBin)
{
    Histogram h;
    h.min = 0.0;
    h.max = 5.0;
    h.counts = {900, 3, 40, 7, 40};
    EXPECT_EQ(h.maxCount(), 900u);
    EXPECT_EQ(h.displayMaxCount(), 40u);
    h.counts = {5, 900, 900};
    EXPECT_EQ(h.displayMaxCount(), 900u); // two equal peaks: only one is left out
    h.counts = {0, 12, 0};
    EXPECT_EQ(h.displayMaxCount(), 12u); // nothing else: the scale falls back to the peak
    h.counts.clear();
    EXPECT_EQ(h.maxCount(), 0u);
    EXPECT_EQ(h.displayMaxCount(), 0u);
    EXPECT_EQ(h.binOf(3.0), 0u);
}

TEST(Histogram, BundledSampleHasItsBackgroundPeakAndSkinRange)
{
    const Volume v = test::loadBundledSample();
    const Histogram h = computeHistogram(v);
    EXPECT_EQ(h.total(), v.voxelCount());
    EXPECT_EQ(h.nonFiniteCount, 0u);
    EXPECT_LE(h.min, v.storedRange().min);
    EXPECT_GE(h.max, v.storedRange().max);
    // The air around the head is the tallest bin and it lies at the bottom of the range.
    const std::size_t peak =
        std::size_t(std::max_element(h.counts.begin(), h.counts.end()) - h.counts.begin());
    EXPECT_LT(h.binCenter(peak), 40.0); // below the skin value
    EXPECT_LT(h.displayMaxCount(), h.maxCount() / 2);
    EXPECT_GT(h.displayMaxCount(), 0u);
    // Voxels at and above the skin value exist (the head).
    std::uint64_t aboveSkin = 0;
    for (std::size_t b = h.binOf(40.0); b < h.counts.size(); ++b)
        aboveSkin += h.counts[b];
    EXPECT_GT(aboveSkin, v.voxelCount() / 20);
    expectMatchesOracle(v, h);
}

// A series' histograms: bins over every volume's values, each volume counted in them, and the
// counts of all added up.
TEST(Histogram, VolumesOfASeriesShareBinsAndAddUp)
{
    const Volume low = test::makeTypedVolume<std::int16_t>(
        {8, 6, 4}, [](auto i, auto j, auto k) { return std::int16_t(i + j + k); });
    const Volume high = test::makeTypedVolume<std::int16_t>(
        {8, 6, 4}, [](auto i, auto j, auto k) { return std::int16_t(100 + i * j * k); });
    const Histogram layout = histogramLayoutFor({&low, &high});
    // 0 .. 100 + 7 * 5 * 3 = 205: 206 stored values, one bin each.
    EXPECT_EQ(layout.counts.size(), 206u);
    EXPECT_DOUBLE_EQ(layout.min, -0.5);
    EXPECT_DOUBLE_EQ(layout.max, 205.5);
    const Histogram a = computeHistogram(low, layout);
    const Histogram b = computeHistogram(high, layout);
    EXPECT_EQ(a.total(), low.voxelCount());
    EXPECT_EQ(b.total(), high.voxelCount());
    EXPECT_EQ(a.counts[a.binOf(0.0)], 1u);                       // only (0, 0, 0)
    EXPECT_EQ(b.counts[b.binOf(100.0)], 8u * 6 * 4 - 7 * 5 * 3); // i j k = 0
    const Histogram sum = sumHistograms({a, b});
    for (std::size_t bin = 0; bin < sum.counts.size(); ++bin)
        EXPECT_EQ(sum.counts[bin], a.counts[bin] + b.counts[bin]);
    EXPECT_THROW(sumHistograms({a, computeHistogram(low)}), InvalidInputError);
    EXPECT_THROW(histogramLayoutFor({}), InvalidInputError);
}

} // namespace
} // namespace isoview
