// Encodes RGBA frames as H.264 (yuv420p, BT.709 limited range) in an MP4 file through FFmpeg's
// libraries. Private to src/video/ (MovieWriter is the entry point).
//
// The pipeline, per frame: swscale converts RGBA to yuv420p (alpha is dropped: H.264 has none),
// the encoder (libx264 when this FFmpeg has it, crf and preset "medium"; otherwise the first
// H.264 encoder it has) takes the frame with pts = its number in a time base of 1/fps, and every
// packet it returns is rescaled to the stream's time base (the MP4 muxer chooses its own) and
// muxed. finish() drains the encoder (x264 holds frames back for its lookahead and B-frames),
// writes the trailer (the moov atom, after a seek back through AtomicAvioOutput) and commits.
//
// Contract: the constructor opens the destination (AtomicFileWriter: FIFOs, devices and input
// volumes refused), the encoder and the muxer, and throws IoError naming the path and libav's
// reason; the caller has checked the sizes (even, positive) and fps. Abandoning (destroying
// without finish) leaves nothing at the destination. x264 runs its own threads inside encode().
// Cost: about a frame's worth of x264 time per encode() (see MovieWriter for a measurement).
//
// Example:
//   H264Mp4Encoder encoder("orbit.mp4", 1280, 720, 30.0, 20);
//   encoder.encode(rgba, 1280 * 4, 0);
//   encoder.finish();
#pragma once

#include "video/atomic_avio_output.h"
#include "video/libav_owners.h"
#include "video/movie_encoder.h"

#include <filesystem>
#include <memory>
#include <string>

namespace isoview::video {

class H264Mp4Encoder final : public MovieEncoder {
public:
    H264Mp4Encoder(std::filesystem::path path, int width, int height, double framesPerSecond,
                   int crf);
    ~H264Mp4Encoder() override;
    H264Mp4Encoder(const H264Mp4Encoder&) = delete;
    H264Mp4Encoder& operator=(const H264Mp4Encoder&) = delete;
    H264Mp4Encoder(H264Mp4Encoder&&) = delete;
    H264Mp4Encoder& operator=(H264Mp4Encoder&&) = delete;

    void encode(const std::uint8_t* rgba, int bytesPerLine, int frameIndex) override;
    void finish() override;

    // The libav encoder in use ("libx264").
    std::string encoderName() const;

private:
    void openEncoder(double framesPerSecond, int crf);
    void openMuxer();
    // Sends frame (null: end of stream) and muxes every packet the encoder has ready.
    void send(const AVFrame* frame);
    [[noreturn]] void fail(const std::string& what, int error) const;

    std::filesystem::path m_path;
    int m_width;
    int m_height;
    // Destroyed in reverse order: the muxer before its output, the output (discarding an
    // uncommitted file) last.
    std::unique_ptr<AtomicAvioOutput> m_output;
    OutputFormatPtr m_format;
    AVStream* m_stream = nullptr; // owned by m_format
    CodecContextPtr m_codec;
    ScaleContextPtr m_scale;
    FramePtr m_frame;
    PacketPtr m_packet;
};

} // namespace isoview::video
