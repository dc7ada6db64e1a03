// Internal to src/io: reads the voxel bytes that a headered format (NRRD, MetaImage) or a
// folder of slices describes — one or several data files, each holding an equal share of the
// voxels, raw or deflate-compressed — with every check made before the voxel buffer is
// allocated, in bounded chunks, reporting progress and honouring cancellation. Also reads the
// "name%03d.raw first last step [axes]" file-name patterns both formats use. Not public API.
//
// Contract of readVoxelData():
// - Before allocating: the byte count must not overflow and must fit in memory
//   (InvalidInputError); every data file must open and be a regular file, raw files must
//   hold at least their share after the skipped bytes and lines, compressed files must be
//   large enough that deflate (at most 1032:1) could expand them to their share (IoError,
//   naming the file and the expected and actual byte counts).
// - Raw bytes after a file's share are ignored with a warning; compressed data must
//   decompress to exactly the skipped bytes plus the share (IoError otherwise: truncated,
//   corrupt or too long). Compressed data are zlib or gzip streams (detected), gzip possibly in
//   several members, decoded by the loaders' one gzip reader (gzip_stream.h); bytes after the
//   last stream are ignored with a warning. A stream is always decoded to its own end, however
//   long the header says it is (compressedBytes): a stated size that differs from the stream's
//   is a warning, and a stream cut short stays an IoError.
// - Memory: the voxel buffer plus about 1.3 MiB of buffers, whatever the file size. Compressed
//   voxels fill a reserved buffer as they are decoded, so a stream that ends early never
//   touches the rest; a gzip stream whose size trailer disagrees with the header is decoded
//   once without storing it, so a truncated gzip file fails before any voxel memory is used.
// - Calls reportProgress(monitor, stage, done, total) about every MiB; CancelledError
//   propagates.
// - Returns the voxels in host byte order.
//
// Example:
//   detail::VoxelDataRequest request{.what = "NRRD 'a.nrrd'", .encoding = Encoding::Deflate,
//       .files = {{.path = "a.nrrd", .offset = headerBytes}}, .dims = dims, .type = type};
//   std::vector<std::byte> voxels = detail::readVoxelData(request, monitor, warnings);
#pragma once

#include "io/load_monitor.h"
#include "volume/volume.h"

#include <glm/glm.hpp>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace isoview::io::detail {

enum class VoxelEncoding { Raw, Deflate };

// One data file and where its share of the voxels lies in it.
struct VoxelDataFile {
    std::filesystem::path path;
    std::uint64_t offset = 0;      // bytes before anything else (an attached header)
    std::uint64_t skipLines = 0;   // then this many lines are skipped (NRRD "line skip")
    std::uint64_t skipBytes = 0;   // then this many bytes of the file (before decompressing)
    bool atEnd = false;            // raw only: the share is the last bytes of the file
    std::uint64_t skipDecoded = 0; // compressed only: decoded bytes discarded first
    // compressed only: the stream's size the header states (MetaImage CompressedDataSize),
    // compared with the real one for a warning; the stream is read to its end either way
    std::optional<std::uint64_t> compressedBytes;
};

struct VoxelDataRequest {
    std::string what; // "NRRD 'head.nrrd'", used in every message
    VoxelEncoding encoding = VoxelEncoding::Raw;
    std::vector<VoxelDataFile> files; // each holds byteCount / files.size() bytes, in order
    glm::uvec3 dims{0, 0, 0};
    ScalarType type = ScalarType::UInt8;
    bool bigEndian = false;    // byte order of the stored data
    bool exactRawSize = false; // raw: bytes after a file's share are an error, not a warning
};

// Reads, checks and byte-swaps the voxels described by request. Throws as described above.
std::vector<std::byte> readVoxelData(const VoxelDataRequest& request, LoadMonitor* monitor,
                                     std::vector<std::string>& warnings);

// The first min(file size, maxBytes) bytes of a file, for header parsing.
struct FileHead {
    std::string bytes;
    std::uint64_t fileSize = 0;
};

// Reads the head of path. IoError "cannot open <what>: <reason>" when it cannot be opened or
// read or is not a regular file.
FileHead readFileHead(const std::filesystem::path& path, std::size_t maxBytes,
                      const std::string& what);

// The largest number of data files a pattern or list may name.
inline constexpr std::uint64_t kMaxDataFiles = 100000;

// Expands a printf-like pattern with exactly one integer conversion (%d, %i or %u with optional
// '0' flag and width up to 20; "%%" is a literal '%') for first, first + step, ... up to and
// including last. Throws InvalidInputError (naming `field`) for any other pattern, a zero step,
// a step leading away from last, or more than kMaxDataFiles names. Never calls printf.
std::vector<std::string> expandFileNamePattern(std::string_view field, std::string_view pattern,
                                               std::int64_t first, std::int64_t last,
                                               std::int64_t step);

// True when a data-file field's words are "pattern first last step [axes]": a pattern with a
// '%' and three integers, then perhaps a number of axes (read by parseDataFileAxes).
bool isFileNamePattern(const std::vector<std::string_view>& words);

// expandFileNamePattern for words that isFileNamePattern accepts.
std::vector<std::string> expandFileNamePattern(std::string_view field,
                                               const std::vector<std::string_view>& words);

// How many of the fastest axes each data file holds, as a data-file field states it: 1 to
// maxAxes, else InvalidInputError "<prefix>'<text>' is not a number of axes from 1 to <max>".
std::size_t parseDataFileAxes(std::string_view text, std::size_t maxAxes,
                              const std::string& prefix);

} // namespace isoview::io::detail
