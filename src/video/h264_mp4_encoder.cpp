#include "video/h264_mp4_encoder.h"

#include "core/error.h"

extern "C" {
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libavutil/rational.h>
}

#include <cerrno>
#include <utility>

namespace isoview::video {
namespace {

// Frame rates become exact rationals: 30 -> 30/1, 30000.0/1001 -> 30000/1001.
constexpr int kMaxRateTerm = 1'000'000;

const AVCodec* findH264Encoder()
{
    if (const AVCodec* x264 = avcodec_find_encoder_by_name("libx264")) return x264;
    return avcodec_find_encoder(AV_CODEC_ID_H264);
}

} // namespace

H264Mp4Encoder::H264Mp4Encoder(std::filesystem::path path, int width, int height,
                               double framesPerSecond, int crf)
    : m_path(std::move(path)), m_width(width), m_height(height)
{
    // First the destination: a FIFO, a device or an input volume there is refused before any
    // encoder starts.
    m_output = std::make_unique<AtomicAvioOutput>(AtomicFileWriter(m_path));
    openEncoder(framesPerSecond, crf);
    openMuxer();

    m_scale.reset(sws_getContext(
        m_width, m_height, AV_PIX_FMT_RGBA, m_width, m_height, AV_PIX_FMT_YUV420P,
        SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INP, nullptr, nullptr, nullptr));
    if (!m_scale) fail("cannot set up the colour conversion for", AVERROR(EINVAL));
    // BT.709 coefficients, limited range, as the stream is tagged (players assume BT.709 for HD
    // and read an untagged small movie as BT.601, so the tag is what counts). The first table
    // (the source's) is unused for RGB input.
    const int* bt709 = sws_getCoefficients(SWS_CS_ITU709);
    sws_setColorspaceDetails(m_scale.get(), bt709, 1, bt709, 0, 0, 1 << 16, 1 << 16);

    m_frame.reset(av_frame_alloc());
    m_packet.reset(av_packet_alloc());
    if (!m_frame || !m_packet) fail("cannot start", AVERROR(ENOMEM));
    m_frame->format = AV_PIX_FMT_YUV420P;
    m_frame->width = m_width;
    m_frame->height = m_height;
    if (const int error = av_frame_get_buffer(m_frame.get(), 0); error < 0) {
        fail("cannot allocate a frame for", error);
    }
}

H264Mp4Encoder::~H264Mp4Encoder() = default;

void H264Mp4Encoder::openEncoder(double framesPerSecond, int crf)
{
    const AVCodec* encoder = findH264Encoder();
    if (encoder == nullptr) {
        throw IoError("cannot write '" + m_path.string() +
                      "': this FFmpeg has no H.264 encoder (Debian's libavcodec59 brings "
                      "libx264); write a PNG sequence instead");
    }
    m_codec.reset(avcodec_alloc_context3(encoder));
    if (!m_codec) fail("cannot start", AVERROR(ENOMEM));
    const AVRational rate = av_d2q(framesPerSecond, kMaxRateTerm);
    m_codec->width = m_width;
    m_codec->height = m_height;
    m_codec->pix_fmt = AV_PIX_FMT_YUV420P;
    m_codec->framerate = rate;
    m_codec->time_base = av_inv_q(rate);
    m_codec->sample_aspect_ratio = AVRational{1, 1};
    m_codec->color_range = AVCOL_RANGE_MPEG;
    m_codec->colorspace = AVCOL_SPC_BT709;
    m_codec->color_primaries = AVCOL_PRI_BT709;
    m_codec->color_trc = AVCOL_TRC_BT709;
    m_codec->thread_count = 0; // the encoder's choice (x264: its own threads)
    // MP4 keeps the SPS/PPS in the avcC box, not in the stream.
    m_codec->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
    // Options other H.264 encoders may lack are best effort; x264 has both.
    av_opt_set_int(m_codec->priv_data, "crf", crf, 0);
    av_opt_set(m_codec->priv_data, "preset", "medium", 0);

    if (const int error = avcodec_open2(m_codec.get(), encoder, nullptr); error < 0) {
        fail("cannot open the H.264 encoder (" + std::string(encoder->name) + ") for", error);
    }
}

void H264Mp4Encoder::openMuxer()
{
    AVFormatContext* format = nullptr;
    if (const int error = avformat_alloc_output_context2(&format, nullptr, "mp4", nullptr);
        error < 0) {
        fail("cannot start the MP4 muxer for", error);
    }
    m_format.reset(format);
    m_format->pb = m_output->context();
    m_format->flags |= AVFMT_FLAG_CUSTOM_IO;

    m_stream = avformat_new_stream(m_format.get(), nullptr);
    if (m_stream == nullptr) fail("cannot start the MP4 muxer for", AVERROR(ENOMEM));
    if (const int error = avcodec_parameters_from_context(m_stream->codecpar, m_codec.get());
        error < 0) {
        fail("cannot start the MP4 muxer for", error);
    }
    // A hint: the muxer sets its own time base (a timescale of at least 10000) in the header.
    m_stream->time_base = m_codec->time_base;
    m_stream->avg_frame_rate = m_codec->framerate;
    // NOTE: no "movflags faststart": it rewrites the file by reopening it by name, which the
    // atomic writer's unnamed file does not have. The moov atom stays at the end.
    if (const int error = avformat_write_header(m_format.get(), nullptr); error < 0) {
        m_output->throwIfFailed();
        fail("cannot write the MP4 header of", error);
    }
    m_output->throwIfFailed();
}

void H264Mp4Encoder::encode(const std::uint8_t* rgba, int bytesPerLine, int frameIndex)
{
    if (const int error = av_frame_make_writable(m_frame.get()); error < 0) {
        fail("cannot encode a frame of", error);
    }
    const std::uint8_t* const source[] = {rgba};
    const int sourceStride[] = {bytesPerLine};
    sws_scale(m_scale.get(), source, sourceStride, 0, m_height, m_frame->data, m_frame->linesize);
    m_frame->pts = frameIndex;
    send(m_frame.get());
}

void H264Mp4Encoder::finish()
{
    send(nullptr); // drains the frames the encoder held back
    const int error = av_write_trailer(m_format.get());
    m_output->throwIfFailed();
    if (error < 0) fail("cannot finish the MP4 file", error);
    m_output->commit();
}

std::string H264Mp4Encoder::encoderName() const
{
    return m_codec->codec->name;
}

void H264Mp4Encoder::send(const AVFrame* frame)
{
    const int error = encodeFrame(m_codec.get(), m_packet.get(), frame, [this](AVPacket& packet) {
        av_packet_rescale_ts(&packet, m_codec->time_base, m_stream->time_base);
        packet.stream_index = m_stream->index;
        // Takes the packet's reference and leaves it blank for the next one.
        const int written = av_interleaved_write_frame(m_format.get(), &packet);
        m_output->throwIfFailed();
        if (written < 0) fail("cannot write a frame to", written);
    });
    if (error < 0) fail("cannot encode a frame of", error);
}

void H264Mp4Encoder::fail(const std::string& what, int error) const
{
    throw IoError(what + " '" + m_path.string() + "': " + libavError(error));
}

} // namespace isoview::video
