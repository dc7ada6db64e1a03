// Which kind of movie a path asks for, and the file names of a numbered PNG sequence.
//
// Contract: pure functions of the path text (nothing is read from disk); thread-safe.
// - movieFormatFor: ".mp4" -> Mp4H264, ".png" -> PngSequence (either case); anything else,
//   standard output ("-") included, throws IoError naming the path and the accepted extensions.
// - numberedFramePath: "{n}" in the file name becomes the frame number, zero-padded to at least
//   4 digits ("shot_{n}.png", 7 -> "shot_0007.png"; every "{n}" of the name is replaced); a name
//   without "{n}" gets "_{n}" before its extension ("shot.png", 7 -> "shot_0007.png"). Only the
//   file name is numbered: a "{n}" in a folder name stays as it is. Throws std::invalid_argument
//   for a negative frame.
//
// Example:
//   if (movieFormatFor(path) == MovieFormat::PngSequence)
//       std::cout << numberedFramePath(path, 0) << "...";
#pragma once

#include <filesystem>
#include <string_view>

namespace isoview::video {

enum class MovieFormat {
    Mp4H264,     // one .mp4 file: H.264 (yuv420p) video at a constant frame rate
    PngSequence, // one lossless RGBA .png file per frame
};

// The extensions movieFormatFor accepts, for messages and file dialogs: ".mp4, .png".
inline constexpr std::string_view kMovieExtensions = ".mp4, .png";

// The format a movie written to path gets. Throws IoError for any other extension.
MovieFormat movieFormatFor(const std::filesystem::path& path);

// The file that frame (from 0) of a PNG sequence written to pattern goes to (see above).
std::filesystem::path numberedFramePath(const std::filesystem::path& pattern, int frame);

} // namespace isoview::video
