// Writes rendered frames as a movie: an H.264 MP4 file, or numbered PNG files, chosen by the
// path's extension (video/movie_format.h). Qt-free and GL-free: the caller renders, this encodes.
//
// Formats:
// - ".mp4": H.264 (libx264 through FFmpeg's libraries; crf 20, preset "medium" unless told),
//   yuv420p, BT.709 limited range, at the constant frame rate given. Alpha is dropped (H.264 has
//   none): each pixel's colour is used as it is, so a transparent background shows the colour
//   stored under it. Width and height must be even (yuv420p halves both for colour).
// - ".png": one lossless PNG per frame, RGBA kept, named by numberedFramePath (frames from 0:
//   "shot.png" -> shot_0000.png, shot_0001.png, ...; "f_{n}.png" -> f_0000.png, ...).
//
// Frames: straight (not premultiplied) RGBA8888, the top row first, rows bytesPerLine apart:
// a QImage in QImage::Format_RGBA8888 as it is (constBits(), bytesPerLine()); convert a
// Format_RGBA8888_Premultiplied or ARGB32 image to it first.
//
// Contract:
// - Every file is written through AtomicFileWriter (core/atomic_file.h): never partial, never
//   into a FIFO or device, never over a file an open volume was read from; a link at the
//   destination is written through. Standard output ("-") is refused: MP4's index is written at
//   the end and the muxer seeks back to it.
// - The MP4 is unnamed until finish() commits it. A PNG sequence commits each frame as it is
//   encoded (see png_sequence_encoder.h for why), so its first frames are visible while it is
//   written.
// - Destroying a writer without finish() (a cancel, an error) abandons the movie: nothing it
//   wrote stays at the destination (an MP4's unnamed file is dropped; a PNG sequence's frames
//   are removed again). A writer whose addFrame() or finish() threw has already abandoned its
//   movie; later calls throw IoError.
// - Throws IoError (an unknown extension, "-", odd MP4 sizes, a destination that cannot be
//   written, an encoder or disk failure: messages name the path and libav's or the system's
//   reason); std::invalid_argument for sizes <= 0 or over kMaxMovieSide, fps not in (0, 1000],
//   crf not in [0, 51], a frame buffer too small for the size; std::logic_error for a call after
//   finish(). IoError from a constructor means nothing was created.
// - One thread at a time; the writer may move between threads. x264 runs its own threads inside
//   addFrame() and finish(); the PNG encoder compresses frames on its own threads too.
// - Cost (measured on the 2-core build machine, another build running): 60 frames of 1280x720
//   to MP4 in 1.1 to 2.0 s with finish() (30 to 54 frames/s; finish() drains x264's
//   lookahead, about a quarter of it); to PNG, 24 frames/s. One 7680x4320 frame: 3 s to MP4,
//   1.9 s to PNG, about 0.5 GB at the peak. addFrame() does not keep the caller's buffer: it
//   may be reused as soon as addFrame() returns.
// - FFmpeg's own log lines go to the "video" logger (video/libav_log.h), not to stderr.
//
// Example:
//   MovieWriter movie("orbit.mp4", {.width = 1280, .height = 720, .framesPerSecond = 30});
//   for (const QImage& frame : frames) // Format_RGBA8888
//       movie.addFrame({frame.constBits(), std::size_t(frame.sizeInBytes())},
//                      int(frame.bytesPerLine()));
//   movie.finish(); // orbit.mp4 appears now, complete
#pragma once

#include "video/movie_format.h"

#include <cstdint>
#include <exception>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>

namespace isoview::video {

class MovieEncoder;

// The largest width or height accepted (8K UHD is 7680x4320).
inline constexpr int kMaxMovieSide = 16384;

struct MovieSettings {
    int width = 0;
    int height = 0;
    double framesPerSecond = 30; // stored as an exact rational: 30000.0 / 1001 for NTSC's 29.97
    int crf = 20; // H.264 only: x264's constant rate factor, 0 (lossless) to 51; 18 looks clean
};

class MovieWriter {
public:
    // Opens the destination and the encoder. Throws as the contract says.
    MovieWriter(std::filesystem::path path, MovieSettings settings);
    // Without finish(): abandons the movie (nothing left at the destination).
    ~MovieWriter();
    MovieWriter(MovieWriter&&) noexcept;
    MovieWriter& operator=(MovieWriter&&) noexcept;
    MovieWriter(const MovieWriter&) = delete;
    MovieWriter& operator=(const MovieWriter&) = delete;

    // Encodes the next frame (see Frames above); rgba must hold at least
    // (height - 1) * bytesPerLine + width * 4 bytes, and bytesPerLine >= width * 4.
    void addFrame(std::span<const std::uint8_t> rgba, int bytesPerLine);

    // Flushes the encoder, finishes the file(s) and commits. Throws IoError for a movie without
    // frames (and abandons it).
    void finish();

    // Frames accepted by addFrame() so far.
    int framesWritten() const { return m_frames; }
    MovieFormat format() const { return m_format; }
    const std::filesystem::path& path() const { return m_path; }
    const MovieSettings& settings() const { return m_settings; }

private:
    void requireOpen(const char* call) const;
    void abandon(const std::exception& error);

    std::filesystem::path m_path;
    MovieSettings m_settings;
    MovieFormat m_format;
    std::unique_ptr<MovieEncoder> m_encoder; // null once finished or abandoned
    int m_frames = 0;
    bool m_finished = false;
    std::optional<std::string> m_failure; // why the movie was abandoned
};

} // namespace isoview::video
