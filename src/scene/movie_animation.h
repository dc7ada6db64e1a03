// What a movie shows from frame to frame: the scene it starts from, changed one step per frame.
// A turn of the camera, a sweep of the live isovalue or a sweep of the axial slice plane through
// the volume; nothing else in the scene moves. The app renders each frame's scene off screen
// (app/export/movie_recorder.h) and the video library encodes it (video/movie_writer.h).
//
//   rotate     one full turn about the view's vertical axis through the camera's target; frame i
//              at 360 * i / N degrees, so the movie loops without a repeated frame.
//   iso:A:B    the live surface's isovalue from A to B (real units), both ends included.
//   time       the time points of the scene's series (Scene::series), in order, spread over the
//              frames: frame i shows time point i * T / N (each once when N = T).
//   slices     the slice plane that faces the view (of the three voxel planes, the one most
//              nearly across the line of sight: coronal from the front, axial from above) from
//              the far side of the volume to the near side, drawn in the 3D view with the other
//              two planes where the crosshair places them.
//
// Threads: values and pure functions. Cost: a scene copy per frame.
//
// Example:
//   const MovieAnimation turn = parseMovieAnimation("rotate", 120);
//   for (int i = 0; i < turn.frames; ++i) render(movieFrameScene(scene, turn, i));
#pragma once

#include "scene/scene.h"

#include <string>
#include <string_view>

namespace isoview {

enum class MovieAnimationKind { Rotate, IsovalueSweep, SliceSweep, TimePoints };

struct MovieAnimation {
    MovieAnimationKind kind = MovieAnimationKind::Rotate;
    int frames = 120;     // >= 1
    double isoFrom = 0.0; // IsovalueSweep: the first frame's isovalue, real units
    double isoTo = 0.0;   // and the last's
    bool operator==(const MovieAnimation&) const = default;
};

// The most frames a movie may have (an hour at 30 frames a second).
inline constexpr int kMaxMovieFrames = 108000;

// The animation a command line names: "rotate", "iso:A:B", "slices" or "time", over `frames`
// frames.
// Throws InvalidInputError naming what was wrong (an unknown kind, a bound that is not a finite
// number, frames outside 1 .. kMaxMovieFrames).
MovieAnimation parseMovieAnimation(std::string_view text, int frames);
// The same text back ("iso:-400:300"), for logs and the settings the dialog remembers.
std::string movieAnimationText(const MovieAnimation& animation);

// The voxel axis (0, 1, 2) whose slice planes a slice sweep of `start` moves: the one most
// nearly along its camera's line of sight (2 without a volume).
int sweptSliceAxis(const Scene& start);

// The scene of frame `frame` (0 .. frames - 1) of the movie that starts from `start`. Throws
// InvalidInputError for a frame outside the movie, for a sweep of a scene without a volume, and
// for time points of a scene without a series.
Scene movieFrameScene(const Scene& start, const MovieAnimation& animation, int frame);

} // namespace isoview
