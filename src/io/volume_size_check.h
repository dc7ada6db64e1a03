// Internal to src/io: the checks every volume reader makes before it allocates a voxel buffer
// (byte counts that overflow, volumes larger than this machine's memory), byte-order swapping,
// and the wording those readers share in their messages. Not part of the public API.
//
// Contract: pure functions except physicalMemoryBytes() (asks the OS). Nothing here allocates
// voxel memory; requireFitsInMemory() throws InvalidInputError before a reader does.
//
// Example:
//   const std::optional<std::uint64_t> bytes = detail::voxelByteCount(dims, type);
//   if (!bytes) throw InvalidInputError(what + ": " + detail::dimsText(dims, type) + "...");
//   detail::requireFitsInMemory(what, dims, type, *bytes);
//   std::vector<std::byte> voxels(*bytes);
#pragma once

#include "volume/volume.h"

#include <glm/glm.hpp>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace isoview::io::detail {

// "'path'" for messages.
std::string quotedPath(const std::filesystem::path& path);

// The system's text for an errno value ("No such file or directory"), thread-safe.
std::string systemReason(int error);

// "256x256x113 int16".
std::string dimsText(glm::uvec3 dims, ScalarType type);

// "4.0 TiB": binary units, one decimal, independent of the locale.
std::string humanBytes(std::uint64_t bytes);

// dims.x * dims.y * dims.z * scalarSize(type), or nullopt when that overflows 64 bits.
std::optional<std::uint64_t> voxelByteCount(glm::uvec3 dims, ScalarType type);

// a * b, or nullopt when that overflows 64 bits.
std::optional<std::uint64_t> checkedMultiply(std::uint64_t a, std::uint64_t b);

// Installed physical memory in bytes (UINT64_MAX when the OS does not say).
std::uint64_t physicalMemoryBytes();

// Memory available to new allocations now without swapping (MemAvailable in /proc/meminfo),
// never more than physical memory; physical memory when the kernel does not say.
std::uint64_t availableMemoryBytes();

// Throws InvalidInputError "<subject> (<dims>) needs <n> (<bytes> bytes), more than the <m> of
// memory available now (<p> in this machine); ..." when bytes exceed the available memory or
// what a std::vector can hold. Checked before any voxel memory is allocated: the alternative
// is the OOM killer, or minutes of swapping.
void requireFitsInMemory(std::string_view subject, glm::uvec3 dims, ScalarType type,
                         std::uint64_t bytes);

// Reverses the byte order of every elementSize-byte element in place (sizes 2, 4, 8; other
// sizes are left alone). A trailing partial element is left untouched.
void swapByteOrder(std::span<std::byte> bytes, std::size_t elementSize);

// Text safe to show in a message: at most maxChars characters of text, with control and
// non-ASCII bytes written as \xNN and an ellipsis when cut.
std::string printable(std::string_view text, std::size_t maxChars = 60);

} // namespace isoview::io::detail
