// RAII owners for the libav objects the encoders hold, and libav's error text. Private to
// src/video/ (the public headers never include libav).
//
// Contract: each owner frees its object with libav's own function (which also releases what the
// object holds: a codec context its encoder, a frame its buffers); null owners free nothing.
// libavError is thread-safe (av_strerror writes into the caller's buffer).
//
// Example:
//   CodecContextPtr codec(avcodec_alloc_context3(encoder));
//   if (!codec) throw IoError("cannot ...: " + libavError(AVERROR(ENOMEM)));
#pragma once

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/error.h>
#include <libswscale/swscale.h>
}

#include <memory>
#include <string>

namespace isoview::video {

struct CodecContextDeleter {
    void operator()(AVCodecContext* context) const { avcodec_free_context(&context); }
};
struct FrameDeleter {
    void operator()(AVFrame* frame) const { av_frame_free(&frame); }
};
struct PacketDeleter {
    void operator()(AVPacket* packet) const { av_packet_free(&packet); }
};
struct ScaleContextDeleter {
    void operator()(SwsContext* context) const { sws_freeContext(context); }
};
// An output format context whose pb is custom I/O (AVFMT_FLAG_CUSTOM_IO): freeing it leaves the
// AVIOContext to its own owner. avformat_free_context also runs the muxer's deinit when the
// header was written but the trailer never was (an abandoned movie), so nothing leaks.
struct OutputFormatDeleter {
    void operator()(AVFormatContext* context) const { avformat_free_context(context); }
};
// A custom AVIOContext: its buffer (which avio may have reallocated) is freed with it.
struct IoContextDeleter {
    void operator()(AVIOContext* context) const
    {
        if (context) av_freep(&context->buffer);
        avio_context_free(&context);
    }
};

using CodecContextPtr = std::unique_ptr<AVCodecContext, CodecContextDeleter>;
using FramePtr = std::unique_ptr<AVFrame, FrameDeleter>;
using PacketPtr = std::unique_ptr<AVPacket, PacketDeleter>;
using ScaleContextPtr = std::unique_ptr<SwsContext, ScaleContextDeleter>;
using OutputFormatPtr = std::unique_ptr<AVFormatContext, OutputFormatDeleter>;
using IoContextPtr = std::unique_ptr<AVIOContext, IoContextDeleter>;

// libav's text for an AVERROR code ("No space left on device", "Invalid argument").
inline std::string libavError(int error)
{
    char text[AV_ERROR_MAX_STRING_SIZE] = {};
    if (av_strerror(error, text, sizeof text) < 0) return "libav error " + std::to_string(error);
    return text;
}

// Sends frame (null: the end of the stream) to the encoder and hands each packet it has ready
// to onPacket(AVPacket&), which owns the packet's data until it returns (the packet is unref'd
// after, also when onPacket throws). Returns 0, or the libav error of a failed send or receive.
template <class OnPacket>
int encodeFrame(AVCodecContext* codec, AVPacket* packet, const AVFrame* frame, OnPacket&& onPacket)
{
    if (const int error = avcodec_send_frame(codec, frame); error < 0) return error;
    for (;;) {
        const int received = avcodec_receive_packet(codec, packet);
        if (received == AVERROR(EAGAIN) || received == AVERROR_EOF) return 0;
        if (received < 0) return received;
        try {
            onPacket(*packet);
        } catch (...) {
            av_packet_unref(packet);
            throw;
        }
        av_packet_unref(packet);
    }
}

} // namespace isoview::video
