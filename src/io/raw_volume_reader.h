// Reads headerless ("raw") volume files: W*H*D voxels of one scalar type, X varying fastest,
// optionally after a fixed-size header that is skipped.
//
// The size and type come either from explicit parameters or from the file-name convention
//   <name>_<X>x<Y>x<Z>_<type>[_be|_le].raw  e.g. neghip_64x64x64_uint8.raw,
//                                          mr_head_128x128x85_uint16.raw,
//                                          ct_512x512x99_int16_be.raw
// with type one of uint8 int8 uint16 int16 uint32 int32 float32 float64 (little-endian unless
// _be follows the type, spacing 1 x 1 x 1, no header). The name part may itself contain
// underscores.
//
// Contract: everything is validated before the voxel buffer is allocated — the byte count
// (dims x type size) must not overflow and must equal the file size minus the header offset
// exactly, and must fit in this machine's physical memory. Errors:
// - InvalidInputError: the name does not follow the convention (the message explains it),
//   zero dimensions, non-positive spacing, a byte count that overflows or exceeds memory.
// - IoError: the file cannot be opened or read, or its size does not match (the message gives
//   the expected and the actual byte counts).
// The returned Volume owns its voxels (host byte order), has the given spacing, origin 0,
// identity direction and an identity value rescale. Cost: one read of the file, plus one
// byte-swap pass for big-endian multi-byte data.
//
// Example:
//   Volume head = io::readRawVolume("mr_head_128x128x85_uint16.raw");
//   Volume ct = io::readRawVolume("CThead.raw", {.dims = {256, 256, 113},
//                                                .type = ScalarType::Int16,
//                                                .bigEndian = true,
//                                                .spacing = {1.0, 1.0, 2.0}});
#pragma once

#include "io/load_monitor.h"
#include "volume/volume.h"

#include <glm/glm.hpp>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string_view>

namespace isoview::io {

struct RawVolumeParameters {
    glm::uvec3 dims{0, 0, 0};
    ScalarType type = ScalarType::UInt8;
    bool bigEndian = false;
    glm::dvec3 spacing{1.0, 1.0, 1.0};
    std::uint64_t headerOffset = 0; // bytes skipped at the start of the file
};

// Parses a file name (not a path) that follows the convention above. Returns nullopt when it
// does not: wrong extension, unknown type, malformed or zero dimensions, a dimension above
// 2^32 - 1, or a byte count that overflows 64 bits. Never throws, never touches the disk.
std::optional<RawVolumeParameters> parseRawFileName(std::string_view fileName);

// A layout written anywhere in a file or folder name, read more leniently than the convention
// above, to propose parameters rather than to load: "<X>x<Y>x<Z>" (or "<X>x<Y>" for one slice,
// dims.z then 0), then "_<type>", optionally then "_be" / "_le" (or "_bigendian",
// "_littleendian"), with anything before and after: CThead_256x256x113_int16_be,
// slice_512x512_uint16.001. Parts are separated by '_', '.' or '-'; case is ignored. nullopt
// when the name holds no such part. Never throws, never touches the disk.
std::optional<RawVolumeParameters> parseRawLayoutInName(std::string_view name);

// Slice `slice` (0-based) of a raw file laid out as parameters say, as a one-slice volume
// (dims.x x dims.y x 1, host byte order, the given spacing): for a preview, it reads that
// slice's bytes only. The file must hold at least headerOffset + (slice + 1) slices' bytes.
// Throws InvalidInputError (zero dimensions, slice >= dims.z, too large for memory) and IoError
// (unreadable or too short a file, with the byte counts).
Volume readRawSlice(const std::filesystem::path& path, const RawVolumeParameters& parameters,
                    std::uint32_t slice);

// Reads a raw volume whose file name follows the convention. Throws as described above. With a
// monitor: progress "reading voxels", cancellation, and admitVolume before any voxel is read.
Volume readRawVolume(const std::filesystem::path& path, LoadMonitor* monitor = nullptr);

// Reads a raw volume described by explicit parameters (the file name is ignored).
Volume readRawVolume(const std::filesystem::path& path, const RawVolumeParameters& parameters,
                     LoadMonitor* monitor = nullptr);

} // namespace isoview::io
