#include "video/movie_writer.h"

#include "core/atomic_file.h"
#include "core/error.h"
#include "video/h264_mp4_encoder.h"
#include "video/libav_log.h"
#include "video/movie_encoder.h"
#include "video/png_sequence_encoder.h"

#include <cmath>
#include <stdexcept>
#include <utility>

namespace isoview::video {
namespace {

constexpr double kMaxFramesPerSecond = 1000;
constexpr int kMaxCrf = 51; // x264's scale for 8-bit video

void requireValid(const MovieSettings& settings)
{
    const auto size = std::to_string(settings.width) + "x" + std::to_string(settings.height);
    if (settings.width <= 0 || settings.height <= 0) {
        throw std::invalid_argument("a movie needs a positive width and height, not " + size);
    }
    if (settings.width > kMaxMovieSide || settings.height > kMaxMovieSide) {
        throw std::invalid_argument("a movie's width and height are at most " +
                                    std::to_string(kMaxMovieSide) + ", not " + size);
    }
    if (!std::isfinite(settings.framesPerSecond) || settings.framesPerSecond <= 0 ||
        settings.framesPerSecond > kMaxFramesPerSecond) {
        throw std::invalid_argument("a movie's frame rate must be above 0 and at most 1000 "
                                    "frames per second, not " +
                                    std::to_string(settings.framesPerSecond));
    }
    if (settings.crf < 0 || settings.crf > kMaxCrf) {
        throw std::invalid_argument("a movie's crf is 0 to 51, not " +
                                    std::to_string(settings.crf));
    }
}

} // namespace

MovieWriter::MovieWriter(std::filesystem::path path, MovieSettings settings)
    : m_path(std::move(path)), m_settings(settings), m_format(MovieFormat::Mp4H264)
{
    if (m_path == kStandardOutput) {
        throw IoError("cannot write a movie to standard output: an MP4's index is written at "
                      "the end, after a seek back, and a PNG sequence is many files; give a "
                      "file name ending in " +
                      std::string(kMovieExtensions));
    }
    m_format = movieFormatFor(m_path);
    requireValid(m_settings);
    if (m_format == MovieFormat::Mp4H264 &&
        (m_settings.width % 2 != 0 || m_settings.height % 2 != 0)) {
        throw IoError("cannot write '" + m_path.string() + "': H.264 needs an even width and " +
                      "height (its colour is stored at half resolution), not " +
                      std::to_string(m_settings.width) + "x" + std::to_string(m_settings.height) +
                      "; choose an even size or write a PNG sequence");
    }
    installLibavLogForwarding();
    if (m_format == MovieFormat::Mp4H264) {
        m_encoder = std::make_unique<H264Mp4Encoder>(m_path, m_settings.width, m_settings.height,
                                                     m_settings.framesPerSecond, m_settings.crf);
    } else {
        m_encoder =
            std::make_unique<PngSequenceEncoder>(m_path, m_settings.width, m_settings.height);
    }
}

MovieWriter::~MovieWriter() = default;
MovieWriter::MovieWriter(MovieWriter&&) noexcept = default;
MovieWriter& MovieWriter::operator=(MovieWriter&&) noexcept = default;

void MovieWriter::addFrame(std::span<const std::uint8_t> rgba, int bytesPerLine)
{
    requireOpen("addFrame");
    const std::size_t rowBytes = std::size_t(m_settings.width) * 4;
    if (bytesPerLine < 0 || std::size_t(bytesPerLine) < rowBytes) {
        throw std::invalid_argument("MovieWriter::addFrame: " + std::to_string(bytesPerLine) +
                                    " bytes per line cannot hold " +
                                    std::to_string(m_settings.width) + " RGBA pixels");
    }
    const std::size_t needed =
        std::size_t(m_settings.height - 1) * std::size_t(bytesPerLine) + rowBytes;
    if (rgba.size() < needed) {
        throw std::invalid_argument("MovieWriter::addFrame: a " + std::to_string(m_settings.width) +
                                    "x" + std::to_string(m_settings.height) + " frame needs " +
                                    std::to_string(needed) + " bytes, not " +
                                    std::to_string(rgba.size()));
    }
    try {
        m_encoder->encode(rgba.data(), bytesPerLine, m_frames);
    } catch (const std::exception& error) {
        abandon(error);
        throw;
    }
    ++m_frames;
}

void MovieWriter::finish()
{
    requireOpen("finish");
    try {
        if (m_frames == 0) {
            throw IoError("cannot write '" + m_path.string() + "': the movie has no frames");
        }
        m_encoder->finish();
    } catch (const std::exception& error) {
        abandon(error);
        throw;
    }
    m_encoder.reset(); // releases the encoder's memory and threads now
    m_finished = true;
}

void MovieWriter::requireOpen(const char* call) const
{
    if (m_finished) {
        throw std::logic_error(std::string("MovieWriter::") + call + " after finish()");
    }
    if (m_failure) {
        throw IoError("cannot write '" + m_path.string() +
                      "': the movie was abandoned after an earlier error (" + *m_failure + ")");
    }
    if (!m_encoder) throw std::logic_error(std::string("MovieWriter::") + call + " after a move");
}

void MovieWriter::abandon(const std::exception& error)
{
    m_failure = error.what();
    m_encoder.reset(); // nothing stays at the destination (see the encoders)
}

} // namespace isoview::video
