// What every part of the DICOM reader shares: DCMTK's one-time set-up (codecs, logging,
// dictionary), the wording of paths and lengths in messages, and byte-order helpers.
//
// Contract: ensureDcmtk() is thread-safe and must run before any DCMTK parsing; it throws
// IoError when DCMTK's data dictionary is missing. The rest are pure helpers.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace isoview::io::dicom {

// Registers DCMTK's decoders and routes its log to the "io" logger, once per process.
void ensureDcmtk();

// A path as messages quote it.
std::string quoted(const std::filesystem::path& path);
// Without leading and trailing white space and NULs (DICOM pads values with them).
std::string trim(std::string text);
// "2.5 mm": a length for messages.
std::string mm(double value);

inline std::uint16_t le16(const std::uint8_t* p)
{
    return std::uint16_t(p[0] | (p[1] << 8));
}

inline std::uint16_t be16(const std::uint8_t* p)
{
    return std::uint16_t((p[0] << 8) | p[1]);
}

inline std::uint32_t le32(const std::uint8_t* p)
{
    return std::uint32_t(p[0]) | (std::uint32_t(p[1]) << 8) | (std::uint32_t(p[2]) << 16) |
           (std::uint32_t(p[3]) << 24);
}

inline std::uint32_t be32(const std::uint8_t* p)
{
    return (std::uint32_t(p[0]) << 24) | (std::uint32_t(p[1]) << 16) | (std::uint32_t(p[2]) << 8) |
           std::uint32_t(p[3]);
}

// The first maxBytes bytes of a file (fewer when it is shorter). Throws IoError when it
// cannot be opened.
std::vector<std::uint8_t> readFileBytes(const std::filesystem::path& path, std::uint64_t maxBytes);

} // namespace isoview::io::dicom
