// Stack geometry: the order of a stack's slices and the volume geometry they imply, as pure
// functions over what each slice says (position, orientation, pixel spacing, InstanceNumber,
// identity). No file or DCMTK access; the loader fills StackSlice from the DICOM headers.
//
// Contract of layoutStack (what loadDicomSeries guarantees, see dicom_series_loader.h):
// - Slices are sorted by ImagePositionPatient projected on the normal n = row x column,
//   ascending; direction columns are (row, column, n). Without positions (any slice lacking
//   one) they are sorted by InstanceNumber, then file, then frame, with a warning.
// - The same image twice (same non-empty SOPInstanceUID and frame) is dropped with a warning;
//   two different images within 1e-4 mm along n throw InvalidInputError naming both and saying
//   that nothing distinguishes them (the scan has already split what does into volumes,
//   dicom_volume_grouping.h).
// - Spacing z is the mean gap of the kept positions. Gaps that differ by more than 1e-3
//   (relative) or positions that leave the normal (gantry tilt, shear) keep every slice's
//   position in geometry.sliceOrigins, with warnings naming the gaps or the angle; regular
//   stacks leave sliceOrigins empty. One slice or no positions: z = SpacingBetweenSlices,
//   else SliceThickness, else 1 (warnings say which, for more than one slice).
// - Orientations that differ between slices throw InvalidInputError; a missing or degenerate
//   orientation means identity with a warning, a missing pixel spacing 1 mm with a warning.
// Warnings are appended to `warnings` in the order they are found. Requires at least one slice.
#pragma once

#include "volume/volume.h"

#include <glm/glm.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace isoview::io::dicom {

// What one slice (a frame of a file) says about where it lies.
struct StackSlice {
    std::optional<glm::dvec3> position;               // ImagePositionPatient
    std::optional<std::array<double, 6>> orientation; // ImageOrientationPatient
    std::optional<glm::dvec2> pixelSpacing;           // DICOM order: between rows, between columns
    std::optional<double> sliceThickness;
    std::optional<double> spacingBetweenSlices;
    std::optional<std::int32_t> instanceNumber;
    std::string sopInstanceUid; // empty: never taken for a copy of another slice
    std::size_t fileIndex = 0;  // slices of one file share it
    std::filesystem::path file; // orders slices of different files when nothing else does
    std::uint32_t frame = 0;    // within the file
    std::string label;          // what messages call the slice
};

struct StackLayout {
    std::vector<std::size_t> order; // slice indices in stack order, duplicates removed
    VolumeGeometry geometry;
};

// Whether two ImageOrientationPatient values agree within tolerance, component by component.
bool sameOrientation(const std::array<double, 6>& a, const std::array<double, 6>& b,
                     double tolerance);

// Sorts the slices along the normal, drops copies of one image, and derives the geometry.
StackLayout layoutStack(const std::vector<StackSlice>& slices, std::vector<std::string>& warnings);

} // namespace isoview::io::dicom
