// The time bar under the views, shown while the volume is one of a series on one grid (time
// points, echoes): play/pause (K), a step back and on (comma, period), a slider over the time
// points, what the reader called the one shown ("volume 2 of 10 (t = 3 s)"), the rate asked for
// and the rate reached, and whether play loops. Rate and loop are remembered (QSettings
// "playback/..."). It edits the scene only through SceneModel::setTimePoint (Playback).
//
// Thread: GUI only.
#pragma once

#include <QList>
#include <QToolBar>

class QAction;
class QDoubleSpinBox;
class QLabel;
class QSlider;

namespace isoview::app {

class Playback;
class SceneModel;
class ViewportWidget;

class TimeBar : public QToolBar {
    Q_OBJECT
public:
    TimeBar(SceneModel* scene, ViewportWidget* view, QWidget* parent = nullptr);

    Playback* playback() const { return m_playback; }
    // Play/pause, step back, step on, loop: for the window's menu.
    QList<QAction*> menuActions() const;

private:
    void onSceneChanged();
    void showTimePoint();

    SceneModel* m_scene;
    Playback* m_playback;
    QAction* m_play;
    QAction* m_back;
    QAction* m_forward;
    QAction* m_loop;
    QSlider* m_slider;
    QLabel* m_label;
    QDoubleSpinBox* m_rate;
    QLabel* m_reached;
};

} // namespace isoview::app
