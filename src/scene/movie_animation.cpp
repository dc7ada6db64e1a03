#include "scene/movie_animation.h"

#include "core/error.h"

#include <glm/gtc/quaternion.hpp>

#include <charconv>
#include <cmath>
#include <fmt/format.h>
#include <numbers>

namespace isoview {

namespace {

double parseBound(std::string_view text, std::string_view whole)
{
    double value = 0.0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || error != std::errc() || end != text.data() + text.size() ||
        !std::isfinite(value))
        throw InvalidInputError(fmt::format(
            "the animation '{}' needs two finite isovalues, as in iso:-400:300; '{}' is not one",
            whole, text));
    return value;
}

// The fraction of the way from the first frame (0) to the last (1).
double sweepFraction(int frame, int frames)
{
    return frames > 1 ? double(frame) / double(frames - 1) : 0.0;
}

} // namespace

int sweptSliceAxis(const Scene& start)
{
    if (!start.volume) return 2;
    const glm::dvec3 lineOfSight =
        glm::conjugate(glm::dquat(start.camera.orientation())) * glm::dvec3(0.0, 0.0, -1.0);
    int best = 2;
    double bestAlignment = -1.0;
    for (int axis = 2; axis >= 0; --axis) { // ties go to the axial plane
        const double alignment = std::abs(
            glm::dot(lineOfSight, glm::normalize(start.volume->geometry().direction[axis])));
        if (alignment > bestAlignment + 1e-9) {
            best = axis;
            bestAlignment = alignment;
        }
    }
    return best;
}

MovieAnimation parseMovieAnimation(std::string_view text, int frames)
{
    if (frames < 1 || frames > kMaxMovieFrames)
        throw InvalidInputError(
            fmt::format("a movie has 1 to {} frames, not {}", kMaxMovieFrames, frames));
    MovieAnimation animation;
    animation.frames = frames;
    if (text == "rotate") {
        animation.kind = MovieAnimationKind::Rotate;
    } else if (text == "slices") {
        animation.kind = MovieAnimationKind::SliceSweep;
    } else if (text == "time") {
        animation.kind = MovieAnimationKind::TimePoints;
    } else if (text.starts_with("iso:")) {
        const std::string_view bounds = text.substr(4);
        const std::size_t colon = bounds.find(':', 1); // a leading '-' is the first bound's sign
        if (colon == std::string_view::npos)
            throw InvalidInputError(
                fmt::format("the animation '{}' needs two isovalues, as in iso:-400:300", text));
        animation.kind = MovieAnimationKind::IsovalueSweep;
        animation.isoFrom = parseBound(bounds.substr(0, colon), text);
        animation.isoTo = parseBound(bounds.substr(colon + 1), text);
    } else {
        throw InvalidInputError(fmt::format(
            "unknown animation '{}': rotate, iso:A:B (an isovalue sweep), slices or time", text));
    }
    return animation;
}

std::string movieAnimationText(const MovieAnimation& animation)
{
    switch (animation.kind) {
    case MovieAnimationKind::Rotate: return "rotate";
    case MovieAnimationKind::SliceSweep: return "slices";
    case MovieAnimationKind::TimePoints: return "time";
    case MovieAnimationKind::IsovalueSweep:
        return fmt::format("iso:{}:{}", animation.isoFrom, animation.isoTo);
    }
    return "rotate";
}

Scene movieFrameScene(const Scene& start, const MovieAnimation& animation, int frame)
{
    if (frame < 0 || frame >= animation.frames)
        throw InvalidInputError(
            fmt::format("frame {} is outside a movie of {} frames", frame, animation.frames));
    Scene scene = start;
    switch (animation.kind) {
    case MovieAnimationKind::Rotate: {
        if (frame == 0) break; // the view as it was, to the bit
        // A turn in view space about its vertical axis, applied after physical -> view, as a
        // horizontal drag turns the scene (OrbitCamera::rotateByDrag).
        const double angle = 2.0 * std::numbers::pi * double(frame) / double(animation.frames);
        const glm::dquat turn = glm::angleAxis(angle, glm::dvec3(0.0, 1.0, 0.0));
        scene.camera.setOrientation(glm::quat(turn * glm::dquat(start.camera.orientation())));
        break;
    }
    case MovieAnimationKind::IsovalueSweep: {
        const double t = sweepFraction(frame, animation.frames);
        // The last frame is exactly B, not A + (B - A) rounded.
        scene.setLiveIsovalue(frame == animation.frames - 1 && animation.frames > 1
                                  ? animation.isoTo
                                  : animation.isoFrom + (animation.isoTo - animation.isoFrom) * t);
        break;
    }
    case MovieAnimationKind::TimePoints: {
        if (!start.series)
            throw InvalidInputError("the volume has one time point: a movie of time needs a "
                                    "series of volumes on one grid (a 4-D file, a series of "
                                    "time points)");
        const std::uint64_t t =
            std::uint64_t(frame) * start.series->size() / std::uint64_t(animation.frames);
        scene.showTimePoint(std::size_t(t));
        break;
    }
    case MovieAnimationKind::SliceSweep: {
        if (!start.volume) throw InvalidInputError("a slice sweep needs a volume");
        const int axis = sweptSliceAxis(start);
        // From the far side to the near side: the plane comes towards the viewer.
        const glm::dvec3 lineOfSight =
            glm::conjugate(glm::dquat(start.camera.orientation())) * glm::dvec3(0.0, 0.0, -1.0);
        const glm::dvec3 axisDirection = start.volume->geometry().direction[axis];
        const bool fromLast = glm::dot(lineOfSight, axisDirection) > 0.0; // far side: last slice
        const double last = double(start.volume->dims()[axis] - 1);
        const double t = sweepFraction(frame, animation.frames);
        scene.slices.crosshair[axis] = std::round((fromLast ? 1.0 - t : t) * last);
        scene.slices.planesIn3D = true;
        // The planes are drawn in 3D only while slice views are: the movie shows them whatever
        // the window's arrangement.
        if (scene.slices.arrangement == ViewArrangement::ThreeDOnly)
            scene.slices.arrangement = ViewArrangement::Grid2x2;
        break;
    }
    }
    return scene;
}

} // namespace isoview
