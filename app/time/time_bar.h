// The time bar under the views, shown while the volume is one of a series on one grid (time
// points, echoes): play/pause (K), a step back and on (comma, period), a slider over the time
// points, what the reader called the one shown ("volume 2 of 10 (t = 3 s)"), the rate asked for
// and the rate reached, whether play loops, and whether the histograms show the time point
// shown or all of them (histogramToShow). Rate, loop and histogram choice are remembered
// (QSettings "playback/..."). It edits the scene only through SceneModel::setTimePoint
// (Playback).
//
// Thread: GUI only.
#pragma once

#include "volume/histogram.h"

#include <QList>
#include <QToolBar>
#include <functional>

class QAction;
class QDoubleSpinBox;
class QLabel;
class QSlider;

namespace isoview::app {

class Playback;
class SceneModel;
class ViewportWidget;
struct VolumeDocument;

class TimeBar : public QToolBar {
    Q_OBJECT
public:
    // document: the open volume's (its time points' histograms); null for none.
    TimeBar(SceneModel* scene, ViewportWidget* view,
            std::function<const VolumeDocument*()> document, QWidget* parent = nullptr);

    Playback* playback() const { return m_playback; }
    // Play/pause, step back, step on, loop, the histogram of all time points: for the menu.
    QList<QAction*> menuActions() const;

signals:
    // The histogram the isovalue panel and the transfer-function editor should show now: the
    // time point's, or all time points' (same bins, so their ranges stay).
    void histogramToShow(const isoview::Histogram& histogram);

private:
    void onSceneChanged();
    void showTimePoint();
    void showHistogram();

    SceneModel* m_scene;
    Playback* m_playback;
    QAction* m_play;
    QAction* m_back;
    QAction* m_forward;
    QAction* m_loop;
    QAction* m_histogramOfAll;
    std::function<const VolumeDocument*()> m_document;
    QSlider* m_slider;
    QLabel* m_label;
    QDoubleSpinBox* m_rate;
    QLabel* m_reached;
};

} // namespace isoview::app
