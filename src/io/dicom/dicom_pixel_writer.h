// Stored values into voxels: the BitsStored bits that end at HighBit of each raw sample word,
// sign-extended from the top one when the samples are signed, written as the volume's scalar
// type (negated, or converted to real units, when the slice's mapping says so).
//
// Contract: raw holds `count` words of layout.bitsAllocated bits (8, 16 or 32) in host byte
// order; target has room for `count` values of mapping.type. Pure; never throws.
#pragma once

#include "volume/volume.h"

#include <cstddef>
#include <cstdint>
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
};

void writeSlice(std::span<const std::uint8_t> raw, const SampleLayout& layout,
                const SliceMapping& mapping, std::size_t count, std::byte* target);

} // namespace isoview::io::dicom
