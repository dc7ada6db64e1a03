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
                "surface measured: {} triangles, {:.1f} mm2, {:.3f} mL{}; capture {} ms (render "
                "thread, the GUI thread not waiting), measurement and picker {} ms (background)",
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
    ++m_serial; // a capture on its way is of what was before
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
    if (m_capturing) return; // its arrival sees the change and starts over
    std::shared_ptr<const Volume> volume = m_view->sharedVolume();
    if (!volume) return;
    m_dirty = false;
    m_capturing = true;
    m_clock.start();
    emit progressChanged(0.0);
    m_view->captureSurfaceLater(this, [this, serial = m_serial, volume = std::move(volume)](
                                          const std::shared_ptr<const SurfaceCapture>& c) {
        onCaptured(serial, volume, c);
    });
}

void SurfaceMeasurer::onCaptured(std::uint64_t serial, const std::shared_ptr<const Volume>& volume,
                                 const std::shared_ptr<const SurfaceCapture>& capture)
{
    m_capturing = false;
    m_captureMs = m_clock.restart();
    // Stale: the surface changed since it was asked for (markChanged set m_dirty), or the render
    // thread held another volume. Measured again once the view settles.
    if (serial != m_serial || (capture->volume && capture->volume != volume)) {
        m_dirty = true;
        if (m_enabled) m_settle.start();
        return;
    }
    if (!capture->error.isEmpty()) {
        m_dirty = true;
        emit failed(capture->error);
        return;
    }
    if (!m_enabled) { // nobody looks any more: measured when someone does
        m_dirty = true;
        return;
    }
    if (capture->surface.mesh.triangleCount() == 0) {
        emit noSurface();
        return;
    }
    // The render thread's mesh itself, shared, not copied on the GUI thread.
    const std::shared_ptr<const CapturedSurface> surface(capture, &capture->surface);
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
