// DICOM reading: finds the image series in a file, a folder (searched recursively) or a
// DICOMDIR, and loads one series as a Volume in patient (LPS) millimetres. Built on DCMTK
// (parsing, RLE, JPEG, JPEG-LS) and OpenJPEG (JPEG 2000, which open-source DCMTK lacks).
//
// Scanning (scanDicom) reads headers only: parsing stops before the pixel data. Images are
// grouped by SeriesInstanceUID; a UID whose images differ in orientation or in size is split
// into stacks, one DicomSeriesInfo each (the summary's uid then ends in "#<n>"). A stack whose
// positions repeat is split into volumes by what tells them apart (AcquisitionNumber,
// TemporalPositionIndex, EchoNumbers, per-frame image type, DimensionIndexValues, per-frame
// rescale; dicom_volume_grouping.h), one DicomSeriesInfo each, in order, with
// summary.volumeLabel ("volume 2 of 2: time point 2") and, for frames of multi-frame files, the
// frames it owns; the first volume of a stack is the one the default may be, never a later one.
// Each Siemens MOSAIC file is a volume of its own (dicom_mosaic.h). Non-image objects
// (presentation states, SR, RT plans, DICOMDIR files) and files that are not DICOM are skipped
// with a note, never an error.
//
// Loading (loadDicomSeries) reads one stack. What it guarantees:
// - Slice order: ImagePositionPatient projected on the slice normal n = row x column (from
//   ImageOrientationPatient), ascending; direction columns are (row, column, n). Never file
//   names. InstanceNumber (then file name, frame) orders slices only when positions are
//   missing, with a warning.
// - Spacing between slices comes from the positions (mean gap), not SliceThickness. A stack
//   whose gaps differ by more than 1e-3 (relative) or whose positions leave the normal
//   (gantry tilt, shear) is kept as measured, not resampled: geometry.sliceOrigins holds every
//   slice's ImagePositionPatient and a warning says what was found (a gap in mm and where, an
//   angle). Regular stacks leave sliceOrigins empty. One slice: spacing z = SliceThickness,
//   else 1.
// - Duplicates: the same image twice (same SOPInstanceUID and frame, e.g. a copied file) is
//   dropped with a warning; two different images at one position that no attribute tells
//   apart (the scan split what does into volumes) make the stack ambiguous: InvalidInputError
//   naming both and saying that nothing distinguishes them. Only series.frames (when given)
//   of each file are loaded.
// - MOSAIC (ImageType MOSAIC; NumberOfImagesInMosaic from (0019,100A), else the CSA image
//   header): the tiles become slices of tile columns x tile rows, ceil(sqrt(n)) tiles per
//   side; the first tile's corner is ImagePositionPatient moved to the centred tile, the
//   others follow along the CSA SliceNormalVector (else row x column) at SpacingBetweenSlices,
//   then are ordered like any slices. A mosaic whose tiles do not divide the image or that
//   gives no image count is InvalidInputError naming the file and the values.
// - Values: the scalar type is the smallest of uint8/int8/uint16/int16/uint32/int32 that holds
//   every value BitsStored allows (sign-extended from HighBit when PixelRepresentation is 1);
//   RescaleSlope/Intercept (RT dose: DoseGridScaling) become Volume::rescale(). A negative
//   slope is made positive by negating the stored values (warning). Slices with different
//   rescales are converted to real values in float32 with an identity rescale (warning). A
//   rescale that is not a finite number or absurd (|slope| outside [1e-12, 1e12], |intercept|
//   above 1e9) is InvalidInputError naming the attribute, its text and the file; slope 0 is
//   taken as 1 (warning). PixelPaddingValue (to PixelPaddingRangeLimit) voxels are no data:
//   stored as one value below all data (dicom_value_mapping.h), VolumeMetadata::paddingValue,
//   left out of storedRange() and the histogram, so outside every surface (warning with the
//   count).
// - Unreadable slices (a file that no longer parses, truncated or undecodable pixel data):
//   left out with a warning naming each file and why; the rest keep their own positions, so
//   the loss is a gap in geometry.sliceOrigins (the spacing warning says where). Every slice
//   unreadable, or any with DicomLoadOptions::strict, is an IoError.
// - Multi-frame objects: enhanced CT/MR frames take their positions from the per-frame
//   functional groups (orientation, pixel spacing and rescale from the shared or per-frame
//   groups); RT dose frames from GridFrameOffsetVector; other multi-frame objects without
//   positions are stacked in frame order, like any slices without positions, at
//   SpacingBetweenSlices, else SliceThickness, else 1 mm, with a warning.
// - Transfer syntaxes: implicit/explicit little endian, explicit big endian, deflated, RLE,
//   JPEG baseline/extended/lossless, JPEG-LS, JPEG 2000 (lossless and lossy). Anything else is
//   an IoError naming the transfer syntax UID and its name.
// - Before allocating, sizes are validated: products that overflow or exceed this machine's
//   memory are InvalidInputError; pixel data shorter than the header promises makes the slice
//   unreadable ("truncated at byte N", expected and actual byte counts, the first incomplete
//   frame). Damaged files say "is DICOM but damaged" with the byte and element where DCMTK
//   stopped and its condition text (dicom_parsing.h).
// Metadata: sourceFormat "DICOM", modality, units ("HU" for CT, the dose units for RT dose),
// patient name and ID, study date, series description (with the volume label appended, so
// the window title says which volume is open) and UID, the first window centre/width,
// and every warning (also logged to the "io" logger). DCMTK's own log lines go to the "io"
// logger at debug level.
//
// Thread: any; calls are independent (DCMTK's codecs and logging are set up once, thread-safely,
// on first use). Progress stages: "scanning files", "reading headers", "decoding slices"; every
// call throws CancelledError promptly once the monitor asks to stop.
//
// Example:
//   DicomScan scan = io::scanDicom("/data/study", &monitor);   // lists series, reads headers
//   const DicomSeriesInfo& series = scan.series[scan.defaultSeries];
//   Volume ct = io::loadDicomSeries(series, &monitor);          // HU via ct.rescale()
#pragma once

