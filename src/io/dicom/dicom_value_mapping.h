// Voxel type and rescale of a stack, from each kept slice's stored bit depth, signedness and
// rescale: pure, no file access.
//
// Contract of chooseValueMapping (slices in stack order, at least one):
// - One shared rescale: the smallest of uint8/int8/uint16/int16/uint32/int32 (float64 beyond)
//   that holds every value BitsStored allows; rescale = (|slope|, intercept). A negative slope
//   negates the stored values (warning). A slope of 0 is taken as 1 (warning).
// - Different rescales: float32 voxels holding real values, identity rescale (warning).
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
};

struct ValueMapping {
    ScalarType type = ScalarType::Int16;
    ValueRescale rescale;
    std::vector<SliceMapping> slices; // per kept slice
};

ValueMapping chooseValueMapping(const std::vector<SliceValues>& slices,
                                std::vector<std::string>& warnings);

} // namespace isoview::io::dicom
