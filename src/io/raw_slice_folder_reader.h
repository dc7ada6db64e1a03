// Reads a folder of headerless per-slice files named <prefix>.<N> (CThead.1 ... CThead.113):
// every file is one W x H slice of the same voxel type, slice k of the volume being the file
// with the k-th smallest N. N is compared as a number, never as text (CThead.10 comes after
// CThead.9), and may have leading zeros (slice.007).
//
// Which files are slices: regular files whose name is <prefix>.<digits> with one common
// prefix. Hidden files (starting with '.') are skipped silently; any other file (desc.txt,
// CThead.bak, CThead.1a: a non-numeric suffix) is ignored and named in a warning in the
// volume's metadata. Slice files with two different prefixes are an error.
//
// Contract of readRawSliceFolder — everything below is checked before the volume is allocated:
// - The numbers must be consecutive: a gap is an IoError naming the missing file(s)
//   ("CThead.57"), two names for one number (CThead.7 and CThead.07) an IoError.
// - Every file must hold exactly W * H * typeSize + headerOffset bytes (IoError naming the
//   file with the expected and actual byte counts).
// - sliceParameters.dims.z is 0 (use the file count) or must equal the file count
//   (InvalidInputError otherwise); zero W or H, non-positive spacing, a size that overflows
//   or exceeds memory: InvalidInputError. Fewer than one slice file: IoError.
// - bigEndian, spacing and headerOffset (skipped at the start of every file) come from
//   sliceParameters. Origin 0, identity direction. metadata.sourceFormat = "raw".
// - Progress about every MiB; CancelledError when the monitor asks to stop.
//
// Example:
//   RawVolumeParameters slice{.dims = {256, 256, 0}, .type = ScalarType::Int16,
//                             .bigEndian = true, .spacing = {1.0, 1.0, 2.0}};
//   if (io::looksLikeRawSliceFolder(folder)) Volume ct = io::readRawSliceFolder(folder, slice);
#pragma once

#include "io/load_monitor.h"
#include "io/raw_volume_reader.h"
#include "volume/volume.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace isoview::io {

// The slice files of a folder, in slice order, before any size is checked.
struct RawSliceSeries {
    std::string prefix;                       // "CThead"
    std::vector<std::filesystem::path> files; // slice k = files[k]
    std::vector<std::uint64_t> numbers;       // the N of each file, ascending
    std::vector<std::string> ignored;         // names of non-slice, non-hidden files
    // Entries named like this series' slices that are not regular files: "s.3 is a folder".
    std::vector<std::string> notFiles;
};

// Lists the slice files of folder. nullopt when the folder holds no <prefix>.<N> file; throws
// IoError when it cannot be listed or holds slice files with different prefixes. Gaps and
// duplicate numbers are left for readRawSliceFolder to report.
std::optional<RawSliceSeries> findRawSliceSeries(const std::filesystem::path& folder);

// True when folder is a folder of at least two <prefix>.<N> files that all have the same size,
// outnumber the other (non-hidden) files, and do not start like DICOM ("DICM" at byte 128).
// Never throws.
bool looksLikeRawSliceFolder(const std::filesystem::path& folder);

// A guess of the layout of fileCount slice files of fileBytes bytes each, no header: square
// slices of int16, uint8 or float32 values, in that order (CT and MR slices are mostly
// 16-bit: 131,072 bytes = 256 x 256 int16), else rows 512, 256, 128 or 64 wide of int16 or
// uint8; little-endian (the byte order cannot be told from sizes). dims.z = fileCount. nullopt
// when nothing fits. A guess only: the caller must say so and let the user check the image.
std::optional<RawVolumeParameters> guessRawSliceLayout(std::uint64_t fileBytes,
                                                       std::size_t fileCount);

// Whether a slice file of multi-byte values reads as an image in big-endian order rather than
// in little-endian: the wrong order turns neighbouring values into noise (low bytes become
// high bytes), so the order whose neighbours differ less, relative to the slice's range, wins;
// one that gives NaN or Inf loses. Reads the first slice of file (parameters.dims x, y, type,
// headerOffset) twice. nullopt for one-byte types or when neither order tells (a constant
// slice, an unreadable file). Never throws.
std::optional<bool> guessSliceIsBigEndian(const std::filesystem::path& file,
                                          const RawVolumeParameters& parameters);

// Reads the slices of folder as one volume. Throws as described above.
Volume readRawSliceFolder(const std::filesystem::path& folder,
                          const RawVolumeParameters& sliceParameters,
                          LoadMonitor* monitor = nullptr);

} // namespace isoview::io
