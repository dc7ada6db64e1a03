// Encodes RGBA frames as numbered PNG files (video/movie_format.h names them) with libavcodec's
// PNG encoder: lossless, alpha kept. Private to src/video/ (MovieWriter is the entry point).
//
// Each frame is its own file, committed through an AtomicFileWriter as soon as it is encoded,
// so a file is never seen half-written. A sequence that is abandoned (destroyed without finish,
// after a cancel or an error) removes the frames it committed again.
// NOTE: committing every frame at once, rather than holding all of them in unnamed files until
// finish(), is the robust choice: a 2-minute movie at 30 fps would hold 3,600 open files (the
// usual limit is 1,024) and 3,600 write buffers. The price: while the sequence is being written
// its first frames are visible, and a frame that replaced an older file of the same name is
// removed, not restored, when the sequence is abandoned. Removal is by identity: a frame file
// that something else replaced since (another device and inode) is left alone. Where a name is
// a symbolic link, the file it resolves to was written and is the one removed.
//
// Contract: the constructor checks that frame 0's destination may be written (folder exists,
// no FIFO, device or input volume there) and opens the encoder; encode() and finish() write
// files. Everything throws IoError naming the frame's path and the reason. The encoder may use
// frame threads, so a frame's file can appear one or more encode() calls later; finish() writes
// the rest. One thread at a time.
//
// Example:
//   PngSequenceEncoder frames("shot_{n}.png", 640, 480);
//   frames.encode(rgba, 640 * 4, 0); // shot_0000.png
//   frames.finish();
#pragma once

#include "video/libav_owners.h"
#include "video/movie_encoder.h"

#include <filesystem>
#include <string>
#include <sys/types.h>
#include <vector>

namespace isoview::video {

class PngSequenceEncoder final : public MovieEncoder {
public:
    PngSequenceEncoder(std::filesystem::path pattern, int width, int height);
    ~PngSequenceEncoder() override;
    PngSequenceEncoder(const PngSequenceEncoder&) = delete;
    PngSequenceEncoder& operator=(const PngSequenceEncoder&) = delete;
    PngSequenceEncoder(PngSequenceEncoder&&) = delete;
    PngSequenceEncoder& operator=(PngSequenceEncoder&&) = delete;

    void encode(const std::uint8_t* rgba, int bytesPerLine, int frameIndex) override;
    void finish() override;

private:
    // A committed frame, identified so that abandoning removes that very file.
    struct WrittenFrame {
        std::filesystem::path path; // where the bytes landed (links followed)
        dev_t device = 0;
        ino_t inode = 0;
    };

    // Sends frame (null: end of stream) and writes every packet the encoder has ready.
    void send(const AVFrame* frame);
    void writeFrameFile(const AVPacket& packet);
    void removeWrittenFrames() noexcept;
    [[noreturn]] void fail(const std::string& what, int error) const;

    std::filesystem::path m_pattern;
    int m_width;
    int m_height;
    CodecContextPtr m_codec;
    FramePtr m_frame;
    PacketPtr m_packet;
    std::vector<WrittenFrame> m_written;
    bool m_finished = false;
};

} // namespace isoview::video
