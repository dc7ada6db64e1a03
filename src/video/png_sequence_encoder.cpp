#include "video/png_sequence_encoder.h"

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/log.h"
#include "video/movie_format.h"

#include <cerrno>
#include <cstring>
#include <sys/stat.h>
#include <system_error>
#include <unistd.h>
#include <utility>

namespace isoview::video {

PngSequenceEncoder::PngSequenceEncoder(std::filesystem::path pattern, int width, int height)
    : m_pattern(std::move(pattern)), m_width(width), m_height(height)
{
    // Said now rather than after the first frame's rendering.
    requireReplaceableDestination(numberedFramePath(m_pattern, 0));

    const AVCodec* encoder = avcodec_find_encoder(AV_CODEC_ID_PNG);
    if (encoder == nullptr) {
        throw IoError("cannot write '" + m_pattern.string() + "': this FFmpeg has no PNG encoder");
    }
    m_codec.reset(avcodec_alloc_context3(encoder));
    m_frame.reset(av_frame_alloc());
    m_packet.reset(av_packet_alloc());
    if (!m_codec || !m_frame || !m_packet) fail("cannot start", AVERROR(ENOMEM));
    m_codec->width = m_width;
    m_codec->height = m_height;
    m_codec->pix_fmt = AV_PIX_FMT_RGBA;
    m_codec->time_base = AVRational{1, 1}; // required by every video encoder; PNG ignores it
    m_codec->thread_count = 0;             // frame threads: deflate is the slow part
    if (const int error = avcodec_open2(m_codec.get(), encoder, nullptr); error < 0) {
        fail("cannot open the PNG encoder for", error);
    }
    m_frame->format = AV_PIX_FMT_RGBA;
    m_frame->width = m_width;
    m_frame->height = m_height;
    if (const int error = av_frame_get_buffer(m_frame.get(), 0); error < 0) {
        fail("cannot allocate a frame for", error);
    }
}

PngSequenceEncoder::~PngSequenceEncoder()
{
    if (!m_finished) removeWrittenFrames();
}

void PngSequenceEncoder::encode(const std::uint8_t* rgba, int bytesPerLine, int frameIndex)
{
    // A frame-threaded encoder may still hold the previous frame: then this makes a new buffer.
    if (const int error = av_frame_make_writable(m_frame.get()); error < 0) {
        fail("cannot encode a frame of", error);
    }
    const std::size_t rowBytes = std::size_t(m_width) * 4;
    for (int y = 0; y < m_height; ++y) {
        std::memcpy(m_frame->data[0] + std::ptrdiff_t(y) * m_frame->linesize[0],
                    rgba + std::ptrdiff_t(y) * bytesPerLine, rowBytes);
    }
    m_frame->pts = frameIndex;
    send(m_frame.get());
}

void PngSequenceEncoder::finish()
{
    send(nullptr);
    m_finished = true;
}

void PngSequenceEncoder::send(const AVFrame* frame)
{
    const int error = encodeFrame(m_codec.get(), m_packet.get(), frame,
                                  [this](const AVPacket& packet) { writeFrameFile(packet); });
    if (error < 0) fail("cannot encode a frame of", error);
}

void PngSequenceEncoder::writeFrameFile(const AVPacket& packet)
{
    // Packets come out in frame order, one per frame, so the count so far numbers the file.
    const std::filesystem::path path = numberedFramePath(m_pattern, int(m_written.size()));
    AtomicFileWriter file(path);
    file.write(packet.data, std::size_t(packet.size));
    WrittenFrame written{writtenPathFor(path)};
    file.commit();
    struct stat info {};
    if (::stat(written.path.c_str(), &info) == 0) {
        written.device = info.st_dev;
        written.inode = info.st_ino;
    }
    m_written.push_back(std::move(written));
}

void PngSequenceEncoder::removeWrittenFrames() noexcept
{
    for (const WrittenFrame& frame : m_written) {
        struct stat info {};
        if (::lstat(frame.path.c_str(), &info) != 0) continue;
        if (info.st_dev != frame.device || info.st_ino != frame.inode) continue;
        if (::unlink(frame.path.c_str()) != 0) {
            const int error = errno;
            try {
                log::get("video")->warn("cannot remove {} of an abandoned PNG sequence: {}",
                                        frame.path.string(),
                                        std::error_code(error, std::generic_category()).message());
            } catch (...) {
                // A log line that fails must not escalate out of a destructor.
            }
        }
    }
}

void PngSequenceEncoder::fail(const std::string& what, int error) const
{
    throw IoError(what + " '" + m_pattern.string() + "': " + libavError(error));
}

} // namespace isoview::video
