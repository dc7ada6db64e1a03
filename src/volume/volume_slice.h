// The axial, coronal and sagittal slices of a volume, as 2D images a slice view paints.
//
// A slice is always a plane of voxels (one index held constant): nothing is resampled, so a
// slice shows the values the volume holds, and its isocontour is exactly where the 3D surface
// crosses that plane. For a volume in patient space (metadata().patientSpace: DICOM, NIfTI,
// NRRD with a space) each view takes the index axis closest to its patient axis (axial: S-I,
// coronal: A-P, sagittal: L-R); an oblique acquisition is shown along its own voxel planes,
// which are then tilted by up to 45 degrees from the named plane.
// NOTE: oblique data is not resampled onto patient planes; the letters at the view's edges name
// the patient directions the image's axes are closest to.
// Without patient space the views are the index planes: axial k, coronal j, sagittal i.
//
// Image layout: pixel (x, y) (x to the right, y down, integer = voxel centre) is voxel
// `indexAt(x, y)`. Columns and rows run along index axes, flipped where needed so that the
// image is shown in the radiological convention: the patient's right on the left, anterior or
// superior at the top (sagittal: anterior on the left).
// Physical placement: `toPhysical` follows VolumeGeometry, sliceOrigins included, so a stack
// that is unevenly spaced or tilted puts each of its slices where it was measured;
// `toDisplay` projects that onto the view's two screen directions, in millimetres.
//
// Example:
//   VolumeSlice s = extractSlice(volume, SliceOrientation::Axial, 40);
//   float hu = float(s.rescale.toReal(s.storedAt(10, 20)));
#pragma once

#include "volume/volume.h"

#include <glm/glm.hpp>

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace isoview {

enum class SliceOrientation { Axial = 0, Coronal = 1, Sagittal = 2 };

std::string_view sliceOrientationName(SliceOrientation orientation); // "axial", ...

// Which index axes a view uses and how its image is flipped. Cheap; no voxels touched.
struct SliceAxes {
    int normalAxis = 2;       // the index axis held constant (0 = i, 1 = j, 2 = k)
    int columnAxis = 0;       // the index axis along image x
    int rowAxis = 1;          // the index axis along image y
    bool flipColumns = false; // image x runs from the axis' last index to 0
    bool flipRows = false;
    // Physical unit vectors of screen right and screen down (LPS in patient space).
    glm::dvec3 screenRight{1.0, 0.0, 0.0};
    glm::dvec3 screenDown{0.0, 1.0, 0.0};
    // The anatomical letters at the left, right, top and bottom edges ("R", "L", "A", "P"),
    // empty strings without patient space.
    std::array<std::string_view, 4> edgeLetters{};
};

SliceAxes sliceAxes(const Volume& volume, SliceOrientation orientation);

// One voxel plane of a volume. Values are the stored values as floats (Volume::valueAt, the
// values marching cubes classifies); rescale turns them into real units.
struct VolumeSlice {
    SliceOrientation orientation = SliceOrientation::Axial;
    SliceAxes axes;
    std::uint32_t sliceIndex = 0; // along axes.normalAxis
    int width = 0;
    int height = 0;
    std::vector<float> stored; // width * height, row-major, row 0 at the top
    ValueRescale rescale;
    VolumeGeometry geometry;

    float storedAt(int x, int y) const { return stored[std::size_t(y) * std::size_t(width) + x]; }
    // The same voxel in real units (HU for CT): what views show.
    double realAt(int x, int y) const { return rescale.toReal(storedAt(x, y)); }
    // The index-space point of pixel (x, y); fractional pixels give fractional indices.
    glm::dvec3 indexAt(glm::dvec2 pixel) const;
    // Its physical position (mm; LPS in patient space), honouring sliceOrigins.
    glm::dvec3 toPhysical(glm::dvec2 pixel) const;
    // Its position on screen in mm: (dot(physical, screenRight), dot(physical, screenDown)).
    glm::dvec2 toDisplay(glm::dvec2 pixel) const;
    // The pixel shown at a display position (the inverse of toDisplay, piecewise between the
    // measured slices of an uneven stack); nullopt when the position is outside the image by
    // more than half a pixel.
    std::optional<glm::dvec2> pixelAtDisplay(glm::dvec2 display) const;
};

// The slice of `orientation` with index `sliceIndex` along its normal axis (clamped to the
// volume). Cost: one pass over width * height voxels. Throws nothing.
VolumeSlice extractSlice(const Volume& volume, SliceOrientation orientation,
                         std::uint32_t sliceIndex);

// The number of slices a view can step through (the extent of its normal axis).
std::uint32_t sliceCount(const Volume& volume, SliceOrientation orientation);

} // namespace isoview
