// A movie's frames: the command line's animation names, a turn that loops without a repeated
// frame, an isovalue sweep that ends exactly on its bounds, a slice sweep from the first axial
// slice to the last; nothing else in the scene moves.
#include "core/error.h"
#include "scene/movie_animation.h"
#include "support/synthetic_volumes.h"

#include <glm/gtc/quaternion.hpp>
#include <gtest/gtest.h>

#include <memory>

namespace isoview {
namespace {

Scene sphereScene()
{
    auto volume =
        std::make_shared<const Volume>(test::makeSphere({16, 12, 9}, glm::vec3(7.5f), 5.0f));
    Scene scene = Scene::withSurface(volume, 0.0);
    scene.camera.fitTo(volumeBounds(volume->geometry(), volume->dims()));
    scene.camera.setStandardView(StandardView::Anterior);
    return scene;
}

TEST(MovieAnimationTest, ParsesTheCommandLinesNamesAndRefusesTheRest)
{
    EXPECT_EQ(parseMovieAnimation("rotate", 90).kind, MovieAnimationKind::Rotate);
    EXPECT_EQ(parseMovieAnimation("slices", 1).kind, MovieAnimationKind::SliceSweep);
    const MovieAnimation sweep = parseMovieAnimation("iso:-400.5:300", 12);
    EXPECT_EQ(sweep.kind, MovieAnimationKind::IsovalueSweep);
    EXPECT_EQ(sweep.frames, 12);
    EXPECT_DOUBLE_EQ(sweep.isoFrom, -400.5);
    EXPECT_DOUBLE_EQ(sweep.isoTo, 300.0);
    EXPECT_EQ(parseMovieAnimation(movieAnimationText(sweep), 12), sweep);
    for (const char* bad : {"spin", "iso:1", "iso:a:2", "iso:1:nan", "iso:1:2:3", "iso::2", ""})
        EXPECT_THROW(parseMovieAnimation(bad, 10), InvalidInputError) << bad;
    EXPECT_THROW(parseMovieAnimation("rotate", 0), InvalidInputError);
    EXPECT_THROW(parseMovieAnimation("rotate", kMaxMovieFrames + 1), InvalidInputError);
}

TEST(MovieAnimationTest, ATurnLoopsAboutTheViewsVerticalAxisAndMovesNothingElse)
{
    const Scene start = sphereScene();
    const MovieAnimation turn = parseMovieAnimation("rotate", 8);
    const Scene first = movieFrameScene(start, turn, 0);
    const Scene quarter = movieFrameScene(start, turn, 2);
    const Scene last = movieFrameScene(start, turn, 7);
    EXPECT_EQ(first.camera.pose(), start.camera.pose());
    // A quarter turn: the view's vertical axis stays, its right axis becomes its depth axis.
    const glm::dquat q = glm::dquat(quarter.camera.orientation());
    const glm::dquat s = glm::dquat(start.camera.orientation());
    const glm::dvec3 upBefore = glm::conjugate(s) * glm::dvec3(0, 1, 0);
    const glm::dvec3 upAfter = glm::conjugate(q) * glm::dvec3(0, 1, 0);
    EXPECT_NEAR(glm::length(upAfter - upBefore), 0.0, 1e-6);
    const glm::dvec3 rightBefore = glm::conjugate(s) * glm::dvec3(1, 0, 0);
    const glm::dvec3 rightAfter = glm::conjugate(q) * glm::dvec3(1, 0, 0);
    EXPECT_NEAR(glm::dot(rightBefore, rightAfter), 0.0, 1e-6);
    // The last frame is one step short of the first, so the movie loops without repeating it.
    const glm::dvec3 rightLast =
        glm::conjugate(glm::dquat(last.camera.orientation())) * glm::dvec3(1, 0, 0);
    EXPECT_NEAR(glm::dot(rightBefore, rightLast), std::cos(glm::radians(45.0)), 1e-6);
    EXPECT_EQ(quarter.camera.target(), start.camera.target());
    EXPECT_EQ(quarter.camera.distance(), start.camera.distance());
    EXPECT_EQ(quarter.liveIsovalue(), start.liveIsovalue());
    EXPECT_THROW(movieFrameScene(start, turn, 8), InvalidInputError);
}

TEST(MovieAnimationTest, SweepsEndExactlyOnTheirBounds)
{
    const Scene start = sphereScene();
    const MovieAnimation sweep = parseMovieAnimation("iso:-0.3:0.7", 5);
    EXPECT_DOUBLE_EQ(movieFrameScene(start, sweep, 0).liveIsovalue(), -0.3);
    EXPECT_DOUBLE_EQ(movieFrameScene(start, sweep, 2).liveIsovalue(), 0.2);
    EXPECT_EQ(movieFrameScene(start, sweep, 4).liveIsovalue(), 0.7);
    EXPECT_EQ(movieFrameScene(start, sweep, 2).camera.pose(), start.camera.pose());

    // Seen from above (superior), the axial plane faces the view; it comes from the far side
    // (inferior: the first slice, z grows towards superior in LPS) to the near side.
    Scene above = start;
    above.slices.arrangement = ViewArrangement::ThreeDOnly;
    above.camera.setStandardView(StandardView::Superior);
    ASSERT_EQ(sweptSliceAxis(above), 2);
    const MovieAnimation slices = parseMovieAnimation("slices", 3);
    EXPECT_EQ(movieFrameScene(above, slices, 0).sliceIndices().z, 0u);
    EXPECT_EQ(movieFrameScene(above, slices, 1).sliceIndices().z, 4u);
    EXPECT_EQ(movieFrameScene(above, slices, 2).sliceIndices().z, 8u);
    EXPECT_TRUE(movieFrameScene(above, slices, 1).slicePlanesShown());

    // Time: each time point in order, spread over the frames; none without a series.
    const MovieAnimation time = parseMovieAnimation("time", 4);
    EXPECT_THROW(movieFrameScene(start, time, 0), InvalidInputError);
    Scene series = start;
    series.series = std::make_shared<const VolumeSeries>(
        std::vector<std::shared_ptr<const Volume>>{start.volume, start.volume},
        std::vector<std::string>{"t1", "t2"});
    EXPECT_EQ(movieFrameScene(series, time, 1).timePoint, 0u);
    EXPECT_EQ(movieFrameScene(series, time, 2).timePoint, 1u);
    EXPECT_EQ(movieFrameScene(series, time, 3).volume, series.series->volume(1));
    // From the front (anterior, looking towards +y in LPS) the coronal plane comes from the
    // back (the last y slice) to the front.
    ASSERT_EQ(sweptSliceAxis(start), 1);
    EXPECT_EQ(movieFrameScene(start, slices, 0).sliceIndices().y, 11u);
    EXPECT_EQ(movieFrameScene(start, slices, 2).sliceIndices().y, 0u);
}

} // namespace
} // namespace isoview
