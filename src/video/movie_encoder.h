// What MovieWriter asks of each format's encoder. Private to src/video/: MovieWriter checks the
// arguments and the call order, the encoders only encode.
//
// Contract: encode() gets frames numbered 0, 1, 2, ... whose size matches the encoder's; finish()
// is called once, after the last frame, and must leave the complete movie at its destination.
// Destroying an encoder that did not finish abandons the movie: nothing it wrote stays at the
// destination. Both throw IoError (messages name the path and libav's or the system's reason);
// after a throw, MovieWriter only destroys the encoder. One thread at a time.
//
// Example (MovieWriter's use):
//   encoder->encode(rgba, bytesPerLine, frameIndex);
//   encoder->finish();
#pragma once

#include <cstdint>

namespace isoview::video {

class MovieEncoder {
public:
    MovieEncoder() = default;
    virtual ~MovieEncoder() = default;
    MovieEncoder(const MovieEncoder&) = delete;
    MovieEncoder& operator=(const MovieEncoder&) = delete;
    MovieEncoder(MovieEncoder&&) = delete;
    MovieEncoder& operator=(MovieEncoder&&) = delete;

    // rgba: the top row first, straight (not premultiplied) RGBA8888, rows bytesPerLine apart.
    virtual void encode(const std::uint8_t* rgba, int bytesPerLine, int frameIndex) = 0;
    virtual void finish() = 0;
};

} // namespace isoview::video
