#include "video/movie_format.h"

#include "core/atomic_file.h"
#include "core/error.h"

#include <algorithm>
#include <cctype>
#include <stdexcept>
#include <string>

namespace isoview::video {
namespace {

constexpr std::string_view kFrameNumber = "{n}";
constexpr int kFrameDigits = 4;

std::string lowercase(std::string text)
{
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    return text;
}

} // namespace

MovieFormat movieFormatFor(const std::filesystem::path& path)
{
    const std::string extension = lowercase(path.extension().string());
    if (extension == ".mp4") return MovieFormat::Mp4H264;
    if (extension == ".png") return MovieFormat::PngSequence;
    const std::string what =
        path == kStandardOutput ? "standard output" : "'" + path.string() + "'";
    throw IoError("cannot write a movie to " + what + ": its name must end in one of " +
                  std::string(kMovieExtensions) + " (H.264 video, or one PNG image per frame)");
}

std::filesystem::path numberedFramePath(const std::filesystem::path& pattern, int frame)
{
    if (frame < 0) throw std::invalid_argument("numberedFramePath: negative frame number");
    std::string number = std::to_string(frame);
    if (number.size() < kFrameDigits) number.insert(0, kFrameDigits - number.size(), '0');

    std::string name = pattern.filename().string();
    if (name.find(kFrameNumber) == std::string::npos) {
        const std::string extension = pattern.extension().string();
        name.insert(name.size() - extension.size(), "_" + std::string(kFrameNumber));
    }
    for (std::size_t at = name.find(kFrameNumber); at != std::string::npos;
         at = name.find(kFrameNumber, at + number.size())) {
        name.replace(at, kFrameNumber.size(), number);
    }
    return pattern.parent_path() / name;
}

} // namespace isoview::video
