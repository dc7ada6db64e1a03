// Internal to src/io: the checks every volume reader makes before it allocates a voxel buffer
// or anything sized by a header (byte counts that overflow, claims the file cannot hold,
// volumes larger than this machine's memory), byte-order swapping, and the wording those
// readers share in their messages. Not part of the public API.
//
// A header is a claim about the data behind it: "2^40 volumes of 64x64x32 float32", "2^31
// frames of 512x512". Before a reader allocates, lists or loops over what a header claims, it
// checks the claim twice: against the file (itemsInFile: how many of the claimed items the
// file's bytes can hold at all) and, for what it will hold in memory at once, against the
// machine (requireFitsInMemory). A 4.6 KB file then costs what 4.6 KB of data can need.
//
// Contract: pure functions except physicalMemoryBytes() and availableMemoryBytes() (ask the
// OS). Nothing here allocates voxel memory; itemsInFile() throws IoError and
// requireFitsInMemory() InvalidInputError before a reader allocates.
//
// Example:
//   const std::optional<std::uint64_t> bytes = detail::voxelByteCount(dims, type);
//   if (!bytes) throw InvalidInputError(what + ": " + detail::dimsText(dims, type) + "...");
//   detail::requireFitsInMemory(what, dims, type, *bytes);
//   std::vector<std::byte> voxels(*bytes);
#pragma once

#include "io/load_monitor.h"
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

// What a header claims its data hold: `count` items (volumes, frames) of `itemBytes` each,
// stored from some offset of a file that holds `fileBytes` from there on.
struct HeaderClaim {
    std::string subject;  // "NIfTI 'bold.nii'": whose header, named in the message
    std::string itemName; // "volume", "frame" (singular)
    std::string itemText; // one item's layout: "64x64x32 float32"
    std::uint64_t count = 1;
    std::uint64_t itemBytes = 0; // decoded bytes of one item
    std::uint64_t fileBytes = 0; // bytes the file holds where the items start
    // The fewest bytes of the file one item can take: itemBytes when stored as is; for
    // compressed data what the codec could shrink it to at best (itemBytes / kMaxDeflateRatio
    // for deflate, an item header for an encapsulated DICOM frame). At least 1 is used.
    std::uint64_t minStoredItemBytes = 0;
};

// How a reader treats a claim its file cannot fully hold.
enum class ClaimShortfall {
    // every claimed item must start inside the file (a truncated last one may be cut: its
    // reader names the missing bytes when it reads it)
    Refuse,
    Count, // the whole items the file holds are what it holds (a series listing)
};

// How many of the claimed items the file holds (see ClaimShortfall). Throws IoError "<subject>: the
// header claims 1099511627776 volumes of 64x64x32 float32 (512.0 PiB), but the file holds 4.0 KiB
// (4096 bytes) there, room for none of them" when that is none, or, with Refuse, fewer than
// claimed. Arithmetic only, never overflows (counts and bytes saturate).
std::uint64_t itemsInFile(const HeaderClaim& claim, ClaimShortfall shortfall);

// The claim in words: "1099511627776 volumes of 64x64x32 float32 (512.0 PiB)".
std::string claimText(const HeaderClaim& claim);

// Throws InvalidInputError "<subject> (<dims>) needs <n> (<bytes> bytes), more than the <m> of
// memory available now (<p> in this machine); ..." when bytes exceed the available memory or
// what a std::vector can hold. Checked before any voxel memory is allocated: the alternative
// is the OOM killer, or minutes of swapping.
void requireFitsInMemory(std::string_view subject, glm::uvec3 dims, ScalarType type,
                         std::uint64_t bytes);

// The last check every reader makes before it allocates a volume's voxels: requireFitsInMemory,
// then the monitor's admitVolume (which may refuse it; a null monitor admits everything).
void requireLoadable(LoadMonitor* monitor, std::string_view subject, glm::uvec3 dims,
                     ScalarType type, std::uint64_t bytes);

// Reverses the byte order of every elementSize-byte element in place (sizes 2, 4, 8; other
// sizes are left alone). A trailing partial element is left untouched.
void swapByteOrder(std::span<std::byte> bytes, std::size_t elementSize);

// Text safe to show in a message: at most maxChars characters of text, with control and
// non-ASCII bytes written as \xNN and an ellipsis when cut.
std::string printable(std::string_view text, std::size_t maxChars = 60);

} // namespace isoview::io::detail
