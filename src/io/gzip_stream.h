// Internal to src/io: the one zlib/gzip decoder of the loaders. NRRD and MetaImage voxels
// (through voxel_data_reader) and NIfTI .nii.gz / .img.gz files are all decoded by it. Not
// public API.
//
// Contract:
// - Decodes the zlib or gzip stream (detected from its first bytes) in `length` bytes of a
//   file from `start` on. A gzip member may be followed by more (each starting with the gzip
//   magic 1f 8b), decoded as one stream; bytes after the last are not decoded, only counted
//   (trailingBytes()). A member's check value and size are verified when its end is decoded,
//   so a reader that must know its data are intact reads past their last byte (the voxel
//   reader asks for one byte more than it needs; the NIfTI reader decodes ahead with
//   readInMember()).
// - read() decodes into the caller's buffer and never throws for bad data: it returns fewer
//   bytes than asked only once the stream has stopped, and state() says why: Ended (complete),
//   Truncated (the bytes ran out inside a stream) or Corrupt (zlib refused them; the bytes it
//   decoded before that are returned). throwIfCorrupt() then throws IoError "<prefix>the
//   compressed data in <label> are corrupt (zlib: <reason>) after <n> decompressed bytes",
//   prefix and label being the file's. Reads of the file throw as ReadOnlyFile does; the
//   constructor throws IoError when zlib cannot start.
// - Memory: a 256 KiB input buffer and zlib's state (about 45 KiB), whatever the stream
//   decodes to: nothing grows with the data, however large a stream claims to be.
// - Keeps a reference to the file, which must outlive it. Not copyable. Thread: one at a time.
//
// Example:
//   detail::GzipStream stream(file, headerBytes, file.size() - headerBytes);
//   std::size_t got = stream.read(voxels.data(), voxels.size());
//   stream.throwIfCorrupt();
//   if (got < voxels.size()) ... stream.state() == detail::GzipStream::State::Truncated ...
#pragma once

#include "io/read_only_file.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

struct z_stream_s; // zlib's, kept out of this header

namespace isoview::io::detail {

// Deflate cannot expand data by more than 1032:1 (a 258-byte match per 2 bits): fewer
// compressed bytes than needed / 1032 cannot hold the data, so a reader refuses them before it
// allocates anything for the decoded bytes.
inline constexpr std::uint64_t kMaxDeflateRatio = 1032;

class GzipStream {
public:
    enum class State { Decoding, Ended, Truncated, Corrupt };

    GzipStream(ReadOnlyFile& file, std::uint64_t start, std::uint64_t length);
    ~GzipStream();
    GzipStream(const GzipStream&) = delete;
    GzipStream& operator=(const GzipStream&) = delete;

    // Decodes up to n bytes into destination; fewer only once the stream has stopped.
    std::size_t read(void* destination, std::size_t n);
    // The same, but fewer also where a gzip member ends and another follows, which is left
    // undecoded: checks the member that holds the bytes already read, not what comes after.
    std::size_t readInMember(void* destination, std::size_t n);

    State state() const { return m_state; }
    // Bytes decoded so far.
    std::uint64_t position() const { return m_position; }
    // Once Ended: how many bytes of the range follow the last stream.
    std::uint64_t trailingBytes() const { return m_trailing; }
    // Throws the IoError described above when the state is Corrupt; otherwise does nothing.
    void throwIfCorrupt() const;

private:
    std::size_t decode(void* destination, std::size_t n, bool acrossMembers);
    void refill();

    ReadOnlyFile& m_file;
    std::unique_ptr<z_stream_s> m_stream;
    std::vector<unsigned char> m_input;
    std::uint64_t m_inputPos = 0;  // where the next compressed bytes are read from
    std::uint64_t m_inputLeft = 0; // compressed bytes of the range not read yet
    std::uint64_t m_position = 0;
    std::uint64_t m_trailing = 0;
    State m_state = State::Decoding;
    bool m_betweenMembers = false; // a member ended and another begins at the input
    std::string m_reason;          // zlib's words, when Corrupt
};

} // namespace isoview::io::detail
