// The isovalue a volume opens at: on the bundled sample it lands on the skin (the README's
// 40, where the descent from the background levels off), CT in HU opens at the skin value,
// and odd histograms still give a value inside the data.
#include "support/shared_data.h"
#include "support/synthetic_volumes.h"
#include "volume/histogram.h"
#include "volume/isovalue_suggestion.h"

#include <gtest/gtest.h>

#include <cstring>
#include <limits>
#include <random>

namespace isoview {
namespace {

Volume int16Volume(glm::uvec3 dims, const std::vector<std::int16_t>& values, ValueRescale rescale)
{
    std::vector<std::byte> bytes(values.size() * 2);
    std::memcpy(bytes.data(), values.data(), bytes.size());
    return Volume(dims, ScalarType::Int16, std::move(bytes), {}, rescale);
}

TEST(IsovalueSuggestionTest, BundledSampleOpensOnTheSkin)
{
    const Volume sample = test::loadBundledSample();
    const double iso = suggestIsovalue(computeHistogram(sample), sample.metadata());
    // resources/samples/README.md: 40 follows the scalp; from about 60 the surface also traces
    // the skull and CSF; below ~25 it wraps the background noise.
    EXPECT_GE(iso, 25.0);
    EXPECT_LE(iso, 55.0);
}

TEST(IsovalueSuggestionTest, CtInHounsfieldUnitsOpensOnTheSkin)
{
    // Air around a water-like body, stored with the usual CT rescale (-1024 intercept).
    const glm::uvec3 dims(32, 32, 32);
    std::vector<std::int16_t> stored(std::size_t(dims.x) * dims.y * dims.z, 0); // -1024 HU
    for (std::size_t i = 0; i < stored.size(); i += 3)
        stored[i] = 1064; // 40 HU
    Volume ct = int16Volume(dims, stored, {1.0, -1024.0});
    VolumeMetadata meta = ct.metadata();
    meta.modality.assign("CT");
    meta.units.assign("HU");
    ct.setMetadata(std::move(meta));
    EXPECT_EQ(suggestIsovalue(computeHistogram(ct), ct.metadata()), -400.0);
}

TEST(IsovalueSuggestionTest, ValleyBetweenBackgroundAndObject)
{
    // Background around 10 (most voxels), an object around 200, nearly nothing between.
    std::mt19937 rng(7);
    std::normal_distribution<float> background(10.0f, 3.0f), object(200.0f, 20.0f);
    const glm::uvec3 dims(40, 40, 40);
    std::vector<std::int16_t> values(std::size_t(dims.x) * dims.y * dims.z);
    for (std::size_t i = 0; i < values.size(); ++i)
        values[i] = std::int16_t(i % 4 == 0 ? object(rng) : background(rng));
    const Volume v = int16Volume(dims, values, {});
    const double iso = suggestIsovalue(computeHistogram(v), v.metadata());
    EXPECT_GT(iso, 20.0);  // clear of the background's tail
    EXPECT_LT(iso, 140.0); // below the object's body
}

// The same in float, with NaN and +-Inf voxels in numbers: they are not binned, so neither the
// range nor the suggestion moves.
TEST(IsovalueSuggestionTest, NonFiniteVoxelsAreIgnored)
{
    std::mt19937 rng(7);
    std::normal_distribution<float> background(10.0f, 3.0f), object(200.0f, 20.0f);
    const float special[] = {std::numeric_limits<float>::quiet_NaN(),
                             std::numeric_limits<float>::infinity(),
                             -std::numeric_limits<float>::infinity()};
    const auto make = [&](bool withNonFinite) {
        rng.seed(7);
        std::size_t i = 0;
        return test::makeFloatField({40, 40, 40}, [&](glm::vec3) {
            const std::size_t at = i++;
            const float v = at % 4 == 0 ? object(rng) : background(rng); // the same draws
            return withNonFinite && at % 7 == 3 ? special[at % 3] : v;
        });
    };
    const Volume clean = make(false);
    const Volume dirty = make(true);
    const Histogram h = computeHistogram(dirty);
    EXPECT_GT(h.nonFiniteCount, 9000u);
    EXPECT_GT(h.min, -50.0);
    EXPECT_LT(h.max, 400.0);
    const double iso = suggestIsovalue(h, dirty.metadata());
    EXPECT_GT(iso, 20.0);
    EXPECT_LT(iso, 140.0);
    EXPECT_NEAR(iso, suggestIsovalue(computeHistogram(clean), clean.metadata()), 15.0);
}

TEST(IsovalueSuggestionTest, ConstantAndTinyVolumesStayInsideTheData)
{
    const Volume constant = int16Volume({4, 4, 4}, std::vector<std::int16_t>(64, 7), {});
    const Histogram h = computeHistogram(constant);
    const double iso = suggestIsovalue(h, constant.metadata());
    EXPECT_GE(iso, h.min);
    EXPECT_LE(iso, h.max);
    EXPECT_EQ(suggestIsovalue(Histogram{}, {}), 0.0);
}

} // namespace
} // namespace isoview
