// The one entry point that opens whatever a user points isoview at: a DICOM file, folder or
// DICOMDIR; a NRRD (.nrrd, .nhdr); a MetaImage (.mhd, .mha); a NIfTI-1 or -2 (.nii, .nii.gz,
// .hdr/.img; one series per volume of a 4-D file); a raw file named
// name_XxYxZ_type.raw, or any raw file with explicit parameters; a folder of headerless
// per-slice files (name.1 .. name.N) with explicit parameters.
//
// Opening and loading are two steps, so that a caller can ask the user what the source leaves
// open (raw parameters, which DICOM series) in between: openSource decides the format once and,
// for DICOM, scans the files once (headers only); loadVolume(source, choice) then reads from
// that very scan, never scanning again.
//
// Example:
//   const VolumeSource source = openSource(path, &monitor);     // lists DICOM series
//   VolumeChoice choice{.seriesIndex = source.defaultSeries};
//   if (source.needsRawParameters) choice.raw = askTheUser();    // dims, type, byte order
//   Volume v = loadVolume(source, choice, &monitor);
//
// Thread: any; no GL. Throws IoError / InvalidInputError with a message a person understands,
// CancelledError when the monitor asks to stop.
#pragma once

#include "io/load_monitor.h"
#include "io/raw_volume_reader.h"
#include "volume/volume.h"

#include <cstddef>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace isoview::io {

enum class VolumeFormat { Dicom, Nrrd, MetaImage, Nifti, Raw, RawSliceFolder };

std::string_view formatName(VolumeFormat format);

// One loadable volume of a source: a DICOM series, or the single volume of other formats.
struct SeriesSummary {
    std::string uid;         // DICOM SeriesInstanceUID (plus a stack suffix when one UID holds
                             // several stacks); empty for other formats
    std::string description; // DICOM SeriesDescription, or the file name
    std::string modality;
    std::size_t sliceCount = 0;
    glm::uvec3 dims{0, 0, 0};
    std::string note; // why it cannot be loaded, if so (e.g. an undecodable transfer syntax)
    // When one series or file holds several volumes (time points, echoes, image types, the 4th
    // dimension of a NIfTI file): which one this entry is, e.g. "volume 2 of 2: time point 2"
    // or "image type PHASE". Empty for a series that is a single volume.
    std::string volumeLabel;
};

// What a source holds, as the series picker shows it.
struct VolumeSourceInfo {
    VolumeFormat format = VolumeFormat::Raw;
    std::vector<SeriesSummary> series;
    std::size_t defaultSeries = 0;  // DICOM: the largest image series
    std::vector<std::string> notes; // skipped files (non-image DICOM, unreadable files)
};

struct DicomScan; // io/dicom/dicom_series_loader.h; opaque outside the loaders

// An opened source: its format, its series, and what loading it still needs. Made by
// openSource or openRawSource; copies share the (immutable) DICOM scan.
struct VolumeSource : VolumeSourceInfo {
    std::filesystem::path path;
    // True for raw data whose layout is unknown: a raw slice folder, or a file that is not
    // NRRD, MetaImage or DICOM and whose name lacks the name_XxYxZ_type.raw convention.
    // loadVolume then needs VolumeChoice::raw.
    bool needsRawParameters = false;
    // Raw data needing parameters: proposed ones, for the raw-import dialog to start from. From
    // a layout written in the folder's or a file's name (parseRawLayoutInName) when there is
    // one (rawGuessFromName), else, for a slice folder, guessed from the file count and size
    // (guessRawSliceLayout) and the byte order from its middle slice (guessSliceIsBigEndian).
    // A slice folder's dims.z is its file count.
    std::optional<RawVolumeParameters> rawGuess;
    bool rawGuessFromName = false;
    std::size_t rawSliceFiles = 0;              // raw slice folder: how many slice files it holds
    std::shared_ptr<const DicomScan> dicomScan; // DICOM only
};

// What to load from a source.
struct VolumeChoice {
    std::optional<std::size_t> seriesIndex = std::nullopt; // DICOM, NIfTI: index into series
    std::optional<RawVolumeParameters> raw = std::nullopt; // raw data: beats the name convention
    // DICOM: refuse a series with unreadable slices instead of loading the rest with a warning.
    bool strict = false;
};
using LoadOptions = VolumeChoice; // the name loadVolume(path, ...) callers know

// Decides the format of path (from its name, and from its first bytes for files without a
// telling extension) and, for DICOM, scans and groups the series, reading headers only:
// progress stage "scanning files", reported once per open. A folder of numbered non-DICOM
// files of equal size (looksLikeRawSliceFolder) is a raw slice folder needing parameters, with
// a rawGuess; any other folder is DICOM. A file that is no known format is raw data needing
// parameters (needsRawParameters), not an error. Throws IoError when path does not exist, and
// for DICOM when nothing loadable is found.
VolumeSource openSource(const std::filesystem::path& path, LoadMonitor* monitor = nullptr);

// Opens path as raw data whose parameters the caller has (a raw-import answer, --raw-dims):
// a folder is a raw slice folder, any file raw data, except NRRD, MetaImage and NIfTI files,
// which keep their format. Reads nothing but a NIfTI header; throws IoError when path does not
// exist.
VolumeSource openRawSource(const std::filesystem::path& path);

// Loads the chosen volume of an opened source without scanning again: for DICOM and NIfTI the
// chosen series (default: source.defaultSeries; InvalidInputError when out of range), for raw data
// with choice.raw when given (required when source.needsRawParameters). Other formats ignore
// the choice.
Volume loadVolume(const VolumeSource& source, const VolumeChoice& choice = {},
                  LoadMonitor* monitor = nullptr);

// The entries of info that hold the volumes of one acquisition on one grid together with entry
// `index` (time points, echoes, image types of one DICOM series; the 4th dimension of a NIfTI
// file): consecutive entries with its UID, description, modality and dimensions, each a volume
// of several (a volumeLabel) and loadable. In order, `index` among them; just {index} for a
// series that is a single volume. Throws InvalidInputError for an index out of range.
std::vector<std::size_t> volumesOnOneGrid(const VolumeSourceInfo& info, std::size_t index);

// openSource (openRawSource when options.raw is given) and loadVolume in one call.
Volume loadVolume(const std::filesystem::path& path, const LoadOptions& options = {},
                  LoadMonitor* monitor = nullptr);

} // namespace isoview::io
