// The 3D view: a QOpenGLWidget that drives the engine's SceneRenderer with an OrbitCamera.
// Left drag orbits (trackball), middle drag or Shift+left drag pans, the wheel zooms.
//
// Live isovalue: setIsovalue() only records the newest value and asks for a repaint; Qt merges
// repaint requests, and the renderer extracts once per frame for the newest value, so a slider
// drag is never queued behind itself: every frame shows the latest value.
//
// GL: the renderer lives and dies with the widget's context (created in initializeGL, released
// on QOpenGLContext::aboutToBeDestroyed with the context current). Calls that touch the GPU
// make the context current themselves.
#pragma once

#include "extraction/iso_mesh.h"
#include "gpu/scene_renderer.h"
#include "render/frame_policy.h"
#include "render/orbit_camera.h"
#include "render/transfer_function.h"
#include "volume/volume.h"

#include <QElapsedTimer>
#include <QImage>
#include <QOpenGLWidget>
#include <QString>
#include <QTimer>
#include <memory>
#include <optional>

namespace isoview::app {

class OrientationLabels;

class ViewportWidget : public QOpenGLWidget {
    Q_OBJECT
public:
    explicit ViewportWidget(QWidget* parent = nullptr);
    ~ViewportWidget() override;

    // Shows a new volume. Uploads at once when the GL context exists (returns the error
    // message when the GPU cannot take it; the previous volume stays then), else at
    // initializeGL (errors then come through glError()).
    std::optional<QString> setVolume(std::shared_ptr<const Volume> volume);
    bool hasVolume() const { return m_volume != nullptr; }
    const Volume* volume() const { return m_volume.get(); }

    void setIsovalue(double real);
    double isovalue() const { return m_isovalueReal; }
    void setTransferFunction(const TransferFunction& tf);
    void setRenderMode(gl::RenderMode mode);
    gl::RenderMode renderMode() const { return m_mode; }
    void setSurfaceColor(const QColor& color);
    QColor surfaceColor() const;
    void setOrientationMarkerVisible(bool visible);

    OrbitCamera& camera() { return m_camera; }
    void setProjection(Projection projection);
    void setStandardView(StandardView view);
    void resetView();
    void fitView();
    // True when the volume lives in patient space (DICOM): views and the marker use anatomical
    // names.
    bool anatomical() const;

    // The surface on screen as a welded mesh (GPU capture); empty when nothing is shown.
    // Throws GlError if the GPU fails.
    IsoMesh captureMesh();
    // The isovalue (real units) of the surface on screen.
    std::optional<double> renderedIsovalue() const;
    // The figures of the last swapped frame.
    const FrameStats& lastFrameStats() const { return m_framePolicy.stats(); }
    // The GL renderer string, once the context exists.
    QString rendererName() const { return m_rendererName; }
    // Renders a frame now and returns it (the window's view, overlays included).
    QImage grabView();

signals:
    void frameStatsChanged(const isoview::FrameStats& stats);
    void glError(const QString& message);
    // The user asked for the context menu actions through the keyboard/mouse; the main window
    // owns the actions.
    void glReady(const QString& renderer);

protected:
    void initializeGL() override;
    void paintGL() override;
    void resizeGL(int w, int h) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;

private:
    void releaseGl();
    bool uploadVolume(QString* error);
    glm::vec2 toNdc(const QPointF& p) const;
    float aspect() const;
    void paintOrientationLabels(const gl::SceneParams& params);
    void onFrameSwapped();
    void pollTriangleCount();

    std::unique_ptr<gl::SceneRenderer> m_renderer;
    OrientationLabels* m_labels = nullptr;
    std::shared_ptr<const Volume> m_volume;
    bool m_volumeUploaded = false;
    std::optional<TransferFunction> m_transferFunction;
    bool m_transferFunctionDirty = false;
    OrbitCamera m_camera;
    gl::RenderMode m_mode = gl::RenderMode::Surface;
    glm::vec3 m_surfaceColor{0.9f, 0.85f, 0.75f};
    bool m_showMarker = true;
    QString m_rendererName;

    double m_isovalueReal = 0.0;
    bool m_isovalueDirty = false;
    // Statistics, isovalue latency and the adaptive volume resolution (src/render), fed with
    // this monotonic clock.
    FramePolicy m_framePolicy;
    QElapsedTimer m_clock;
    QTimer m_pollTimer;
    bool m_renderedSinceSwap = false;

    enum class Drag { None, Rotate, Pan };
    Drag m_drag = Drag::None;
    QPointF m_lastMouse;
    bool m_interacting = false;
};

} // namespace isoview::app