#include "io/load_monitor.h"
#include "io/volume_loader.h"
#include "volume/volume.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace isoview::io {

// One loadable stack: the images of one SeriesInstanceUID that share orientation and size.
struct DicomSeriesInfo {
    // uid (with "#<n>" when the UID was split), description, modality, sliceCount (frames of
    // multi-frame files counted one by one), dims (columns, rows, slices), and note: why the
    // stack cannot be loaded (undecodable transfer syntax, colour, unsupported bit depth), if so.
    SeriesSummary summary;
    std::vector<std::filesystem::path> files; // sorted by path; loading sorts by position
    // Per file (same order): the frames that belong to this entry when the series holds
    // several volumes, ascending; empty (or an empty list for a file): every frame.
    std::vector<std::vector<std::uint32_t>> frames;
    std::string seriesInstanceUid; // as stored, without the stack suffix
    std::string transferSyntaxUid; // of the first file
    std::uint32_t rows = 0;
    std::uint32_t columns = 0;
    std::size_t frameCount = 0; // slices over all files, before duplicates are dropped
    std::optional<std::array<double, 6>> orientation; // ImageOrientationPatient, if present
};

struct DicomScan {
    std::vector<DicomSeriesInfo> series; // ordered by SeriesNumber, then UID
    std::size_t defaultSeries = 0;       // the loadable stack with the most voxels
    std::vector<std::string> notes;      // skipped files and why (non-image, not DICOM, damaged)
    // Files and folders that could not be opened or read (each reason names one; also in
    // notes): their slices may be missing from any series, so a strict load refuses them.
    std::vector<std::string> unreadable;
};

// True when the file holds a DICOM object: a Part 10 file ("DICM" after the 128-byte preamble)
// or a bare dataset without file meta information (implicit or explicit VR little endian, or
// explicit big endian) that DCMTK parses, or one that is DICOM but damaged (the loader then
// says where). Reads at most the header. Throws IoError only when DCMTK's data dictionary is
// missing: the machine's fault, which "not DICOM" would hide.
bool looksLikeDicom(const std::filesystem::path& file);

// Scans a single DICOM file, a folder (recursively) or a DICOMDIR (its referenced files).
// Throws IoError "no DICOM image series found in ..." (with the notes) when nothing is
// loadable, IoError when the path cannot be read, CancelledError on request.
DicomScan scanDicom(const std::filesystem::path& fileFolderOrDicomdir,
                    LoadMonitor* monitor = nullptr);

// How loadDicomSeries treats slices it cannot read.
struct DicomLoadOptions {
    // false: slices that cannot be read or decoded are left out with a warning naming them
    // (their places become gaps); true: the first one is an error (isoview-cli --strict).
    bool strict = false;
};

// Loads one stack (only series.files is required; the other fields are informational). Throws
// IoError (every slice unreadable, or with options.strict one; undecodable transfer syntax),
// InvalidInputError (mixed image sizes, ambiguous duplicate positions, unsupported pixel
// format, unusable rescale, absurd sizes), CancelledError on request. Cost: one header pass
// and one decoding pass over the files; memory: the volume plus one decoded frame.
Volume loadDicomSeries(const DicomSeriesInfo& series, LoadMonitor* monitor = nullptr,
                       const DicomLoadOptions& options = {});

// Fuzzing entry: parses bytes as one DICOM object (from memory, through DCMTK's
// DcmInputBufferStream) and runs the same header and pixel decoding path as loadDicomSeries,
// with a 256 MiB cap on the volume. isoview::Error is swallowed; anything else escapes.
void fuzzDicomBytes(const std::uint8_t* data, std::size_t size);

} // namespace isoview::io
