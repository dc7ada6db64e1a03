// Stored values into voxels: the BitsStored bits that end at HighBit of each raw sample word,
// sign-extended from the top one when the samples are signed, written as the volume's scalar
// type (negated, or converted to real units, when the slice's mapping says so). Padding
// samples (stored values within the mapping's padding range) are written as the padding
// value instead; a data sample that would equal the padding value (possible only when the
// mapping keeps a full signed range, see dicom_value_mapping.h) is written one above it.
//
// Contract: raw holds `count` words of layout.bitsAllocated bits (8, 16 or 32) in host byte
// order; target has room for `count` values of mapping.type. Returns how many samples were
// padding and how many were moved off the padding value. Pure; never throws.
#pragma once

#include "volume/volume.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

namespace isoview::io::dicom {

struct SampleLayout {
    std::uint32_t bitsAllocated = 16;
    std::uint32_t bitsStored = 16;
    std::uint32_t highBit = 15;
    bool isSigned = false;
};

// How the stored values of one slice become voxels.
struct SliceMapping {
    ScalarType type = ScalarType::Int16;
    bool negate = false; // a negative rescale slope made positive
    bool toReal = false; // float voxels holding stored * slope + intercept
    double slope = 1.0;
    double intercept = 0.0;
    // Stored values from paddingLow to paddingHigh (inclusive; before any negation) are
    // padding (PixelPaddingValue): written as paddingValue, which lies below every value the
    // slice can map to.
    std::optional<std::int64_t> paddingLow;
    std::int64_t paddingHigh = 0;
    double paddingValue = 0.0;
};

struct SliceWriteCounts {
    std::size_t padding = 0;
    std::size_t movedOffPadding = 0;
};

SliceWriteCounts writeSlice(std::span<const std::uint8_t> raw, const SampleLayout& layout,
                            const SliceMapping& mapping, std::size_t count, std::byte* target);

} // namespace isoview::io::dicom
