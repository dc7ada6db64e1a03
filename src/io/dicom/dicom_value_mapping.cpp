#include "io/dicom/dicom_value_mapping.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <tuple>
#include <utility>

namespace isoview::io::dicom {
namespace {

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

} // namespace

ValueMapping chooseValueMapping(const std::vector<SliceValues>& slices,
                                std::vector<std::string>& warnings)
{
    std::int64_t low = std::numeric_limits<std::int64_t>::max();
    std::int64_t high = std::numeric_limits<std::int64_t>::min();
    std::vector<ValueRescale> rescales;
    bool zeroSlope = false;
    for (const SliceValues& s : slices) {
        const std::int64_t bits = s.bitsStored;
        low = std::min(low, s.pixelSigned ? -(std::int64_t(1) << (bits - 1)) : 0);
        high = std::max(high, s.pixelSigned ? (std::int64_t(1) << (bits - 1)) - 1
                                            : (std::int64_t(1) << bits) - 1);
        ValueRescale rescale{s.slope.value_or(1.0), s.intercept.value_or(0.0)};
        if (rescale.slope == 0.0) {
            zeroSlope = true;
            rescale.slope = 1.0;
        }
        rescales.push_back(rescale);
    }
    if (zeroSlope) warnings.push_back("RescaleSlope 0 is not usable; 1 was used instead");

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
            mapping.slices.push_back(SliceMapping{.type = ScalarType::Float32,
                                                  .toReal = true,
                                                  .slope = r.slope,
                                                  .intercept = r.intercept});
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
    mapping.rescale = ValueRescale{std::abs(first.slope), first.intercept};
    mapping.slices.assign(slices.size(), SliceMapping{.type = mapping.type, .negate = negate});
    return mapping;
}

} // namespace isoview::io::dicom
