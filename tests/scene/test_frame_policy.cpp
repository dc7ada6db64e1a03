// The viewer's frame policy without a window: latency from the oldest waiting isovalue change,
// frames per second over the last second, the pyramid time kept across frames without a
// rebuild, polls bounded per frame, the volume resolution steered by the ray-casting time, and
// the half-resolution surface of a drag when full frames are slow.
#include "scene/frame_policy.h"

#include <gtest/gtest.h>

namespace isoview {
namespace {

constexpr FramePolicy::Nanoseconds kMs = 1'000'000;

FrameGpuTimes times(std::optional<double> extractMs, std::optional<double> surfaceMs,
                    std::optional<double> volumeMs)
{
    FrameGpuTimes t;
    t.extractMs = extractMs;
    t.surfaceMs = surfaceMs;
    t.volumeMs = volumeMs;
    return t;
}

TEST(FramePolicy, LatencyRunsFromTheOldestWaitingChangeToTheSwapThatShowsIt)
{
    FramePolicy policy;
    policy.isovalueChanged(10 * kMs);
    policy.isovalueChanged(25 * kMs); // merges into the waiting change
    policy.frameTookIsovalue();
    policy.frameSwapped(70 * kMs, 42.0);
    ASSERT_TRUE(policy.stats().isovalueLatencyMs);
    EXPECT_DOUBLE_EQ(*policy.stats().isovalueLatencyMs, 60.0);
    EXPECT_EQ(policy.stats().renderedIsovalue, 42.0);
    EXPECT_EQ(policy.stats().framesRendered, 1u);

    // A frame without a new isovalue keeps the last latency figure.
    policy.frameSwapped(90 * kMs, 42.0);
    EXPECT_DOUBLE_EQ(*policy.stats().isovalueLatencyMs, 60.0);

    // A change arriving while a frame is in flight waits for the next frame.
    policy.isovalueChanged(100 * kMs);
    policy.frameTookIsovalue();
    policy.isovalueChanged(110 * kMs);
    policy.frameSwapped(150 * kMs, 43.0);
    EXPECT_DOUBLE_EQ(*policy.stats().isovalueLatencyMs, 50.0);
    policy.frameTookIsovalue();
    policy.frameSwapped(200 * kMs, 44.0);
    EXPECT_DOUBLE_EQ(*policy.stats().isovalueLatencyMs, 90.0);
}

TEST(FramePolicy, FramesPerSecondOverTheLastSecond)
{
    FramePolicy policy;
    policy.frameSwapped(0, std::nullopt);
    EXPECT_EQ(policy.stats().framesPerSecond, 0.0) << "one frame has no rate";
    for (int i = 1; i <= 20; ++i)
        policy.frameSwapped(i * 50 * kMs, std::nullopt);
    EXPECT_NEAR(policy.stats().framesPerSecond, 20.0, 1e-9);
    // After a pause of more than a second only the new frames count.
    policy.frameSwapped(5000 * kMs, std::nullopt);
    policy.frameSwapped(5100 * kMs, std::nullopt);
    EXPECT_NEAR(policy.stats().framesPerSecond, 10.0, 1e-9);
}

TEST(FramePolicy, ResultsArriveOverSeveralPollsAndThePyramidTimeStays)
{
    FramePolicy policy;
    policy.frameSwapped(0, 1.0);
    EXPECT_TRUE(policy.gpuResults(std::nullopt, {})) << "nothing yet: poll again";
    EXPECT_FALSE(policy.stats().triangles);
    EXPECT_FALSE(policy.gpuResults(300, times(4.0, 2.0, std::nullopt)));
    EXPECT_EQ(policy.stats().triangles, 100u);
    EXPECT_EQ(policy.stats().gpu.extractMs, 4.0);

    // A camera move: no rebuild, the pyramid's time stays shown.
    policy.frameSwapped(10 * kMs, 1.0);
    EXPECT_FALSE(policy.gpuResults(300, times(std::nullopt, 2.5, std::nullopt)));
    EXPECT_EQ(policy.stats().gpu.extractMs, 4.0);
    EXPECT_EQ(policy.stats().gpu.surfaceMs, 2.5);
}

TEST(FramePolicy, PollsPerFrameAreBounded)
{
    FramePolicy policy;
    policy.frameSwapped(0, std::nullopt);
    int polls = 0;
    while (policy.gpuResults(std::nullopt, {}) && polls < 10'000)
        ++polls;
    EXPECT_EQ(polls, FramePolicy::kMaxPollsPerFrame);
    policy.frameSwapped(kMs, std::nullopt);
    EXPECT_TRUE(policy.gpuResults(std::nullopt, {})) << "a new frame gets a new budget";
}

TEST(FramePolicy, VolumeResolutionFollowsTheRayCastingBudget)
{
    FramePolicy policy;
    const float start = policy.volumeQuality(false).resolutionScale;
    // Slow ray casting (four times the budget) lowers the resolution, never below the floor.
    for (int i = 0; i < 50; ++i) {
        policy.frameSwapped(i * kMs, std::nullopt);
        policy.gpuResults(
            3, times(std::nullopt, std::nullopt, 4.0 * FramePolicy::kVolumeBudgetMs + i * 1e-3));
    }
    const VolumeQuality slow = policy.volumeQuality(false);
    EXPECT_LT(slow.resolutionScale, start);
    EXPECT_GE(slow.resolutionScale, FramePolicy::kMinVolumeScale);
    EXPECT_EQ(slow.stepVoxels, 1.0f) << "coarse images take coarse steps";
    // A fast GPU climbs to full resolution and fine steps; a drag caps it.
    for (int i = 0; i < 50; ++i) {
        policy.frameSwapped((100 + i) * kMs, std::nullopt);
        policy.gpuResults(3, times(std::nullopt, std::nullopt, 1.0 + i * 1e-3));
    }
    EXPECT_FLOAT_EQ(policy.volumeQuality(false).resolutionScale, 1.0f);
    EXPECT_EQ(policy.volumeQuality(false).stepVoxels, 0.5f);
    EXPECT_FLOAT_EQ(policy.volumeQuality(true).resolutionScale,
                    FramePolicy::kInteractiveVolumeScale);
}

TEST(FramePolicy, TheSameRayCastingTimeTwiceAdaptsOnce)
{
    FramePolicy a;
    FramePolicy b;
    a.gpuResults(3, times(std::nullopt, std::nullopt, 240.0));
    b.gpuResults(3, times(std::nullopt, std::nullopt, 240.0));
    b.gpuResults(3,
                 times(std::nullopt, std::nullopt, 240.0)); // the same frame's result polled again
    EXPECT_FLOAT_EQ(a.volumeQuality(false).resolutionScale, b.volumeQuality(false).resolutionScale);
}

TEST(FramePolicy, SurfacePreviewOnlyDuringADragWhenFullFramesAreSlow)
{
    FramePolicy policy;
    const auto drag = [&](FramePolicy::Nanoseconds from) {
        policy.isovalueChanged(from);
        policy.isovalueChanged(from + 30 * kMs);
    };
    drag(0);
    EXPECT_FALSE(policy.previewSurface(40 * kMs)) << "no full frame measured yet";
    policy.fullSurfaceFrameTook(FramePolicy::kPreviewAboveMs - 1.0);
    EXPECT_FALSE(policy.previewSurface(40 * kMs)) << "full frames fast enough";
    policy.fullSurfaceFrameTook(400.0);
    EXPECT_TRUE(policy.previewSurface(40 * kMs));
    // The drag stops: the full surface once the changes pause for the gap.
    EXPECT_FALSE(policy.previewSurface(30 * kMs + FramePolicy::kDragGapNs));
    // A lone change (a click on the histogram) is no drag.
    policy.isovalueChanged(2000 * kMs);
    EXPECT_FALSE(policy.previewSurface(2010 * kMs));
    policy.setSurfacePreviewAllowed(false);
    drag(3000 * kMs);
    EXPECT_FALSE(policy.previewSurface(3040 * kMs)) << "the user turned it off";
    policy.setSurfacePreviewAllowed(true);
    EXPECT_TRUE(policy.previewSurface(3040 * kMs));
    policy.frameSwapped(3100 * kMs, 42.0, true);
    EXPECT_TRUE(policy.stats().surfacePreview);
    policy.frameSwapped(3500 * kMs, 42.0);
    EXPECT_FALSE(policy.stats().surfacePreview);
}

} // namespace
} // namespace isoview
