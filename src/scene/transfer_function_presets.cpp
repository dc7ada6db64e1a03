// The built-in transfer functions. Opacities are per sample taken once per voxel (the ray caster
// corrects them for its step), so a tissue that fills many voxels becomes opaque at a few
// tenths; the values below were chosen with that in mind.
#include "core/error.h"
#include "scene/transfer_function.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>
#include <string>

namespace isoview {
namespace {

// The HU span of a CT scanner's stored values (-1024 is air, 3071 the 12-bit ceiling).
constexpr double kCtLowestHu = -1024.0;
constexpr double kCtHighestHu = 3071.0;

std::string formatNumber(double x)
{
    char buffer[64];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, x);
    return std::string(buffer, result.ptr);
}

// CT presets are fixed in HU, and both of their end segments are flat (the first two and the
// last two points share colour and opacity). That lets the end points move out to the ends of
// a wider data range, so an editor shows handles at the data's edges, without changing what
// evaluate() returns anywhere.
TransferFunction ctPreset(TransferPreset preset, std::vector<TransferPoint> points,
                          ValueRange realRange)
{
    if (std::isfinite(realRange.min)) {
        points.front().value = std::min(points.front().value, realRange.min);
    }
    if (std::isfinite(realRange.max)) {
        points.back().value = std::max(points.back().value, realRange.max);
    }
    return TransferFunction(std::move(points), std::string(transferPresetName(preset)));
}

// Bone: transparent through soft tissue and contrast-free blood; cancellous bone (~300 HU)
// faint and ochre; cortical bone (700 HU and above) bone-white and nearly opaque.
TransferFunction ctBone(ValueRange realRange)
{
    const glm::vec3 marrow{0.55f, 0.25f, 0.15f};
    const glm::vec3 white{1.0f, 1.0f, 1.0f};
    return ctPreset(TransferPreset::CtBone,
                    {
                        {kCtLowestHu, marrow, 0.0f},
                        {150.0, marrow, 0.0f},
                        {300.0, {0.85f, 0.70f, 0.52f}, 0.12f},
                        {700.0, {0.96f, 0.92f, 0.84f}, 0.65f},
                        {1500.0, white, 0.8f},
                        {kCtHighestHu, white, 0.8f},
                    },
                    realRange);
}

// Skin and soft tissue: the air/skin boundary (-500..-100 HU, partial volume and fat) in skin
// tone, soft tissue (0..100 HU) pinkish at low opacity so the body reads as a translucent
// shell, bone (500 HU and above) brighter and more opaque.
TransferFunction ctSkinSoftTissue(ValueRange realRange)
{
    const glm::vec3 skinShadow{0.72f, 0.45f, 0.35f};
    const glm::vec3 white{1.0f, 1.0f, 1.0f};
    return ctPreset(TransferPreset::CtSkinSoftTissue,
                    {
                        {kCtLowestHu, skinShadow, 0.0f},
                        {-500.0, skinShadow, 0.0f},
                        {-300.0, {0.90f, 0.66f, 0.53f}, 0.08f},
                        {-100.0, {0.93f, 0.72f, 0.60f}, 0.10f},
                        {100.0, {0.85f, 0.50f, 0.42f}, 0.06f},
                        {250.0, {0.90f, 0.80f, 0.68f}, 0.06f},
                        {500.0, {0.97f, 0.94f, 0.88f}, 0.5f},
                        {1500.0, white, 0.7f},
                        {kCtHighestHu, white, 0.7f},
                    },
                    realRange);
}

// Lung: air (outside the body, trachea) clear; aerated parenchyma (-900..-600 HU) a faint pink
// haze; the partial-volume shells of vessels and airway walls (-450..-200 HU) red and much
// more opaque; soft tissue and fat hidden so the chest wall does not cover the lungs; ribs
// faint for orientation.
TransferFunction ctLung(ValueRange realRange)
{
    const glm::vec3 air{0.45f, 0.25f, 0.22f};
    const glm::vec3 white{1.0f, 1.0f, 1.0f};
    return ctPreset(TransferPreset::CtLung,
                    {
                        {kCtLowestHu, air, 0.0f},
                        {-950.0, air, 0.0f},
                        {-850.0, {0.88f, 0.62f, 0.58f}, 0.03f},
                        {-600.0, {0.92f, 0.70f, 0.66f}, 0.06f},
                        {-450.0, {0.80f, 0.22f, 0.18f}, 0.3f},
                        {-200.0, {0.75f, 0.18f, 0.15f}, 0.3f},
                        {-100.0, {0.70f, 0.15f, 0.12f}, 0.0f},
                        {300.0, {0.90f, 0.88f, 0.82f}, 0.0f},
                        {1000.0, white, 0.15f},
                        {kCtHighestHu, white, 0.15f},
                    },
                    realRange);
}

// MR: intensities have no absolute scale, so a grey ramp over the data range, dark to bright,
// with the bottom tenth (background and noise) nearly transparent.
TransferFunction mrRamp(ValueRange realRange)
{
    if (!std::isfinite(realRange.min) || !std::isfinite(realRange.max) ||
        realRange.min > realRange.max) {
        throw InvalidInputError("MR transfer function preset needs a finite value range, got [" +
                                formatNumber(realRange.min) + ", " + formatNumber(realRange.max) +
                                "]");
    }
    double lo = realRange.min;
    double hi = realRange.max;
    if (lo == hi) {
        // A constant volume: a small span around its value keeps the ramp's points apart.
        const double pad = std::max(0.5, std::abs(lo) * 1e-6);
        constexpr double kMax = std::numeric_limits<double>::max();
        lo = std::max(lo - pad, -kMax);
        hi = std::min(hi + pad, kMax);
    }
    // lo * 0.9 + hi * 0.1 cannot overflow where lo + 0.1 * (hi - lo) could.
    const double tenth = std::clamp(lo * 0.9 + hi * 0.1, lo, hi);
    return TransferFunction(
        {
            {lo, {0.0f, 0.0f, 0.0f}, 0.0f},
            {tenth, {0.55f, 0.5f, 0.45f}, 0.04f},
            {hi, {1.0f, 1.0f, 1.0f}, 0.6f},
        },
        std::string(transferPresetName(TransferPreset::Mr)));
}

bool equalsIgnoringCase(std::string_view a, std::string_view b)
{
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
        return std::tolower(static_cast<unsigned char>(x)) ==
               std::tolower(static_cast<unsigned char>(y));
    });
}

} // namespace

