// Voxel type and rescale of a stack, from each kept slice's stored bit depth, signedness,
// rescale and padding: pure, no file access.
//
// Contract of chooseValueMapping (slices in stack order, at least one):
// - Rescales are checked first: a slope or intercept that is not a finite number, a slope
//   whose magnitude is outside [1e-12, 1e12] or an intercept beyond 1e9 in magnitude is an
//   InvalidInputError naming the attribute, its stored text and the file. A slope of 0 is
//   taken as 1 (warning naming the file): it would map every voxel to the intercept, so it
//   can only mean "not set", and other viewers show such images.
// - One shared rescale: the smallest of uint8/int8/uint16/int16/uint32/int32 (float64 beyond)
//   that holds every value BitsStored allows; rescale = (|slope|, intercept). A negative slope
//   negates the stored values (warning).
// - Different rescales: float32 voxels holding real values, identity rescale (warning).
// - Padding (PixelPaddingValue, up to PixelPaddingRangeLimit): padding samples are written as
//   ValueMapping::paddingValue, a stored value below every value the other samples can take:
//   the type's lowest value (-FLT_MAX for float types). When a data sample could take that
//   value too (and it is not itself padding in every slice), the type is widened when that
//   costs no memory (12-bit unsigned data in uint16 becomes int16) or the range is unsigned
//   (uint8 becomes int16, 16-bit uint16 int32); a full signed range keeps its type and a data
//   sample at its lowest value is written one above it (the writer counts these).
// ValueMapping::slices has one SliceMapping per slice, in the same order.
#pragma once

#include "io/dicom/dicom_pixel_writer.h"
#include "volume/volume.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace isoview::io::dicom {

// What one slice says about its values.
struct SliceValues {
    std::uint32_t bitsStored = 16;
    bool pixelSigned = false;
    std::optional<double> slope;     // RescaleSlope (RT dose: DoseGridScaling)
    std::optional<double> intercept; // RescaleIntercept
    std::string slopeText;           // as stored, for messages
    std::string interceptText;
    bool slopeIsDoseGridScaling = false;
    std::optional<std::int64_t> paddingValue;      // PixelPaddingValue, stored units
    std::optional<std::int64_t> paddingRangeLimit; // PixelPaddingRangeLimit
    std::string label;                             // the quoted file (and frame), for messages
};

struct ValueMapping {
    ScalarType type = ScalarType::Int16;
    ValueRescale rescale;
    std::vector<SliceMapping> slices; // per kept slice
    // The stored value padding samples are written as; empty when no slice has padding.
    std::optional<double> paddingValue;
};

// The text of a slice's padding attributes for messages: "PixelPaddingValue -2000", with
// "to PixelPaddingRangeLimit N" when a range is given.
std::string describePadding(const SliceValues& slice);

ValueMapping chooseValueMapping(const std::vector<SliceValues>& slices,
                                std::vector<std::string>& warnings);

} // namespace isoview::io::dicom
