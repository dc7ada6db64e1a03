// A libavformat output (AVIOContext) whose bytes go through an AtomicFileWriter, so a muxer's
// file is unnamed until commit() and an abandoned or failed movie leaves nothing at the
// destination. Private to src/video/.
//
// Why not avio_open: it writes the destination by name as it goes (a partial file on failure, a
// FIFO or a device written into, an input volume overwritten). The muxer seeks back to finish
// what it wrote earlier (MP4's moov atom sizes), so the writer's seek() backs the AVIO seek;
// AVSEEK_SIZE answers from the largest offset written.
//
// Contract: owns the writer and the AVIOContext (a 64 KiB buffer). The AVIO callbacks never
// throw into libav: a writer's IoError is kept, libav sees AVERROR(EIO), and throwIfFailed()
// rethrows the kept error (its message names the path and the system's reason). Destroying an
// output that was not committed discards the file. One thread at a time.
//
// Example:
//   AtomicAvioOutput output(AtomicFileWriter("movie.mp4"));
//   format->pb = output.context(); format->flags |= AVFMT_FLAG_CUSTOM_IO;
//   ... avformat_write_header, packets, av_write_trailer ...
//   output.commit();
#pragma once

#include "core/atomic_file.h"
#include "video/libav_owners.h"

#include <cstdint>
#include <optional>
#include <string>

namespace isoview::video {

class AtomicAvioOutput {
public:
    // Throws IoError when libav cannot allocate the context.
    explicit AtomicAvioOutput(AtomicFileWriter file);
    AtomicAvioOutput(const AtomicAvioOutput&) = delete;
    AtomicAvioOutput& operator=(const AtomicAvioOutput&) = delete;
    // The context's opaque pointer is this object: it cannot move.
    AtomicAvioOutput(AtomicAvioOutput&&) = delete;
    AtomicAvioOutput& operator=(AtomicAvioOutput&&) = delete;
    ~AtomicAvioOutput() = default;

    // For AVFormatContext::pb; owned here.
    AVIOContext* context() const { return m_context.get(); }

    // Rethrows the first error a callback met, if any (IoError).
    void throwIfFailed() const;

    // Flushes the context's buffer and commits the file. Throws IoError.
    void commit();

private:
#if LIBAVFORMAT_VERSION_MAJOR < 61
    using WrittenBytes = std::uint8_t*; // FFmpeg before 6.1 declared the buffer non-const
#else
    using WrittenBytes = const std::uint8_t*;
#endif
    static int writeCallback(void* opaque, WrittenBytes bytes, int size);
    static std::int64_t seekCallback(void* opaque, std::int64_t offset, int whence);

    AtomicFileWriter m_file;
    IoContextPtr m_context; // after m_file: freed first
    std::uint64_t m_position = 0;
    std::uint64_t m_size = 0; // the largest offset written (AVSEEK_SIZE)
    std::optional<std::string> m_error;
};

} // namespace isoview::video
