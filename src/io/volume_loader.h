// The one entry point that opens whatever a user points isoview at: a DICOM file, folder or
// DICOMDIR; a NRRD (.nrrd, .nhdr); a MetaImage (.mhd, .mha); a raw file named
// name_XxYxZ_type.raw, or any raw file with explicit parameters; a folder of headerless
// per-slice files (name.1 .. name.N) with explicit parameters.
//
// Example:
//   VolumeSourceInfo info = inspectVolumeSource(path);           // lists DICOM series
//   Volume v = loadVolume(path, {.seriesIndex = info.defaultSeries}, &monitor);
//
// Thread: any; no GL. Throws IoError / InvalidInputError with a message a person understands,
// CancelledError when the monitor asks to stop.
#pragma once

#include "volume/volume.h"
#include "io/load_monitor.h"
#include "io/raw_volume_reader.h"

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace isoview::io {

enum class VolumeFormat { Dicom, Nrrd, MetaImage, Raw, RawSliceFolder };

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
};

struct VolumeSourceInfo {
    VolumeFormat format = VolumeFormat::Raw;
    std::vector<SeriesSummary> series;
    std::size_t defaultSeries = 0; // DICOM: the largest image series
    std::vector<std::string> notes; // skipped files (non-image DICOM, unreadable files)
};

struct LoadOptions {
    std::optional<std::size_t> seriesIndex; // DICOM: which of inspectVolumeSource's series
    std::optional<RawVolumeParameters> raw; // raw data without the name convention
};

// Detects the format of path and, for DICOM, scans and groups the series (reading headers
// only). Throws when nothing loadable is found.
VolumeSourceInfo inspectVolumeSource(const std::filesystem::path& path,
                                     LoadMonitor* monitor = nullptr);

// Loads a volume; for DICOM the chosen series (default: the largest image series).
Volume loadVolume(const std::filesystem::path& path, const LoadOptions& options = {},
                  LoadMonitor* monitor = nullptr);

} // namespace isoview::io
