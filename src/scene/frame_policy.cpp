#include "scene/frame_policy.h"

#include <algorithm>
#include <cmath>

namespace isoview {
namespace {

constexpr FramePolicy::Nanoseconds kFpsWindow = 1'000'000'000;

} // namespace

void FramePolicy::isovalueChanged(Nanoseconds now)
{
    if (!m_oldestPendingChange) m_oldestPendingChange = now;
    m_changeBefore = m_lastChange;
    m_lastChange = now;
}

void FramePolicy::fullSurfaceFrameTook(double ms)
{
    m_fullSurfaceFrameMs = ms;
}

bool FramePolicy::previewSurface(Nanoseconds now) const
{
    return m_previewAllowed && m_fullSurfaceFrameMs > kPreviewAboveMs && m_lastChange &&
           m_changeBefore && *m_lastChange - *m_changeBefore < kDragGapNs &&
           now - *m_lastChange < kDragGapNs;
}

void FramePolicy::frameTookIsovalue()
{
    m_inFlightChange = m_oldestPendingChange;
    m_oldestPendingChange.reset();
}

void FramePolicy::frameSwapped(Nanoseconds now, std::optional<double> renderedIsovalue,
                               bool preview)
{
    m_stats.surfacePreview = preview;
    ++m_stats.framesRendered;
    m_frameTimes.push_back(now);
    while (!m_frameTimes.empty() && now - m_frameTimes.front() > kFpsWindow)
        m_frameTimes.pop_front();
    m_stats.framesPerSecond = m_frameTimes.size() >= 2 ? double(m_frameTimes.size() - 1) * 1e9 /
                                                             double(now - m_frameTimes.front())
                                                       : 0.0;
    if (m_inFlightChange) {
        m_stats.isovalueLatencyMs = double(now - *m_inFlightChange) / 1e6;
        m_inFlightChange.reset();
    }
    m_stats.renderedIsovalue = renderedIsovalue;
    m_pollsLeft = kMaxPollsPerFrame;
}

bool FramePolicy::gpuResults(std::optional<std::uint32_t> vertexCount, const FrameGpuTimes& times)
{
    const std::optional<double> extractMs =
        times.extractMs ? times.extractMs : m_stats.gpu.extractMs;
    const bool timesPending = !times.surfaceMs && !times.volumeMs;
    if (times.volumeMs && *times.volumeMs > 0.0 && times.volumeMs != m_stats.gpu.volumeMs)
        adaptVolumeScale(*times.volumeMs);
    m_stats.gpu = times;
    m_stats.gpu.extractMs = extractMs;
    if (vertexCount) {
        m_stats.triangles = *vertexCount / 3;
    } else {
        m_stats.triangles.reset();
    }
    return (!vertexCount || timesPending) && m_pollsLeft-- > 0;
}

VolumeQuality FramePolicy::volumeQuality(bool interacting) const
{
    // A software renderer gets a coarse but responsive image, a real GPU the full one; dragging
    // lowers it further, and the full-resolution frame follows the release.
    VolumeQuality q;
    q.resolutionScale =
        interacting ? std::min(m_volumeScale, kInteractiveVolumeScale) : m_volumeScale;
    q.stepVoxels = m_volumeScale < 0.5f ? 1.0f : 0.5f;
    return q;
}

void FramePolicy::resetStats()
{
    m_stats = {};
}

void FramePolicy::adaptVolumeScale(double volumeMs)
{
    // Pixels, hence time, grow with the square of the scale; move halfway to the scale that
    // would meet the budget, so one odd frame does not make the image jump.
    const float ideal =
        m_volumeScale * float(std::sqrt(kVolumeBudgetMs / std::max(volumeMs, 1e-3)));
    m_volumeScale = std::clamp(0.5f * (m_volumeScale + ideal), kMinVolumeScale, 1.0f);
}

} // namespace isoview
