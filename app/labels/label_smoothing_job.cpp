#include "labels/label_smoothing_job.h"

#include "core/log.h"
#include "extraction/smoothed_label_surfaces.h"

namespace isoview::app {

LabelSmoothingJob::LabelSmoothingJob(SceneModel* scene, QObject* parent)
    : QObject(parent), m_scene(scene)
{
    connect(m_scene, &SceneModel::changed, this, [this](SceneChanges what) {
        if (what & (SceneChange::Labels | SceneChange::Crop | SceneChange::Volume)) startIfNeeded();
    });
    connect(&m_task, &BackgroundTask::progressChanged, this,
            [this](const QString&, qint64 done, qint64 total) {
                emit progressChanged(total > 0 ? int(done * 1000 / total) : 0);
            });
    connect(&m_task, &BackgroundTask::succeeded, this, [this] {
        m_scene->setSmoothedLabels(std::move(m_result)); // dropped when no longer wanted
        onFinished();
    });
    connect(&m_task, &BackgroundTask::cancelled, this, &LabelSmoothingJob::onFinished);
    connect(&m_task, &BackgroundTask::failed, this, [this](const QString& message) {
        log::get("app")->error("label smoothing failed: {}", message.toStdString());
        emit failed(message);
        onFinished();
    });
}

void LabelSmoothingJob::startIfNeeded()
{
    const Scene& scene = m_scene->scene();
    if (!scene.labels || scene.labels->smoothingSigmaMm <= 0.0 ||
        scene.labels->smoothingIsCurrent(scene.cropBox())) {
        if (m_task.isRunning()) m_task.cancel(); // nothing wanted any more
        return;
    }
    if (m_task.isRunning()) {
        m_task.cancel(); // onFinished starts the one wanted now
        return;
    }
    auto result = std::make_shared<SmoothedLabelSurfaces>();
    result->labelMap = scene.labels->labelMap;
    result->sigmaMm = scene.labels->smoothingSigmaMm;
    result->crop = scene.cropBox();
    const std::shared_ptr<const LabelStatistics> statistics = scene.labels->statistics;
    m_result = result;
    m_task.start([result, statistics](TaskContext& context) {
        result->surfaces = extractSmoothedLabelSurfacesCpu(
            *result->labelMap, *statistics, result->sigmaMm, {}, result->crop,
            [&context](double fraction) {
                context.progress("smoothing labels", std::uint64_t(fraction * 1000.0), 1000);
                return !context.cancelRequested();
            });
    });
    emit runningChanged(true);
}

void LabelSmoothingJob::onFinished()
{
    m_result.reset();
    emit runningChanged(false);
    startIfNeeded(); // whatever was asked for while it ran
}

} // namespace isoview::app
