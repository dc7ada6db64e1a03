// The viewer's frame policy, without a window or GL: what the status bar reports about the
// frames (frames per second, triangles, GPU times, isovalue-to-screen latency) and how volume
// rendering trades resolution for time (a 60 ms budget, lower while the user drags), and when an
// isovalue drag shows the live surface at half resolution (slow full frames only). The Qt
// view feeds it events with a monotonic clock's readings; tests feed it numbers.
//
// Latency: an isovalue change waits (pending) until a frame takes it (in flight), and is on
// screen when that frame is swapped. Changes that arrive while one waits merge into it, so the
// latency is measured from the OLDEST change not yet shown to the swap showing the newest.
//
// Thread: one (the GUI thread). Never throws.
//
// Example:
//   FramePolicy policy;
//   policy.isovalueChanged(clock.now());
//   ...  // paint: the frame takes the newest isovalue
//   policy.frameTookIsovalue();
//   const VolumeQuality q = policy.volumeQuality(dragging);
//   ...  // swap
//   policy.frameSwapped(clock.now(), renderedIsovalue);
//   while (policy.gpuResults(count, times)) ...  // poll later, until it says stop
#pragma once

#include <cstdint>
#include <deque>
#include <optional>

namespace isoview {

// GPU time of one frame's passes, from timer queries; nullopt where the driver lacks timer
// queries or the pass did not run.
struct FrameGpuTimes {
    std::optional<double> extractMs; // HistoPyramid build for a new isovalue
    std::optional<double> surfaceMs; // vertex-shader extraction + shading of the surface
    std::optional<double> volumeMs;  // ray casting
};

// What the status bar shows about the latest frame.
struct FrameStats {
    double framesPerSecond = 0.0;           // over the last second of frames (0 when idle)
    std::optional<std::uint64_t> triangles; // of the surface on screen, when the GPU has it
    FrameGpuTimes gpu; // the pyramid time stays shown while frames without a rebuild go by
    std::optional<double> isovalueLatencyMs;
    std::optional<double> renderedIsovalue; // real units
    std::uint64_t framesRendered = 0;       // frames swapped so far
    bool surfacePreview = false; // the live surface on screen is the half-resolution preview
};

// Ray-casting settings for the next frame.
struct VolumeQuality {
    float resolutionScale = 1.0f; // fraction of the viewport's resolution
    float stepVoxels = 0.5f;
};

class FramePolicy {
public:
    using Nanoseconds = std::int64_t; // a monotonic clock's reading

    // The ray caster's time budget per frame, the lowest resolution it may drop to for it,
    // and the resolution it never exceeds while the user drags.
    static constexpr double kVolumeBudgetMs = 60.0;
    static constexpr float kMinVolumeScale = 0.2f;
    static constexpr float kInteractiveVolumeScale = 0.5f;
    // Polls for one frame's count and GPU times: at most this many (about 3 s at 15 ms).
    static constexpr int kMaxPollsPerFrame = 200;
    // The live surface is drawn at half resolution (gpu::FrameParams::previewLiveSurface) while
    // its isovalue is dragged, once a full frame with a new isovalue took longer than this:
    // frames of a 2.4 M-triangle CT take 400 ms on a software rasteriser, a quarter of that at
    // half resolution, and a drag needs the surface under it to follow.
    static constexpr double kPreviewAboveMs = 150.0;
    // Isovalue changes closer together than this are a drag; the full surface follows once
    // they stop for this long.
    static constexpr Nanoseconds kDragGapNs = 250'000'000;

    // A new isovalue waits for a frame.
    void isovalueChanged(Nanoseconds now);
    // The frame being rendered carries the newest isovalue.
    void frameTookIsovalue();
    // A frame the view rendered reached the screen; preview: its live surface is the
    // half-resolution preview.
    void frameSwapped(Nanoseconds now, std::optional<double> renderedIsovalue,
                      bool preview = false);
    // The time a full-resolution frame that extracted a new live isovalue took to render
    // (the render thread's: extraction, draw, read-back).
    void fullSurfaceFrameTook(double ms);
    // The user's setting (View > Coarse Surface While Dragging): no preview when off.
    void setSurfacePreviewAllowed(bool allowed) { m_previewAllowed = allowed; }
    // Whether the frame asked for now should draw the live surface's preview: allowed, full
    // frames slow, and the last two isovalue changes (the last one under kDragGapNs ago) a drag.
    bool previewSurface(Nanoseconds now) const;
    // Results read back (without waiting) after a swap: the vertex count, nullopt while the GPU
    // is still building, and the timer results. Adapts the volume resolution to a new ray-casting
    // time. Returns true when something is still missing and the poll budget allows another.
    bool gpuResults(std::optional<std::uint32_t> vertexCount, const FrameGpuTimes& times);

    VolumeQuality volumeQuality(bool interacting) const;
    const FrameStats& stats() const { return m_stats; }
    // A new volume: the figures start over (frame times, pending isovalue changes and the
    // volume resolution learnt so far stay).
    void resetStats();

private:
    void adaptVolumeScale(double volumeMs);

    FrameStats m_stats;
    std::deque<Nanoseconds> m_frameTimes;
    std::optional<Nanoseconds> m_oldestPendingChange;
    std::optional<Nanoseconds> m_inFlightChange;
    int m_pollsLeft = 0;
    float m_volumeScale = 0.5f; // adapted to the measured ray-casting time
    // The last two isovalue changes, the last full surface frame's time, the user's setting.
    std::optional<Nanoseconds> m_lastChange;
    std::optional<Nanoseconds> m_changeBefore;
    double m_fullSurfaceFrameMs = 0.0;
    bool m_previewAllowed = true;
};

} // namespace isoview
