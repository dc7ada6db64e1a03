// Internal to src/io: the read steps the NRRD and MetaImage readers share around their own
// header parsers. A reader reads and parses its header (readHeader), checks what only its
// format needs, describes the result as a HeaderedVolume, and readHeaderedVolume does the
// rest: the data files (attached after the header, or detached and named relative to it), the
// voxels through readVoxelData, the Volume with its metadata and warnings, and the log lines.
// Not public API.
//
// Contract:
// - readHeader reports the "reading header" stage, reads the first maxBytes of the file
//   (IoError when it cannot be opened or read, is not a regular file, or is empty) and parses
//   them; the parser's InvalidInputError is rethrown as "cannot read <what>: <its message>".
// - readHeaderedVolume checks that the volume fits in memory (InvalidInputError) before it
//   turns detached names into paths, then reads as readVoxelData does (and throws as it does);
//   no voxel memory before every check has passed. The warnings it and readVoxelData find are
//   added to the metadata's and logged as "<what>: <warning>", then one info line "read
//   <what> (<dims>, <encodingName>, spacing x x y x z)". Thread: any.
//
// Example:
//   auto [head, header] = detail::readHeader(path, 4 << 20, what, monitor, parseNrrdHeader);
//   detail::HeaderedVolume volume;
//   volume.request.what = what;  ...  volume.attachedAt = header.headerBytes;
//   return detail::readHeaderedVolume(std::move(volume), monitor);
#pragma once

#include "core/error.h"
#include "io/load_monitor.h"
#include "io/voxel_data_reader.h"
#include "volume/volume.h"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace isoview::io::detail {

// A header file's first bytes and what its parser made of them.
template <class Header> struct ParsedHeader {
    FileHead head;
    Header header;
};

// Reports the header stage and reads the first maxBytes of path; IoError when it is empty.
FileHead readHeaderHead(const std::filesystem::path& path, std::size_t maxBytes,
                        const std::string& what, LoadMonitor* monitor);

template <class Header>
ParsedHeader<Header> readHeader(const std::filesystem::path& path, std::size_t maxBytes,
                                const std::string& what, LoadMonitor* monitor,
                                Header (*parse)(std::string_view))
{
    ParsedHeader<Header> parsed{readHeaderHead(path, maxBytes, what, monitor), Header{}};
    try {
        parsed.header = parse(parsed.head.bytes);
    } catch (const InvalidInputError& e) {
        throw InvalidInputError("cannot read " + what + ": " + e.what());
    }
    return parsed;
}

// A parsed header in the form readHeaderedVolume takes.
struct HeaderedVolume {
    VoxelDataRequest request; // what, encoding, dims, type, byte order; no files yet
    VoxelDataFile layout;     // what every data file skips; path and offset are set here
    std::filesystem::path headerPath;
    std::optional<std::uint64_t> attachedAt; // the data follow the header from this byte on,
    std::vector<std::string> dataFiles;      // else lie in these, relative to the header
    VolumeGeometry geometry;
    ValueRescale rescale;
    VolumeMetadata metadata;  // the format's fields and the header's warnings
    std::string encodingName; // for the log line: "raw", "gzip", "compressed"
};

// Reads the voxels a header describes and returns them as a Volume (see the contract above).
Volume readHeaderedVolume(HeaderedVolume volume, LoadMonitor* monitor);

} // namespace isoview::io::detail
