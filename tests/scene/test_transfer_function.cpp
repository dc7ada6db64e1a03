// TransferFunction: evaluation (at, between and beyond points, steps), lookup sampling, edits
// that keep the points sorted, validation, the presets' key values and the default choice.
#include "core/error.h"
#include "scene/transfer_function.h"
#include "support/shared_data.h"
#include "support/synthetic_volumes.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <set>
#include <string>
#include <vector>

namespace isoview {
namespace {

constexpr glm::vec3 kBlack{0.0f, 0.0f, 0.0f};
constexpr glm::vec3 kRed{1.0f, 0.0f, 0.0f};
constexpr glm::vec3 kGreen{0.0f, 1.0f, 0.0f};
constexpr glm::vec3 kBlue{0.0f, 0.0f, 1.0f};
constexpr glm::vec3 kWhite{1.0f, 1.0f, 1.0f};

void expectRgba(glm::vec4 actual, glm::vec4 expected, float tolerance = 1e-6f)
{
    for (int c = 0; c < 4; ++c) {
        EXPECT_NEAR(actual[c], expected[c], tolerance) << "component " << c;
    }
}

std::vector<double> valuesOf(const TransferFunction& tf)
{
    std::vector<double> values;
    for (const TransferPoint& p : tf.points())
        values.push_back(p.value);
    return values;
}

// Expects InvalidInputError whose message contains `part`.
template <typename F> void expectInvalid(F f, const std::string& part)
{
    try {
        f();
        ADD_FAILURE() << "no InvalidInputError; expected one mentioning '" << part << "'";
    } catch (const InvalidInputError& e) {
        EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
    }
}

// 0: black transparent, 100: red at 0.5, 200: white opaque.
TransferFunction threePoints()
{
    return TransferFunction({{0.0, kBlack, 0.0f}, {100.0, kRed, 0.5f}, {200.0, kWhite, 1.0f}},
                            "three");
}

TEST(TransferFunction, EmptyFunctionIsTransparentBlack)
{
    const TransferFunction tf;
    EXPECT_EQ(tf.size(), 0u);
    expectRgba(tf.evaluate(-5.0), glm::vec4(0.0f));
    expectRgba(tf.evaluate(1e9), glm::vec4(0.0f));
}

TEST(TransferFunction, EvaluateAtPointsGivesTheirColourAndOpacityExactly)
{
    const TransferFunction tf = threePoints();
    EXPECT_EQ(tf.evaluate(0.0), glm::vec4(0.0f, 0.0f, 0.0f, 0.0f));
    EXPECT_EQ(tf.evaluate(100.0), glm::vec4(1.0f, 0.0f, 0.0f, 0.5f));
    EXPECT_EQ(tf.evaluate(200.0), glm::vec4(1.0f, 1.0f, 1.0f, 1.0f));
}

TEST(TransferFunction, EvaluateBetweenPointsInterpolatesLinearly)
{
    const TransferFunction tf = threePoints();
    expectRgba(tf.evaluate(50.0), {0.5f, 0.0f, 0.0f, 0.25f});
    expectRgba(tf.evaluate(25.0), {0.25f, 0.0f, 0.0f, 0.125f});
    expectRgba(tf.evaluate(175.0), {1.0f, 0.75f, 0.75f, 0.875f});
}

TEST(TransferFunction, EvaluateBeyondTheEndsHoldsTheEndPoints)
{
    const TransferFunction tf = threePoints();
    EXPECT_EQ(tf.evaluate(-1000.0), tf.evaluate(0.0));
    EXPECT_EQ(tf.evaluate(-std::numeric_limits<double>::infinity()), tf.evaluate(0.0));
    EXPECT_EQ(tf.evaluate(1e30), tf.evaluate(200.0));
    EXPECT_EQ(tf.evaluate(std::numeric_limits<double>::infinity()), tf.evaluate(200.0));

    const TransferFunction single({{7.0, kGreen, 0.3f}});
    EXPECT_EQ(single.evaluate(-1.0), glm::vec4(kGreen, 0.3f));
    EXPECT_EQ(single.evaluate(7.0), glm::vec4(kGreen, 0.3f));
    EXPECT_EQ(single.evaluate(100.0), glm::vec4(kGreen, 0.3f));
}

TEST(TransferFunction, NanEvaluatesToTransparent)
{
    EXPECT_EQ(threePoints().evaluate(std::numeric_limits<double>::quiet_NaN()), glm::vec4(0.0f));
}

TEST(TransferFunction, EqualValuesMakeAStepThatIsRightContinuous)
{
    // A step at 10 from red (0.2) to blue (0.8).
    const TransferFunction tf(
        {{0.0, kBlack, 0.0f}, {10.0, kRed, 0.2f}, {10.0, kBlue, 0.8f}, {20.0, kWhite, 1.0f}});
    ASSERT_EQ(tf.points()[1].color, kRed);
    ASSERT_EQ(tf.points()[2].color, kBlue);

    expectRgba(tf.evaluate(5.0), {0.5f, 0.0f, 0.0f, 0.1f});
    expectRgba(tf.evaluate(std::nextafter(10.0, 0.0)), {1.0f, 0.0f, 0.0f, 0.2f}, 1e-5f);
    EXPECT_EQ(tf.evaluate(10.0), glm::vec4(kBlue, 0.8f));
    expectRgba(tf.evaluate(15.0), {0.5f, 0.5f, 1.0f, 0.9f});
}

TEST(TransferFunction, HugeValueSpanStillInterpolates)
{
    const double big = std::numeric_limits<double>::max();
    const TransferFunction tf({{-big, kBlack, 0.0f}, {big, kWhite, 1.0f}});
    expectRgba(tf.evaluate(0.0), {0.5f, 0.5f, 0.5f, 0.5f});
}

TEST(TransferFunction, ConstructorSortsAndKeepsTheOrderOfEqualValues)
{
    const TransferFunction tf(
        {{30.0, kWhite, 1.0f}, {10.0, kRed, 0.1f}, {20.0, kGreen, 0.2f}, {10.0, kBlue, 0.3f}},
        "mixed");
    EXPECT_EQ(valuesOf(tf), (std::vector<double>{10.0, 10.0, 20.0, 30.0}));
    EXPECT_EQ(tf.points()[0].color, kRed);
    EXPECT_EQ(tf.points()[1].color, kBlue);
    EXPECT_EQ(tf.name(), "mixed");
}

TEST(TransferFunction, ConstructorRejectsInvalidPointsNamingThem)
{
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    const TransferPoint good{0.0, kRed, 0.5f};
    expectInvalid(
        [&] {
            TransferFunction({good, {nan, kRed, 0.5f}});
        },
        "transfer function point 2 has value nan, expected a finite number");
    expectInvalid([&] { TransferFunction({{inf, kRed, 0.5f}}); }, "point 1 has value inf");
    expectInvalid(
        [&] {
            TransferFunction({good, good, {1.0, kRed, 1.5f}});
        },
        "transfer function point 3 has opacity 1.5, expected 0..1");
    expectInvalid([&] { TransferFunction({{1.0, kRed, -0.25f}}); }, "opacity -0.25");
    expectInvalid(
        [&] {
            TransferFunction({{1.0, {0.0f, 1.25f, 0.0f}, 0.5f}});
        },
        "point 1 has color [0, 1.25, 0], expected each component in 0..1");
    expectInvalid(
        [&] {
            TransferFunction({{1.0, {0.0f, 0.0f, float(nan)}, 0.5f}});
        },
        "has color [0, 0, nan]");
    expectInvalid([&] { TransferFunction({{1.0, kRed, float(nan)}}); }, "opacity nan");
}

TEST(TransferFunction, SampleTakesTheCentresOfEqualSteps)
{
    // Opacity ramps 0 -> 1 over [0, 100], so each sample's opacity is its position / 100.
    const TransferFunction tf({{0.0, kBlack, 0.0f}, {100.0, kWhite, 1.0f}});
    const std::vector<glm::vec4> lut = tf.sample(0.0, 100.0, 4);
    ASSERT_EQ(lut.size(), 4u);
    EXPECT_FLOAT_EQ(lut[0].a, 0.125f);
    EXPECT_FLOAT_EQ(lut[1].a, 0.375f);
    EXPECT_FLOAT_EQ(lut[2].a, 0.625f);
    EXPECT_FLOAT_EQ(lut[3].a, 0.875f);

    const std::vector<glm::vec4> one = tf.sample(0.0, 100.0, 1);
    ASSERT_EQ(one.size(), 1u);
    EXPECT_FLOAT_EQ(one[0].a, 0.5f);

    // A wider range than the points: the outer samples hold the ends.
    const std::vector<glm::vec4> wide = tf.sample(-100.0, 200.0, 3);
    EXPECT_EQ(wide[0], glm::vec4(0.0f));
    EXPECT_FLOAT_EQ(wide[1].a, 0.5f);
    EXPECT_EQ(wide[2], glm::vec4(1.0f));
}

TEST(TransferFunction, SampleMatchesEvaluateAtEveryCentre)
{
    const TransferFunction tf = transferFunctionPreset(TransferPreset::CtBone, {-1024, 3071});
    const std::size_t n = 256;
    const std::vector<glm::vec4> lut = tf.sample(-1024.0, 3071.0, n);
    ASSERT_EQ(lut.size(), n);
    for (std::size_t i = 0; i < n; ++i) {
        const double centre = -1024.0 + (double(i) + 0.5) * 4095.0 / double(n);
        expectRgba(lut[i], tf.evaluate(centre));
    }
}

TEST(TransferFunction, SampleRejectsZeroCountAndNonFiniteRanges)
{
    const TransferFunction tf = threePoints();
    expectInvalid([&] { (void)tf.sample(0.0, 1.0, 0); }, "at least 1");
    expectInvalid([&] { (void)tf.sample(0.0, std::numeric_limits<double>::infinity(), 8); },
                  "not finite");
}

TEST(TransferFunction, AddPointKeepsSortingAndReturnsItsIndex)
{
    TransferFunction tf = threePoints();
    EXPECT_EQ(tf.addPoint({50.0, kGreen, 0.3f}), 1u);
    EXPECT_EQ(tf.addPoint({-10.0, kBlue, 0.0f}), 0u);
    EXPECT_EQ(tf.addPoint({500.0, kBlue, 0.9f}), 5u);
    // Equal to an existing value: after it (the new point is the step's right-hand side).
    EXPECT_EQ(tf.addPoint({100.0, kBlue, 0.7f}), 4u);
    EXPECT_EQ(valuesOf(tf), (std::vector<double>{-10.0, 0.0, 50.0, 100.0, 100.0, 200.0, 500.0}));
    EXPECT_EQ(tf.points()[2], (TransferPoint{50.0, kGreen, 0.3f}));
    EXPECT_EQ(tf.points()[3].color, kRed);
    EXPECT_EQ(tf.points()[4].color, kBlue);
    EXPECT_EQ(tf.evaluate(100.0), glm::vec4(kBlue, 0.7f));

    TransferFunction empty;
    EXPECT_EQ(empty.addPoint({3.0, kRed, 0.1f}), 0u);
    EXPECT_EQ(empty.size(), 1u);
}

TEST(TransferFunction, InvalidAddLeavesTheFunctionUnchanged)
{
    TransferFunction tf = threePoints();
    const TransferFunction before = tf;
    expectInvalid(
        [&] {
            tf.addPoint({std::numeric_limits<double>::quiet_NaN(), kRed, 0.1f});
        },
        "new transfer function point has value nan");
    expectInvalid([&] { tf.addPoint({1.0, kRed, 2.0f}); }, "opacity 2");
    EXPECT_EQ(tf, before);
}

TEST(TransferFunction, RemovePointErasesExactlyThatPoint)
{
    TransferFunction tf = threePoints();
    tf.removePoint(1);
    EXPECT_EQ(valuesOf(tf), (std::vector<double>{0.0, 200.0}));
    expectRgba(tf.evaluate(100.0), {0.5f, 0.5f, 0.5f, 0.5f});
    expectInvalid([&] { tf.removePoint(2); }, "has no point 3 (it has 2)");
    tf.removePoint(0);
    tf.removePoint(0);
    EXPECT_EQ(tf.size(), 0u);
    expectInvalid([&] { tf.removePoint(0); }, "has no point 1 (it has 0)");
}

TEST(TransferFunction, MovePointMayPassItsNeighboursAndKeepsItsColour)
{
    TransferFunction tf = threePoints();
    // The black point at 0 moves past both others.
    EXPECT_EQ(tf.movePoint(0, 300.0, 0.25f), 2u);
    EXPECT_EQ(valuesOf(tf), (std::vector<double>{100.0, 200.0, 300.0}));
    EXPECT_EQ(tf.points()[2], (TransferPoint{300.0, kBlack, 0.25f}));
    // And back to the front.
    EXPECT_EQ(tf.movePoint(2, -50.0, 0.75f), 0u);
    EXPECT_EQ(tf.points()[0], (TransferPoint{-50.0, kBlack, 0.75f}));
    // Within its interval it keeps its index.
    EXPECT_EQ(tf.movePoint(1, 150.0, 0.5f), 1u);
    EXPECT_EQ(tf.points()[1], (TransferPoint{150.0, kRed, 0.5f}));
}

TEST(TransferFunction, MovePointOntoANeighboursValueStaysOnItsSide)
{
    TransferFunction tf = threePoints();
    // Dragged right onto the white point's value: still before it.
    EXPECT_EQ(tf.movePoint(1, 200.0, 0.5f), 1u);
    EXPECT_EQ(tf.points()[1].color, kRed);
    EXPECT_EQ(tf.points()[2].color, kWhite);
    // Dragged left onto the black point's value: still after it.
    EXPECT_EQ(tf.movePoint(1, 0.0, 0.5f), 1u);
    EXPECT_EQ(tf.points()[0].color, kBlack);
    EXPECT_EQ(tf.points()[1].color, kRed);
}

TEST(TransferFunction, InvalidMoveOrColourThrowsAndChangesNothing)
{
    TransferFunction tf = threePoints();
    const TransferFunction before = tf;
    expectInvalid([&] { tf.movePoint(3, 1.0, 0.5f); }, "has no point 4");
    expectInvalid([&] { tf.movePoint(1, std::numeric_limits<double>::infinity(), 0.5f); },
                  "transfer function point 2 has value inf");
    expectInvalid([&] { tf.movePoint(1, 1.0, 1.01f); }, "opacity 1.01");
    expectInvalid([&] { tf.setColor(0, {0.5f, -0.1f, 0.5f}); }, "color [0.5, -0.1, 0.5]");
    expectInvalid([&] { tf.setColor(9, kRed); }, "has no point 10");
    EXPECT_EQ(tf, before);

    tf.setColor(0, kGreen);
    EXPECT_EQ(tf.points()[0], (TransferPoint{0.0, kGreen, 0.0f}));
}

TEST(TransferFunction, EqualityComparesPointsAndName)
{
    TransferFunction a = threePoints();
    TransferFunction b = threePoints();
    EXPECT_EQ(a, b);
    b.setName("other");
    EXPECT_NE(a, b);
    b.setName(a.name());
    b.setColor(1, kGreen);
    EXPECT_NE(a, b);
}

// --- Presets ---------------------------------------------------------------------------------

constexpr ValueRange kCtRange{-1024.0, 3071.0};

float opacityAt(const TransferFunction& tf, double value)
{
    return tf.evaluate(value).a;
}

float brightnessAt(const TransferFunction& tf, double value)
{
    const glm::vec4 c = tf.evaluate(value);
    return c.r + c.g + c.b;
}

TEST(TransferFunctionPresets, AllAreValidSortedAndNamed)
{
    std::set<std::string> names;
    for (TransferPreset preset : allTransferPresets()) {
        const TransferFunction tf = transferFunctionPreset(preset, kCtRange);
        const std::string name(transferPresetName(preset));
        SCOPED_TRACE(name);
        names.insert(name);
        EXPECT_EQ(tf.name(), name);
        ASSERT_GE(tf.size(), 3u);
        for (std::size_t i = 0; i < tf.size(); ++i) {
            const TransferPoint& p = tf.points()[i];
            EXPECT_NO_THROW(validateTransferPoint(p, "preset point"));
            if (i > 0) {
                EXPECT_LT(tf.points()[i - 1].value, p.value) << "point " << i;
            }
        }
        // Nothing is opaque in one sample: that would hide everything behind one voxel.
        for (const TransferPoint& p : tf.points())
            EXPECT_LE(p.opacity, 0.8f);
        // The lowest values (air, background) are transparent.
        EXPECT_EQ(opacityAt(tf, kCtRange.min), 0.0f);
    }
    EXPECT_EQ(names.size(), 4u);
    EXPECT_EQ(allTransferPresets().size(), 4u);
    EXPECT_EQ(transferPresetName(TransferPreset::CtBone), "CT bone");
    EXPECT_EQ(transferPresetName(TransferPreset::CtSkinSoftTissue), "CT skin/soft tissue");
    EXPECT_EQ(transferPresetName(TransferPreset::CtLung), "CT lung");
    EXPECT_EQ(transferPresetName(TransferPreset::Mr), "MR");
}

TEST(TransferFunctionPresets, CtBoneShowsOnlyBone)
{
    const TransferFunction tf = transferFunctionPreset(TransferPreset::CtBone, kCtRange);
    EXPECT_EQ(opacityAt(tf, -1000.0), 0.0f); // air
    EXPECT_EQ(opacityAt(tf, -100.0), 0.0f);  // fat
    EXPECT_EQ(opacityAt(tf, 0.0), 0.0f);     // water
    EXPECT_EQ(opacityAt(tf, 60.0), 0.0f);    // blood, muscle
    EXPECT_EQ(opacityAt(tf, 150.0), 0.0f);
    EXPECT_GT(opacityAt(tf, 300.0), 0.0f); // cancellous bone
    EXPECT_LT(opacityAt(tf, 300.0), 0.3f);
    EXPECT_GT(opacityAt(tf, 700.0), 0.5f); // cortical bone
    EXPECT_GT(opacityAt(tf, 1000.0), 0.3f);
    EXPECT_GE(opacityAt(tf, 3000.0), opacityAt(tf, 1000.0));
    // Bone-white: bright and nearly neutral.
    const glm::vec4 cortical = tf.evaluate(1000.0);
    EXPECT_GT(cortical.b, 0.85f);
    EXPECT_GT(cortical.r, 0.95f);
    // Opacity never falls as density rises.
    float previous = 0.0f;
    for (double hu = -1024.0; hu <= 3071.0; hu += 8.0) {
        EXPECT_GE(opacityAt(tf, hu), previous) << hu << " HU";
        previous = opacityAt(tf, hu);
    }
}

TEST(TransferFunctionPresets, CtSkinShowsSkinToneSoftTissueFaintBoneBright)
{
    const TransferFunction tf = transferFunctionPreset(TransferPreset::CtSkinSoftTissue, kCtRange);
    EXPECT_EQ(opacityAt(tf, -1000.0), 0.0f);
    EXPECT_EQ(opacityAt(tf, -600.0), 0.0f);
    // The air/skin boundary and soft tissue: skin tone (red > green > blue), low opacity.
    for (double hu : {-300.0, -100.0, 0.0, 50.0}) {
        SCOPED_TRACE(hu);
        const glm::vec4 c = tf.evaluate(hu);
        EXPECT_GT(c.r, c.g);
        EXPECT_GT(c.g, c.b);
        EXPECT_GT(c.a, 0.0f);
        EXPECT_LE(c.a, 0.15f);
    }
    // Bone: brighter and more opaque than soft tissue.
    EXPECT_GT(brightnessAt(tf, 1000.0), brightnessAt(tf, 40.0) + 0.5f);
    EXPECT_GT(opacityAt(tf, 1000.0), 3.0f * opacityAt(tf, 40.0));
}

TEST(TransferFunctionPresets, CtLungShowsParenchymaAndVesselsNotTheChestWall)
{
    const TransferFunction tf = transferFunctionPreset(TransferPreset::CtLung, kCtRange);
    EXPECT_EQ(opacityAt(tf, -1000.0), 0.0f); // air outside the body and in the trachea
    EXPECT_GT(opacityAt(tf, -850.0), 0.0f);  // aerated lung
    EXPECT_GT(opacityAt(tf, -700.0), 0.0f);
    EXPECT_LT(opacityAt(tf, -700.0), 0.1f);
    // Vessel walls (partial volume) stand out against the parenchyma, in red.
    EXPECT_GT(opacityAt(tf, -400.0), 3.0f * opacityAt(tf, -800.0));
    const glm::vec4 vessel = tf.evaluate(-400.0);
    EXPECT_GT(vessel.r, 2.0f * vessel.g);
    // Soft tissue and fat are hidden.
    EXPECT_EQ(opacityAt(tf, -100.0), 0.0f);
    EXPECT_EQ(opacityAt(tf, 40.0), 0.0f);
}

TEST(TransferFunctionPresets, MrRampsOverTheRange)
{
    const TransferFunction tf = transferFunctionPreset(TransferPreset::Mr, {100.0, 1100.0});
    EXPECT_EQ(tf.points().front().value, 100.0);
    EXPECT_EQ(tf.points().back().value, 1100.0);
    EXPECT_EQ(opacityAt(tf, 100.0), 0.0f);
    // Bottom tenth (background, noise): low opacity.
    for (double v = 100.0; v <= 200.0; v += 10.0)
        EXPECT_LE(opacityAt(tf, v), 0.05f) << v;
    EXPECT_GT(opacityAt(tf, 1100.0), 0.4f);
    EXPECT_GT(brightnessAt(tf, 1100.0), 2.9f);
    EXPECT_EQ(brightnessAt(tf, 100.0), 0.0f);
    // Dark to bright, transparent to opaque, without dips.
    for (double v = 100.0; v < 1100.0; v += 5.0) {
        EXPECT_LE(opacityAt(tf, v), opacityAt(tf, v + 5.0)) << v;
        EXPECT_LE(brightnessAt(tf, v), brightnessAt(tf, v + 5.0)) << v;
    }
}

TEST(TransferFunctionPresets, MrHandlesConstantAndRejectsNonFiniteRanges)
{
    const TransferFunction flat = transferFunctionPreset(TransferPreset::Mr, {5.0, 5.0});
    EXPECT_LT(flat.points().front().value, 5.0);
    EXPECT_GT(flat.points().back().value, 5.0);

    const double big = std::numeric_limits<double>::max();
    const TransferFunction huge = transferFunctionPreset(TransferPreset::Mr, {-big, big});
    EXPECT_EQ(huge.size(), 3u);
    EXPECT_LT(huge.points()[0].value, huge.points()[1].value);

    expectInvalid(
        [] {
            transferFunctionPreset(TransferPreset::Mr,
                                   {0.0, std::numeric_limits<double>::infinity()});
        },
        "finite value range");
    expectInvalid([] { transferFunctionPreset(TransferPreset::Mr, {10.0, 0.0}); }, "[10, 0]");
}

TEST(TransferFunctionPresets, CtEndPointsReachAWiderDataRangeWithoutChangingTheCurve)
{
    for (TransferPreset preset :
         {TransferPreset::CtBone, TransferPreset::CtSkinSoftTissue, TransferPreset::CtLung}) {
        SCOPED_TRACE(std::string(transferPresetName(preset)));
        const TransferFunction standard = transferFunctionPreset(preset, kCtRange);
        const TransferFunction wide = transferFunctionPreset(preset, {-3024.0, 4000.0});
        const TransferFunction narrow = transferFunctionPreset(preset, {-1000.0, 1000.0});
        EXPECT_EQ(wide.points().front().value, -3024.0);
        EXPECT_EQ(wide.points().back().value, 4000.0);
        EXPECT_EQ(narrow.points(), standard.points()); // never pulled inward
        for (double hu = -3500.0; hu <= 4500.0; hu += 25.0) {
            EXPECT_EQ(wide.evaluate(hu), standard.evaluate(hu)) << hu;
        }
    }
}

Volume volumeWith(double lo, double hi, ValueRescale rescale, std::string modality,
                  std::string units)
{
    // Voxels hold lo except the i == 3 layer, which holds hi.
    Volume v = test::makeTypedVolume<std::int16_t>(
        {4, 4, 4}, [&](std::uint32_t i, std::uint32_t, std::uint32_t) { return i == 3 ? hi : lo; },
        {}, rescale);
    VolumeMetadata meta;
    meta.modality = std::move(modality);
    meta.units = std::move(units);
    v.setMetadata(meta);
    return v;
}

TEST(TransferFunctionPresets, DefaultIsSkinForCtAndAnMrRampOverTheRealRangeOtherwise)
{
    const Volume ct = volumeWith(0, 4095, {1.0, -1024.0}, "CT", "HU");
    EXPECT_EQ(defaultTransferFunction(ct).name(), "CT skin/soft tissue");
    EXPECT_EQ(defaultTransferFunction(volumeWith(0, 100, {}, "CT", "")).name(),
              "CT skin/soft tissue");
    EXPECT_EQ(defaultTransferFunction(volumeWith(0, 100, {}, "", "HU")).name(),
              "CT skin/soft tissue");

    // Stored 10..250 with slope 2 and intercept -100: real -80..400.
    const TransferFunction mr =
        defaultTransferFunction(volumeWith(10, 250, {2.0, -100.0}, "MR", ""));
    EXPECT_EQ(mr.name(), "MR");
    EXPECT_EQ(mr.points().front().value, -80.0);
    EXPECT_EQ(mr.points().back().value, 400.0);
    EXPECT_EQ(mr, transferFunctionPreset(TransferPreset::Mr, {-80.0, 400.0}));
}

TEST(TransferFunctionPresets, DefaultForTheBundledMrSampleShowsItsSkin)
{
    const Volume sample = test::loadBundledSample();
    const TransferFunction tf = defaultTransferFunction(sample);
    EXPECT_EQ(tf.name(), "MR");
    const ValueRange range = sample.storedRange();
    EXPECT_EQ(tf.points().front().value, range.min);
    EXPECT_EQ(tf.points().back().value, range.max);
    // The skin (stored 40) is faint but not invisible; the background (0) is transparent.
    EXPECT_GT(opacityAt(tf, 40.0), 0.0f);
    EXPECT_EQ(opacityAt(tf, 0.0), 0.0f);
}

} // namespace
} // namespace isoview
