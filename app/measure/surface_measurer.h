// Keeps the figures of the surface on screen current: area, enclosed volume and pieces
// (mesh_processing/surface_measurements.h), and the picker the distance tool hits the surface
// with (mesh_processing/surface_picking.h). When a frame shows a different surface (another
// volume or isovalue, or surfaceChanged() for a new crop) it waits for the view to settle, asks
// the render thread for the welded mesh (ViewportWidget::captureSurfaceLater: a read-back after
// the frame in flight, which for volume rendering of a large CT on a software renderer takes
// seconds; the GUI thread does not wait for it), and when the mesh comes back measures it and
// builds the picker in the background (BackgroundTask), so the window never freezes. A change
// while the capture is on its way drops its mesh; a change during a measurement cancels it; both
// start over. Meanwhile the figures on hand are invalidated (the panel says "measuring…").
//
// Only while enabled (someone shows the figures or picks): a hidden panel costs nothing.
//
// Thread: GUI thread only; signals are emitted there.
#pragma once

#include "common/background_task.h"
#include "mesh_processing/surface_measurements.h"
#include "mesh_processing/surface_picking.h"
#include "volume/volume.h"

#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QTimer>
#include <cstdint>
#include <memory>
#include <optional>

namespace isoview::app {

class ViewportWidget;
struct SurfaceCapture;

struct MeasuredSurface {
    SurfaceMeasurements figures;
    std::shared_ptr<const SurfacePicker> picker; // physical millimetres; never null
    double isovalue = 0.0;                       // real units
};

class SurfaceMeasurer : public QObject {
    Q_OBJECT
public:
    explicit SurfaceMeasurer(ViewportWidget* view, QObject* parent = nullptr);
    ~SurfaceMeasurer() override;

    void setEnabled(bool enabled);
    bool isEnabled() const { return m_enabled; }
    // The surface changed in a way frames do not tell (the crop): measure it again.
    void surfaceChanged();
    // The view has just taken a new volume (before its first frame): everything measured is of
    // the old one (invalidated(true) now, not when the frame comes, after what a session set).
    void volumeChanged();

    bool isMeasuring() const { return m_task.isRunning() || m_settle.isActive() || m_capturing; }
    // The last surface measured (null before the first, or once it is out of date).
    std::shared_ptr<const MeasuredSurface> current() const { return m_current; }

signals:
    // The figures on hand are out of date; volumeChanged: a different volume altogether.
    void invalidated(bool volumeChanged);
    void progressChanged(double fraction);
    void measured(std::shared_ptr<const isoview::app::MeasuredSurface> surface);
    // The view shows no surface (Volume mode, or nothing at this isovalue).
    void noSurface();
    void failed(const QString& message);

private:
    void onFrameShown();
    void markChanged(bool volumeChanged);
    void measureNow();
    // The render thread's capture asked for by measureNow (as change `serial`, of `volume`).
    void onCaptured(std::uint64_t serial, const std::shared_ptr<const Volume>& volume,
                    const std::shared_ptr<const SurfaceCapture>& capture);

    ViewportWidget* m_view;
    BackgroundTask m_task;
    QTimer m_settle; // waits until the view has shown the same surface for a moment
    bool m_enabled = false;
    bool m_dirty = true;
    bool m_restart = false; // a change arrived during a measurement
    // Counts the changes: a capture asked for before the latest one is out of date.
    std::uint64_t m_serial = 0;
    bool m_capturing = false; // a capture is on its way from the render thread
    // What the figures on hand (or in the making) describe.
    const Volume* m_volume = nullptr;
    std::optional<double> m_isovalue;
    std::shared_ptr<const MeasuredSurface> m_current;
    std::shared_ptr<const MeasuredSurface> m_inFlight; // what the running task fills
    QElapsedTimer m_clock;  // the capture's and the measurement's times, for the log
    qint64 m_captureMs = 0; // from the request to the mesh's arrival; the GUI thread went on
};

} // namespace isoview::app
