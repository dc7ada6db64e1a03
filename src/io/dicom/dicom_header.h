// The image attributes of one DICOM object, as the loader needs them: identity (SOP, series),
// pixel format, transfer syntax and codec, frame count, and per-frame position, orientation,
// spacing, rescale and window (top level, shared and per-frame functional groups, RT dose
// grid offsets).
//
// Contract: readHeader never reads pixel values; it throws InvalidInputError only for a
// NumberOfFrames outside 1..2^31-1, and IoError for one the file cannot hold (a frame must
// start inside the file: its bytes when native, an 8-byte item when encapsulated), checked
// before anything is made per frame (volume_size_check.h's itemsInFile); it fixes small
// quirks (HighBit outside BitsStored, stray bytes) with a warning in DicomHeader::warnings.
// readScanHeader parses as little of the file as the scan needs. unsupportedReason says why a
// header's images cannot be loaded (the transfer syntax first: that is what a person can act on).
#pragma once

#include "io/dicom/dicom_parsing.h"

#include <dcmtk/config/osconfig.h>
#include <dcmtk/dcmdata/dctk.h>
#include <glm/glm.hpp>

#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace isoview::io::dicom {

// A string attribute without padding; empty when absent.
std::string getString(DcmItem& item, const DcmTagKey& tag);

// What one frame (slice) says about where it is and what its values mean.
struct FrameInfo {
    std::optional<glm::dvec3> position;
    std::optional<std::array<double, 6>> orientation;
    std::optional<glm::dvec2> pixelSpacing; // DICOM order: between rows, between columns
    std::optional<double> sliceThickness;
    std::optional<double> spacingBetweenSlices;
    std::optional<double> slope;     // NaN or infinite when stored so, or not a number
    std::optional<double> intercept; // likewise
    std::string slopeText;           // slope and intercept as stored, for messages
    std::string interceptText;
    std::optional<double> windowCenter;
    std::optional<double> windowWidth;
    // What tells volumes of one series apart (dicom_volume_grouping): FrameContentSequence's
    // TemporalPositionIndex and DimensionIndexValues, the frame type (FrameType of the MR/CT
    // image frame type sequences; ImageType at the top level).
    std::optional<std::int32_t> temporalPositionIndex;
    std::vector<std::int32_t> dimensionIndexValues;
    std::string imageType;
};

// A Siemens MOSAIC (ImageType contains MOSAIC): slices tiled in one image (dicom_mosaic.h).
struct MosaicInfo {
    std::optional<std::uint32_t> images;   // (0019,xx0A), else the CSA NumberOfImagesInMosaic
    std::optional<glm::dvec3> sliceNormal; // the CSA image header's SliceNormalVector
};

enum class PixelCodec { Native, Dcmtk, OpenJpeg, Unsupported };

// Everything the loader needs from one file.
struct DicomHeader {
    std::string name; // quoted path, for messages
    std::uint64_t byteSize = 0;
    std::string sopClassUid;
    std::string sopInstanceUid;
    std::string seriesUid;
    std::string modality;
    std::string seriesDescription;
    std::string patientName;
    std::string patientId;
    std::string studyDate;
    std::string photometric;
    std::string units;
    std::string transferSyntaxUid;
    std::string transferSyntaxName;
    E_TransferSyntax xfer = EXS_Unknown;
    PixelCodec codec = PixelCodec::Unsupported;
    bool isDicomDir = false;
    bool isImage = false; // has Rows and Columns
    std::uint32_t rows = 0;
    std::uint32_t columns = 0;
    std::uint32_t samplesPerPixel = 1;
    std::uint32_t bitsAllocated = 0;
    std::uint32_t bitsStored = 0;
    std::uint32_t highBit = 0;
    bool pixelSigned = false;
    std::uint32_t frameCount = 1;
    std::optional<std::int32_t> instanceNumber;
    std::optional<std::int32_t> seriesNumber;
    std::optional<std::int32_t> acquisitionNumber;
    std::optional<std::int32_t> echoNumber;
    std::optional<MosaicInfo> mosaic;
    FrameInfo common;                     // top level, then the shared functional groups
    std::vector<FrameInfo> perFrame;      // per-frame functional groups, when present
    std::vector<double> gridFrameOffsets; // RT dose: frame offsets along the normal
    bool slopeIsDoseGridScaling = false;  // RT dose: the slope is DoseGridScaling (3004,000E)
    // PixelPaddingValue (0028,0120) and PixelPaddingRangeLimit (0028,0121) as stored values
    // (read as signed when PixelRepresentation is 1, whatever the VR says).
    std::optional<std::int64_t> paddingValue;
    std::optional<std::int64_t> paddingRangeLimit;
    std::vector<std::string> warnings; // quirks fixed while reading

    // The merged information of frame `index`.
    FrameInfo frame(std::uint32_t index) const;
};

DicomHeader readHeader(const ParsedDicom& parsed);

// The header for scanning: the image attributes alone, unless the object keeps what the
// loader needs further on (functional groups of enhanced objects, the RT dose grid) or lacks
// a position, in which case it is read again up to the pixel data.
DicomHeader readScanHeader(const std::filesystem::path& path);

// Why the images of a header cannot be loaded, or nothing.
std::optional<std::string> unsupportedReason(const DicomHeader& h);

// Bytes of one frame, and of all frames (saturating at the largest uint64).
std::uint64_t frameBytes(const DicomHeader& h);
std::uint64_t expectedPixelBytes(const DicomHeader& h);

// "'f' is truncated at byte N: its pixel data (from byte O) should hold ..., expected E bytes,
// the file holds A; frame k of n is incomplete": pixel data cut short at the end of the file.
std::string describeTruncatedPixelData(const DicomHeader& h, std::uint64_t valueOffset,
                                       std::uint64_t expected, std::uint64_t actual);

// Why a full read failed when the header read succeeds: almost always pixel data cut short
// ("truncated at byte N: ... frame k of n is incomplete"); otherwise `otherwise` (where DCMTK
// stopped, and its condition text).
std::string describeFailedFullRead(const std::filesystem::path& path, const OFCondition& status,
                                   const std::string& otherwise);

} // namespace isoview::io::dicom
