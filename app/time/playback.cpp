#include "time/playback.h"

#include "scene_model.h"
#include "views/viewport_widget.h"

#include <algorithm>
#include <cmath>

namespace isoview::app {

namespace {
constexpr qint64 kRateWindowMs = 2000;
}

Playback::Playback(SceneModel* scene, ViewportWidget* view, QObject* parent)
    : QObject(parent), m_scene(scene), m_view(view)
{
    m_timer.setTimerType(Qt::PreciseTimer);
    connect(&m_timer, &QTimer::timeout, this, &Playback::onTick);
    // A new volume (or none) ends the play.
    connect(m_scene, &SceneModel::changed, this, [this](SceneChanges what) {
        if ((what & SceneChange::Volume) && !m_scene->scene().series) setPlaying(false);
    });
    m_clock.start();
}

void Playback::setPlaying(bool playing)
{
    const Scene& scene = m_scene->scene();
    if (playing && !scene.series) playing = false;
    if (playing == isPlaying()) return;
    if (playing) {
        if (!m_loop && scene.timePoint + 1 >= scene.timePointCount()) m_scene->setTimePoint(0);
        m_steps.clear();
        m_timer.start(std::max(1, int(std::lround(1000.0 / m_rate))));
    } else {
        m_timer.stop();
    }
    emit playingChanged(playing);
}

void Playback::setRate(double timePointsPerSecond)
{
    m_rate = std::clamp(timePointsPerSecond, 0.1, 120.0);
    if (isPlaying()) m_timer.setInterval(std::max(1, int(std::lround(1000.0 / m_rate))));
}

void Playback::step(int direction)
{
    const Scene& scene = m_scene->scene();
    if (!scene.series) return;
    const auto n = std::int64_t(scene.timePointCount());
    std::int64_t next = std::int64_t(scene.timePoint) + (direction < 0 ? -1 : 1);
    if (next < 0 || next >= n) {
        if (!m_loop) return;
        next = (next + n) % n;
    }
    m_scene->setTimePoint(std::size_t(next));
}

void Playback::onTick()
{
    const Scene& scene = m_scene->scene();
    if (!scene.series) {
        setPlaying(false);
        return;
    }
    // The time point on screen first: a tick while it is still on its way waits for the next.
    if (!m_view->showsSceneVolume()) return;
    if (!m_loop && scene.timePoint + 1 >= scene.timePointCount()) {
        setPlaying(false);
        return;
    }
    step(+1);
    const qint64 now = m_clock.elapsed();
    m_steps.push_back(now);
    while (!m_steps.empty() && now - m_steps.front() > kRateWindowMs)
        m_steps.pop_front();
    if (m_steps.size() >= 2) {
        const double seconds = double(m_steps.back() - m_steps.front()) / 1000.0;
        if (seconds > 0.0) emit rateMeasured(double(m_steps.size() - 1) / seconds);
    }
}

} // namespace isoview::app
