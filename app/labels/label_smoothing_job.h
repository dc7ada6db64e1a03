// Makes the label map's smoothed surfaces (extraction/smoothed_label_surfaces.h) whenever the
// scene's layer asks for ones it does not have (a new sigma, crop or label map), on a
// background task, and gives them to the scene model, which the renderer then draws. A request
// that changes while a run is going cancels it and starts anew once it has stopped; a result
// that is no longer wanted is dropped by the model. Until the new surfaces arrive the previous
// ones (or the plain ones) stay on screen, so the window never waits for the smoothing.
//
// Thread: GUI only. The model outlives the job.
#pragma once

#include "common/background_task.h"
#include "scene_model.h"

#include <QObject>
#include <QString>
#include <memory>

namespace isoview::app {

class LabelSmoothingJob : public QObject {
    Q_OBJECT
public:
    explicit LabelSmoothingJob(SceneModel* scene, QObject* parent = nullptr);

    bool isRunning() const { return m_task.isRunning(); }

signals:
    void runningChanged(bool running);
    void progressChanged(int permille); // of the labels, while running
    void failed(const QString& message);

private:
    void startIfNeeded();
    void onFinished();

    SceneModel* m_scene;
    BackgroundTask m_task;
    std::shared_ptr<SmoothedLabelSurfaces> m_result; // the run's, read when it succeeded
};

} // namespace isoview::app