std::string_view transferPresetName(TransferPreset preset)
{
    switch (preset) {
    case TransferPreset::CtBone: return "CT bone";
    case TransferPreset::CtSkinSoftTissue: return "CT skin/soft tissue";
    case TransferPreset::CtLung: return "CT lung";
    case TransferPreset::Mr: return "MR";
    }
    throw InvalidInputError("unknown transfer function preset " +
                            std::to_string(static_cast<int>(preset)));
}

std::vector<TransferPreset> allTransferPresets()
{
    return {TransferPreset::CtBone, TransferPreset::CtSkinSoftTissue, TransferPreset::CtLung,
            TransferPreset::Mr};
}

TransferFunction transferFunctionPreset(TransferPreset preset, ValueRange realRange)
{
    switch (preset) {
    case TransferPreset::CtBone: return ctBone(realRange);
    case TransferPreset::CtSkinSoftTissue: return ctSkinSoftTissue(realRange);
    case TransferPreset::CtLung: return ctLung(realRange);
    case TransferPreset::Mr: return mrRamp(realRange);
    }
    throw InvalidInputError("unknown transfer function preset " +
                            std::to_string(static_cast<int>(preset)));
}

TransferFunction defaultTransferFunction(const Volume& volume)
{
    // The real range may overflow for huge float data; the preset needs finite ends.
    constexpr double kMax = std::numeric_limits<double>::max();
    const ValueRange range = volume.realRange();
    const ValueRange real{std::clamp(range.min, -kMax, kMax), std::clamp(range.max, -kMax, kMax)};

    const VolumeMetadata& meta = volume.metadata();
    const bool ctInHu = equalsIgnoringCase(meta.modality, "CT") || meta.units == "HU";
    return transferFunctionPreset(ctInHu ? TransferPreset::CtSkinSoftTissue : TransferPreset::Mr,
                                  real);
}

} // namespace isoview
