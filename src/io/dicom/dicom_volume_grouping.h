// Several volumes in one stack: time points, echoes, image types (magnitude and phase),
// dimension indices or rescales that share the slice positions. Pure: no file or DCMTK access;
// the scan fills one VolumeImage per image (a frame of a file; a whole MOSAIC counts as one).
//
// Contract of groupVolumes:
// - Images are split only when a position repeats (two images within 1e-3 mm, copies of one
//   image, same SOPInstanceUID and frame, not counted), or when they are MOSAICs (each mosaic
//   is a volume of its own).
// - The split uses the first attribute, in this order, that varies between the images at one
//   position and leaves no position repeated within a volume (nor more volumes than images at
//   the most repeated position): TemporalPositionIndex, AcquisitionNumber, EchoNumbers, image
//   type (per-frame FrameType, else ImageType), the DimensionIndexValues that vary at one
//   position, the rescale (slope, intercept); else all of those that vary, together. MOSAICs
//   that none of them separates are split by InstanceNumber, then file.
// - Volumes are ordered by the attribute's value; each is labelled "volume i of n: <what>",
//   e.g. "volume 2 of 2: time point 2", "volume 1 of 2: image type PHASE", "echo 2".
// - When nothing distinguishes repeated positions, one group holds every image (label empty):
//   loading it then reports the ambiguous images, as a single-volume stack always did.
// Cost: O(n log n) in the images.
#pragma once

#include <glm/glm.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace isoview::io::dicom {

// What one image says about which volume it belongs to.
struct VolumeImage {
    std::optional<glm::dvec3> position;
    std::string sopInstanceUid;
    std::uint32_t frame = 0;
    std::string file; // orders MOSAICs when nothing else does
    std::optional<std::int32_t> instanceNumber;
    std::optional<std::int32_t> temporalPositionIndex;
    std::optional<std::int32_t> acquisitionNumber;
    std::optional<std::int32_t> echoNumber;
    std::string imageType;
    std::vector<std::int32_t> dimensionIndexValues;
    std::optional<double> slope;
    std::optional<double> intercept;
};

struct VolumeGroup {
    std::vector<std::size_t> images; // indices into the input, in input order
    std::string label;               // empty when the stack is one volume
};

std::vector<VolumeGroup> groupVolumes(const std::vector<VolumeImage>& images, bool mosaic);

} // namespace isoview::io::dicom
