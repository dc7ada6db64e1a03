// MovieWriter: MP4s that an independent decoder (FFmpeg's ffprobe and ffmpeg programs) reads back
// with the right codec, size, frame count and pictures; PNG sequences named and lossless; and the
// output rules every isoview writer keeps (no FIFO written into, nothing left when abandoned).
// A missing ffprobe or ffmpeg fails the tests (packaging/install-deps.sh installs ffmpeg).
#include "core/error.h"
#include "support/temp_dir.h"
#include "video/movie_writer.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <sys/stat.h>
#include <vector>

namespace isoview::video {
namespace {

namespace fs = std::filesystem;
using test::TempDir;

struct ProgramOutput {
    int exitStatus = -1;
    std::string bytes; // stdout only; stderr goes to the test's log
};

ProgramOutput runProgram(const std::string& command)
{
    ProgramOutput result;
    FILE* pipe = ::popen(command.c_str(), "r");
    if (pipe == nullptr) return result;
    char buffer[65536];
    std::size_t n = 0;
    while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0)
        result.bytes.append(buffer, n);
    result.exitStatus = ::pclose(pipe);
    return result;
}

std::string quoted(const fs::path& path)
{
    return "'" + path.string() + "'";
}

// "h264,64,48,12" for an MP4: codec, size and the frames ffprobe decoded.
std::string probe(const fs::path& movie)
{
    const ProgramOutput out =
        runProgram("ffprobe -v error -select_streams v:0 -count_frames -show_entries "
                   "stream=codec_name,width,height,nb_read_frames -of csv=p=0 " +
                   quoted(movie));
    EXPECT_EQ(out.exitStatus, 0) << "ffprobe failed on " << movie
                                 << " (the Debian package ffmpeg has it)";
    std::string line = out.bytes;
    while (!line.empty() && (line.back() == '\n' || line.back() == ','))
        line.pop_back();
    return line;
}

// Every frame of a video or image file as packed pixels of pixelFormat ("rgb24", "rgba").
std::string decode(const fs::path& file, const std::string& pixelFormat)
{
    const ProgramOutput out = runProgram("ffmpeg -v error -i " + quoted(file) +
                                         " -f rawvideo -pix_fmt " + pixelFormat + " -");
    EXPECT_EQ(out.exitStatus, 0) << "ffmpeg failed on " << file
                                 << " (the Debian package ffmpeg has it)";
    return out.bytes;
}

// A frame of one colour, with rows padded past the pixels (as QImage may pad them).
struct Frame {
    int bytesPerLine = 0;
    std::vector<std::uint8_t> bytes;
};
Frame solidFrame(int width, int height, std::uint8_t r, std::uint8_t g, std::uint8_t b)
{
    Frame frame{width * 4 + 12, {}};
    frame.bytes.assign(std::size_t(frame.bytesPerLine) * std::size_t(height), 0xEE);
    for (int y = 0; y < height; ++y) {
        for (int x = 0; x < width; ++x) {
            std::uint8_t* pixel = &frame.bytes[std::size_t(y * frame.bytesPerLine + x * 4)];
            pixel[0] = r;
            pixel[1] = g;
            pixel[2] = b;
            pixel[3] = 255;
        }
    }
    return frame;
}

// The mean of each channel of one rgb24 frame.
std::vector<double> meanColour(const std::string& rgb, std::size_t frame, std::size_t pixels)
{
    std::vector<double> mean(3, 0.0);
    for (std::size_t i = 0; i < pixels; ++i) {
        for (std::size_t c = 0; c < 3; ++c) {
            mean[c] += double(static_cast<unsigned char>(rgb[(frame * pixels + i) * 3 + c]));
        }
    }
    for (double& channel : mean)
        channel /= double(pixels);
    return mean;
}

TEST(MovieWriter, Mp4IsH264WithEveryFrameAndAppearsOnlyWhenFinished)
{
    TempDir dir;
    const fs::path path = dir.path() / "orbit.mp4";
    constexpr int kWidth = 64;
    constexpr int kHeight = 48;
    constexpr int kFrames = 12;
    const Frame red = solidFrame(kWidth, kHeight, 230, 20, 20);
    const Frame blue = solidFrame(kWidth, kHeight, 20, 20, 230);
    MovieWriter movie(path, {.width = kWidth, .height = kHeight, .framesPerSecond = 24});
    EXPECT_EQ(movie.format(), MovieFormat::Mp4H264);
    for (int i = 0; i < kFrames; ++i) {
        const Frame& frame = i < kFrames / 2 ? red : blue;
        movie.addFrame(frame.bytes, frame.bytesPerLine);
    }
    EXPECT_EQ(movie.framesWritten(), kFrames);
    EXPECT_TRUE(dir.entries().empty()) << "the MP4 must stay unnamed until finish()";
    movie.finish();
    EXPECT_EQ(dir.entries(), std::vector<std::string>{"orbit.mp4"});

    EXPECT_EQ(probe(path), "h264,64,48,12");
    const std::string rgb = decode(path, "rgb24");
    const std::size_t pixels = std::size_t(kWidth) * kHeight;
    ASSERT_EQ(rgb.size(), pixels * 3 * kFrames);
    // H.264 is lossy: within a tolerance far below the difference between the two colours.
    const std::vector<double> first = meanColour(rgb, 0, pixels);
    const std::vector<double> last = meanColour(rgb, kFrames - 1, pixels);
    EXPECT_NEAR(first[0], 230, 12);
    EXPECT_NEAR(first[2], 20, 12);
    EXPECT_NEAR(last[0], 20, 12);
    EXPECT_NEAR(last[2], 230, 12);
    EXPECT_THROW(movie.addFrame(red.bytes, red.bytesPerLine), std::logic_error);
}

TEST(MovieWriter, PngSequenceIsNumberedAndLosslessWithAlpha)
{
    TempDir dir;
    constexpr int kWidth = 5; // odd sizes are fine for PNG
    constexpr int kHeight = 3;
    std::vector<std::vector<std::uint8_t>> frames;
    {
        MovieWriter sequence(dir.path() / "shot.png", {.width = kWidth, .height = kHeight});
        EXPECT_EQ(sequence.format(), MovieFormat::PngSequence);
        for (int i = 0; i < 3; ++i) {
            std::vector<std::uint8_t>& rgba = frames.emplace_back();
            for (int p = 0; p < kWidth * kHeight * 4; ++p)
                rgba.push_back(std::uint8_t(p * 7 + i));
            sequence.addFrame(rgba, kWidth * 4);
        }
        sequence.finish();
    }
    EXPECT_EQ(dir.entries(),
              (std::vector<std::string>{"shot_0000.png", "shot_0001.png", "shot_0002.png"}));
    const std::string decoded = decode(dir.path() / "shot_0001.png", "rgba");
    EXPECT_EQ(decoded, std::string(frames[1].begin(), frames[1].end()));
}

TEST(MovieWriter, FormatAndFrameNamesComeFromThePath)
{
    EXPECT_EQ(movieFormatFor("a/b.MP4"), MovieFormat::Mp4H264);
    EXPECT_EQ(movieFormatFor("f_{n}.png"), MovieFormat::PngSequence);
    try {
        movieFormatFor("movie.avi");
        FAIL() << "expected IoError";
    } catch (const IoError& error) {
        const std::string message = error.what();
        EXPECT_NE(message.find("movie.avi"), std::string::npos) << message;
        EXPECT_NE(message.find(".mp4, .png"), std::string::npos) << message;
    }
    EXPECT_THROW(MovieWriter("-", {.width = 8, .height = 8}), IoError);

    EXPECT_EQ(numberedFramePath("out/shot.png", 7), fs::path("out/shot_0007.png"));
    EXPECT_EQ(numberedFramePath("f{n}_{n}.png", 12345), fs::path("f12345_12345.png"));
    EXPECT_EQ(numberedFramePath("run_{n}/f_{n}.png", 3), fs::path("run_{n}/f_0003.png"));
}

TEST(MovieWriter, RefusesOddMp4SizesBadSettingsAndShortFrames)
{
    TempDir dir;
    try {
        MovieWriter movie(dir.path() / "odd.mp4", {.width = 65, .height = 48});
        FAIL() << "expected IoError";
    } catch (const IoError& error) {
        EXPECT_NE(std::string(error.what()).find("even"), std::string::npos) << error.what();
    }
    EXPECT_THROW(MovieWriter(dir.path() / "a.mp4", {.width = 0, .height = 48}),
                 std::invalid_argument);
    EXPECT_THROW(MovieWriter(dir.path() / "a.png", {.width = 8, .height = -2}),
                 std::invalid_argument);
    EXPECT_THROW(MovieWriter(dir.path() / "a.mp4", {.width = 8, .height = 8, .framesPerSecond = 0}),
                 std::invalid_argument);
    EXPECT_TRUE(dir.entries().empty());

    MovieWriter movie(dir.path() / "short.png", {.width = 8, .height = 8});
    const std::vector<std::uint8_t> tooSmall(8 * 4 * 8 - 1);
    EXPECT_THROW(movie.addFrame(tooSmall, 8 * 4), std::invalid_argument);
    EXPECT_THROW(movie.addFrame(tooSmall, 8 * 3), std::invalid_argument);
    EXPECT_EQ(movie.framesWritten(), 0);
    EXPECT_THROW(movie.finish(), IoError) << "a movie without frames";
    EXPECT_TRUE(dir.entries().empty());
}

TEST(MovieWriter, FifoAtTheDestinationIsRefusedAndUntouched)
{
    TempDir dir;
    for (const char* name : {"movie.mp4", "frame_0000.png"}) {
        const fs::path fifo = dir.path() / name;
        ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
        const fs::path path =
            fs::path(name).extension() == ".mp4" ? fifo : dir.path() / "frame.png";
        EXPECT_THROW(MovieWriter(path, {.width = 16, .height = 16}), IoError) << name;
        EXPECT_TRUE(fs::is_fifo(fifo)) << name;
    }
    EXPECT_EQ(dir.entries(), (std::vector<std::string>{"frame_0000.png", "movie.mp4"}));
}

TEST(MovieWriter, AbandonedMoviesLeaveNothing)
{
    TempDir dir;
    const Frame grey = solidFrame(32, 16, 128, 128, 128);
    fs::create_directory(dir.path() / "mp4");
    fs::create_directory(dir.path() / "png");
    {
        MovieWriter movie(dir.path() / "mp4" / "cancelled.mp4", {.width = 32, .height = 16});
        MovieWriter frames(dir.path() / "png" / "cancelled.png", {.width = 32, .height = 16});
        for (int i = 0; i < 3; ++i) {
            movie.addFrame(grey.bytes, grey.bytesPerLine);
            frames.addFrame(grey.bytes, grey.bytesPerLine);
        }
        // The PNG encoder may keep a frame in its threads, but not all three.
        EXPECT_FALSE(fs::is_empty(dir.path() / "png")) << "frames are committed as they come";
    }
    EXPECT_TRUE(fs::is_empty(dir.path() / "mp4"));
    EXPECT_TRUE(fs::is_empty(dir.path() / "png"));
}

} // namespace
} // namespace isoview::video
