#include "io/dicom/dicom_value_mapping.h"

#include "core/error.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <tuple>
#include <utility>

namespace isoview::io::dicom {
namespace {

// Limits that no scanner comes near (CT slopes are 1, MR and PET slopes stay within 1e-6 to
// 1e4, RT dose scaling is about 1e-6, intercepts are at most tens of thousands) and that keep
// every real value of a 32-bit stored range (|stored| < 4.3e9) within |real| < 1e22: finite in
// float32 (the voxels of mixed-rescale stacks) and in every float the renderer uses, with a
// stored step of at least 1e-12 units.
constexpr double kMinSlope = 1e-12;
constexpr double kMaxSlope = 1e12;
constexpr double kMaxIntercept = 1e9;

// The smallest integer type holding [low, high]; float64 (exact to 2^53) beyond int32/uint32.
ScalarType smallestIntegerType(std::int64_t low, std::int64_t high)
{
    if (low >= 0) {
        if (high <= 0xFF) return ScalarType::UInt8;
        if (high <= 0xFFFF) return ScalarType::UInt16;
        if (high <= 0xFFFFFFFFll) return ScalarType::UInt32;
    }
    if (low >= -128 && high <= 127) return ScalarType::Int8;
    if (low >= -32768 && high <= 32767) return ScalarType::Int16;
    if (low >= std::numeric_limits<std::int32_t>::min() &&
        high <= std::numeric_limits<std::int32_t>::max()) {
        return ScalarType::Int32;
    }
    return ScalarType::Float64;
}

// The lowest value of an integer type; -FLT_MAX for the float types (the lowest value that
// survives the conversion to float that Volume::valueAt and the GPU make).
double lowestValue(ScalarType type)
{
    switch (type) {
    case ScalarType::UInt8:
    case ScalarType::UInt16:
    case ScalarType::UInt32: return 0.0;
    case ScalarType::Int8: return -128.0;
    case ScalarType::Int16: return -32768.0;
    case ScalarType::Int32: return double(std::numeric_limits<std::int32_t>::min());
    case ScalarType::Float32:
    case ScalarType::Float64: break;
    }
    return double(std::numeric_limits<float>::lowest());
}

std::string slopeName(const SliceValues& s)
{
    return s.slopeIsDoseGridScaling ? "DoseGridScaling (3004,000E)" : "RescaleSlope (0028,1053)";
}

// Refuses a rescale that no scanner writes and that would make real values non-finite or
// meaningless (see the limits above).
void requireUsableRescale(const SliceValues& s)
{
    const auto refuse = [&s](const std::string& attribute, const std::string& text,
                             const std::string& why) {
        throw InvalidInputError(attribute + " is '" + text + "' in " + s.label + ": " + why);
    };
    if (s.slope) {
        const double slope = *s.slope;
        if (!std::isfinite(slope)) {
            refuse(slopeName(s), s.slopeText, "it must be a finite number");
        }
        if (slope != 0.0 && (std::abs(slope) < kMinSlope || std::abs(slope) > kMaxSlope)) {
            refuse(slopeName(s), s.slopeText,
                   fmt::format("a slope must lie between {:g} and {:g} in magnitude; no scanner "
                               "writes one outside that",
                               kMinSlope, kMaxSlope));
        }
    }
    if (s.intercept) {
        const double intercept = *s.intercept;
        if (!std::isfinite(intercept)) {
            refuse("RescaleIntercept (0028,1052)", s.interceptText, "it must be a finite number");
        }
        if (std::abs(intercept) > kMaxIntercept) {
            refuse("RescaleIntercept (0028,1052)", s.interceptText,
                   fmt::format("an intercept must lie within +-{:g}; no scanner writes one "
                               "beyond that",
                               kMaxIntercept));
        }
    }
}

// The inclusive stored range of a slice's padding, if it has one.
std::optional<std::pair<std::int64_t, std::int64_t>> paddingRange(const SliceValues& s)
{
    if (!s.paddingValue) return std::nullopt;
    const std::int64_t limit = s.paddingRangeLimit.value_or(*s.paddingValue);
    return std::minmax(*s.paddingValue, limit);
}

void setPadding(std::vector<SliceMapping>& mappings, const std::vector<SliceValues>& slices,
                double paddingValue)
{
    for (std::size_t i = 0; i < slices.size(); ++i) {
        if (const auto range = paddingRange(slices[i])) {
            mappings[i].paddingLow = range->first;
            mappings[i].paddingHigh = range->second;
            mappings[i].paddingValue = paddingValue;
        }
    }
}

} // namespace

std::string describePadding(const SliceValues& slice)
{
    if (!slice.paddingValue) return "no padding";
    std::string text = "PixelPaddingValue " + std::to_string(*slice.paddingValue);
    if (slice.paddingRangeLimit) {
        text += " to PixelPaddingRangeLimit " + std::to_string(*slice.paddingRangeLimit);
    }
    return text;
}

ValueMapping chooseValueMapping(const std::vector<SliceValues>& slices,
                                std::vector<std::string>& warnings)
{
    std::int64_t low = std::numeric_limits<std::int64_t>::max();
    std::int64_t high = std::numeric_limits<std::int64_t>::min();
    std::vector<ValueRescale> rescales;
    std::string zeroSlopeIn;
    for (const SliceValues& s : slices) {
        requireUsableRescale(s);
        const std::int64_t bits = s.bitsStored;
        low = std::min(low, s.pixelSigned ? -(std::int64_t(1) << (bits - 1)) : 0);
        high = std::max(high, s.pixelSigned ? (std::int64_t(1) << (bits - 1)) - 1
                                            : (std::int64_t(1) << bits) - 1);
        ValueRescale rescale{s.slope.value_or(1.0), s.intercept.value_or(0.0)};
        if (rescale.slope == 0.0) {
            if (zeroSlopeIn.empty()) zeroSlopeIn = s.label;
            rescale.slope = 1.0;
        }
        rescales.push_back(rescale);
    }
    if (!zeroSlopeIn.empty()) {
        warnings.push_back(slopeName(slices.front()) + " is 0 in " + zeroSlopeIn +
                           " (and maybe other slices): it would map every voxel to the "
                           "intercept, so 1 was used instead");
    }
    const bool anyPadding = std::any_of(slices.begin(), slices.end(),
                                        [](const SliceValues& s) { return s.paddingValue; });

    const auto close = [](double a, double b) {
        return std::abs(a - b) <= 1e-12 * std::max({1.0, std::abs(a), std::abs(b)});
    };
    const ValueRescale& first = rescales.front();
    const bool shared = std::all_of(rescales.begin(), rescales.end(), [&](const ValueRescale& r) {
        return close(r.slope, first.slope) && close(r.intercept, first.intercept);
    });

    ValueMapping mapping;
    if (!shared) {
        const auto [lowSlope, highSlope] = std::minmax_element(
            rescales.begin(), rescales.end(),
            [](const ValueRescale& a, const ValueRescale& b) { return a.slope < b.slope; });
        const auto [lowIntercept, highIntercept] = std::minmax_element(
            rescales.begin(), rescales.end(),
            [](const ValueRescale& a, const ValueRescale& b) { return a.intercept < b.intercept; });
        warnings.push_back(fmt::format(
            "the slices have different rescales (slopes {:g} to {:g}, intercepts {:g} to {:g}): "
            "values were converted to real units and stored as float32",
            lowSlope->slope, highSlope->slope, lowIntercept->intercept, highIntercept->intercept));
        mapping.type = ScalarType::Float32;
        for (const ValueRescale& r : rescales) {
            SliceMapping slice;
            slice.type = ScalarType::Float32;
            slice.toReal = true;
            slice.slope = r.slope;
            slice.intercept = r.intercept;
            mapping.slices.push_back(slice);
        }
        if (anyPadding) {
            // Real values stay within 1e22 in magnitude (the rescale limits): far above it.
            mapping.paddingValue = lowestValue(ScalarType::Float32);
            setPadding(mapping.slices, slices, *mapping.paddingValue);
        }
        return mapping;
    }

    const bool negate = first.slope < 0.0;
    if (negate) {
        warnings.push_back(fmt::format("RescaleSlope {:g} is negative: the stored values were "
                                       "negated so that the slope is positive ({:g})",
                                       first.slope, -first.slope));
        std::tie(low, high) = std::pair(-high, -low);
    }
    mapping.type = smallestIntegerType(low, high);
    if (anyPadding) {
        // The type's lowest value marks padding. It is free when it lies below the range
        // BitsStored allows or is padding itself in every slice; else the type is widened when
        // that costs no memory (12-bit unsigned in int16), or when the range is unsigned (0 is
        // common data, e.g. MR background); a full signed range keeps its type (doubling a CT's
        // memory for a value no scanner writes as data would be a poor trade) and a data
        // sample at its lowest value is written one above (counted, warned).
        const double lowest = lowestValue(mapping.type);
        const bool lowestIsPaddingEverywhere =
            std::all_of(slices.begin(), slices.end(), [&](const SliceValues& s) {
                const auto range = paddingRange(s);
                if (!range) return false;
                const double a = double(negate ? -range->second : range->first);
                const double b = double(negate ? -range->first : range->second);
                return a <= lowest && lowest <= b;
            });
        if (!(lowest < double(low)) && !lowestIsPaddingEverywhere) {
            const ScalarType wider = smallestIntegerType(low - 1, high);
            if (scalarSize(wider) == scalarSize(mapping.type) || low >= 0) mapping.type = wider;
        }
        mapping.paddingValue = lowestValue(mapping.type);
    }
    mapping.rescale = ValueRescale{std::abs(first.slope), first.intercept};
    SliceMapping slice;
    slice.type = mapping.type;
    slice.negate = negate;
    mapping.slices.assign(slices.size(), slice);
    if (mapping.paddingValue) setPadding(mapping.slices, slices, *mapping.paddingValue);
    return mapping;
}

} // namespace isoview::io::dicom
