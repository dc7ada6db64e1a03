#include "measure/surface_measurer.h"

#include "core/error.h"
#include "core/log.h"
#include "mesh_processing/physical_mesh.h"
#include "views/frame_worker.h"
#include "views/viewport_widget.h"

#include <utility>

namespace isoview::app {
namespace {

// Long enough that dragging the isovalue slider does not capture every frame.
constexpr int kSettleMs = 250;
constexpr std::uint64_t kProgressSteps = 1000;

} // namespace

SurfaceMeasurer::SurfaceMeasurer(ViewportWidget* view, QObject* parent)
    : QObject(parent), m_view(view)
{
    m_settle.setSingleShot(true);
    m_settle.setInterval(kSettleMs);
    connect(&m_settle, &QTimer::timeout, this, &SurfaceMeasurer::measureNow);
    connect(m_view, &ViewportWidget::frameShown, this, &SurfaceMeasurer::onFrameShown);
    connect(&m_task, &BackgroundTask::progressChanged, this,
            [this](const QString&, qint64 done, qint64 total) {
                if (total > 0) emit progressChanged(double(done) / double(total));
            });
    // A change during the work (m_restart) makes its outcome stale: drop it, measure again.
    const auto finished = [this] {
        m_inFlight.reset();
        if (m_restart) {
            m_restart = false;
            m_settle.start();
        }
    };
    connect(&m_task, &BackgroundTask::cancelled, this, finished);
    connect(&m_task, &BackgroundTask::failed, this, [this, finished](const QString& message) {
        if (!m_restart) emit failed(message);
        finished();
    });
    connect(&m_task, &BackgroundTask::succeeded, this, [this, finished] {
        if (!m_restart && m_inFlight) {
            m_current = m_inFlight;
            const SurfaceMeasurements& f = m_current->figures;
            log::get("app")->info(
                "surface measured: {} triangles, {:.1f} mm2, {:.3f} mL{}; capture {} ms (GUI "
                "thread), measurement and picker {} ms (background)",
                f.triangles, f.areaMm2, f.volumeMl, f.openAtBorder ? " (closed at the border)" : "",
                m_captureMs, m_clock.elapsed());
            emit measured(m_current);
        }
        finished();
    });
}

SurfaceMeasurer::~SurfaceMeasurer() = default;

void SurfaceMeasurer::setEnabled(bool enabled)
{
    if (enabled == m_enabled) return;
    m_enabled = enabled;
    if (m_enabled && m_dirty) m_settle.start();
    if (!m_enabled) m_settle.stop();
}

void SurfaceMeasurer::surfaceChanged()
{
    markChanged(false);
}

void SurfaceMeasurer::volumeChanged()
{
    m_volume = m_view->volume();
    m_isovalue.reset();
    markChanged(true);
}

void SurfaceMeasurer::onFrameShown()
{
    const std::optional<double> isovalue = m_view->renderedIsovalue();
    const bool volumeChanged = m_view->volume() != m_volume;
    if (!volumeChanged && isovalue == m_isovalue) return;
    m_volume = m_view->volume();
    m_isovalue = isovalue;
    markChanged(volumeChanged);
}

void SurfaceMeasurer::markChanged(bool volumeChanged)
{
    m_dirty = true;
    if (m_current) {
        m_current.reset();
        emit invalidated(volumeChanged);
    } else if (volumeChanged) {
        emit invalidated(true);
    }
    if (m_task.isRunning()) {
        m_restart = true;
        m_task.cancel();
        return;
    }
    if (m_enabled) m_settle.start();
}

void SurfaceMeasurer::measureNow()
{
    if (!m_enabled || !m_dirty) return;
    if (m_task.isRunning()) {
        m_restart = true;
        m_task.cancel();
        return;
    }
    const std::shared_ptr<const Volume> volume = m_view->sharedVolume();
    if (!volume) return;
    CapturedSurface captured;
    try {
        m_clock.start();
        captured = m_view->captureSurface();
        m_captureMs = m_clock.restart();
    } catch (const Error& e) {
        emit failed(QString::fromStdString(e.what()));
        return;
    }
    m_dirty = false;
    if (captured.mesh.triangleCount() == 0) {
        emit noSurface();
        return;
    }
    emit progressChanged(0.0);
    auto surface = std::make_shared<CapturedSurface>(std::move(captured));
    auto result = std::make_shared<MeasuredSurface>();
    result->isovalue = surface->isovalue;
    m_task.start([volume, surface, result](TaskContext& ctx) {
        const auto progress = [&ctx](double fraction) {
            // The figures take about two thirds of the time, the picker's grid the rest.
            ctx.progress("Measuring", std::uint64_t(fraction * 0.66 * kProgressSteps),
                         kProgressSteps);
            return !ctx.cancelRequested();
        };
        result->figures =
            measureSurface(surface->mesh, *volume, surface->isovalue, surface->crop, progress);
        if (ctx.cancelRequested()) throw CancelledError("surface measurement cancelled");
        result->picker = std::make_shared<const SurfacePicker>(
            toPhysicalMesh(surface->mesh, volume->geometry()));
        ctx.progress("Measuring", kProgressSteps, kProgressSteps);
    });
    m_inFlight = result;
}

} // namespace isoview::app
