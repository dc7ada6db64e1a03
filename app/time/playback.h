// Plays a series of volumes on one grid (time points, echoes) in the scene: one step each
// 1/rate seconds, each step only once the 3D view shows the time point before it (its surfaces
// extracted, its volume rendered), so a slow machine plays slower instead of skipping; the rate
// reached is measured and told (rateMeasured). Loops or stops at the end.
//
// Thread: GUI only.
//
// Example:
//   Playback playback(sceneModel, viewport);
//   playback.setRate(10.0);
//   playback.setPlaying(true);
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>
#include <deque>

namespace isoview::app {

class SceneModel;
class ViewportWidget;

class Playback : public QObject {
    Q_OBJECT
public:
    Playback(SceneModel* scene, ViewportWidget* view, QObject* parent = nullptr);

    bool isPlaying() const { return m_timer.isActive(); }
    // Starts or stops; a series is needed to start. At the last time point without loop, play
    // starts again from the first.
    void setPlaying(bool playing);
    // Time points a second asked for, 0.1 .. 120.
    void setRate(double timePointsPerSecond);
    double rate() const { return m_rate; }
    void setLoop(bool loop) { m_loop = loop; }
    bool loops() const { return m_loop; }
    // One time point back (-1) or on (+1), wrapping around when looping.
    void step(int direction);

signals:
    void playingChanged(bool playing);
    // Time points shown a second over the last two seconds of play.
    void rateMeasured(double timePointsPerSecond);

private:
    void onTick();

    SceneModel* m_scene;
    ViewportWidget* m_view;
    QTimer m_timer;
    double m_rate = 10.0;
    bool m_loop = true;
    QElapsedTimer m_clock;
    std::deque<qint64> m_steps; // when each recent step was taken (ms on m_clock)
};

} // namespace isoview::app
