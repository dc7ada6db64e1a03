// The 3D view: drives the engine's SceneRenderer with an OrbitCamera. Left drag orbits
// (trackball), middle drag or Shift+left drag pans, the wheel zooms.
//
// Never blocks: frames are rendered on a render thread of their own (FrameWorker) and shown
// as images when they are done; the GUI thread only records what changed and posts the next
// frame's request, so the slider and the camera follow the mouse even while a frame takes
// longer than the mouse's pace. Requests made while a frame is in flight merge into one, the
// newest: every frame shows the latest isovalue and camera. Once the view has been still for a
// moment after a reduced-resolution volume frame, a full-resolution frame follows.
//
// GL: the render thread owns its context and every GPU object; the widget itself never touches
// GL. The render thread starts when the widget is first shown.
#pragma once

#include "extraction/iso_mesh.h"
#include "extraction/voxel_box.h"
#include "gpu/scene_renderer.h"
#include "scene/frame_policy.h"
#include "scene/orbit_camera.h"
#include "scene/transfer_function.h"
#include "volume/volume.h"

#include <QElapsedTimer>
#include <QImage>
#include <QString>
#include <QTimer>
#include <QWidget>
#include <memory>
#include <optional>

namespace isoview::app {

class FrameWorker;
struct CapturedSurface;
struct FrameRequest;
struct RenderedFrame;
class OrientationLabels;

class ViewportWidget : public QWidget {
    Q_OBJECT
public:
    explicit ViewportWidget(QWidget* parent = nullptr);
    ~ViewportWidget() override;

    // Shows a new volume. Uploads at once when the render thread runs (returns the error
    // message when the GPU cannot take it; the previous volume stays then), else when the view
    // is first shown (errors then come through glError()).
    std::optional<QString> setVolume(std::shared_ptr<const Volume> volume);
    bool hasVolume() const { return m_volume != nullptr; }
    const Volume* volume() const { return m_volume.get(); }
    // The same, for work that outlives a volume change (background measurements).
    std::shared_ptr<const Volume> sharedVolume() const { return m_volume; }

    void setIsovalue(double real);
    // The cells the surface keeps (voxel indices, inclusive); a new volume starts whole.
    void setCrop(const VoxelBox& box);
    double isovalue() const { return m_isovalueReal; }
    void setTransferFunction(const TransferFunction& tf);
    void setRenderMode(gpu::RenderMode mode);
    gpu::RenderMode renderMode() const { return m_mode; }
    void setSurfaceColor(const QColor& color);
    QColor surfaceColor() const;
    void setOrientationMarkerVisible(bool visible);
    // The crop box's outline and handles over the frame (crop_handles_3d.h drives it).
    void setCropBoxOverlay(const CropBoxOverlay& overlay);
    // The isosurfaces to draw (surface_list_panel.h); liveId is the selected one, which
    // setIsovalue() moves and the other calls below mean (liveName: for the empty-surface hint).
    // Until the first call: one surface, setIsovalue's and setSurfaceColor's.
    void setSurfaces(std::vector<gpu::SurfaceLayer> layers, std::uint32_t liveId,
                     const QString& liveName);
    // The slice views' planes in the 3D view (ViewLayout keeps them on the crosshair).
    void setSlicePlanes(const gpu::SlicePlaneSettings& planes);
    const gpu::SlicePlaneSettings& slicePlanes() const { return m_slicePlanes; }

    OrbitCamera& camera() { return m_camera; }
    void setProjection(Projection projection);
    void setStandardView(StandardView view);
    void resetView();
    void fitView();
    // True when the volume lives in patient space (DICOM): views and the marker use anatomical
    // names.
    bool anatomical() const;

    // The surface last rendered as a welded mesh (GPU capture; waits for the frame in
    // flight); empty when nothing is shown. Throws GlError if the GPU fails.
    IsoMesh captureMesh();
    // The same with the isovalue and crop it was extracted at (frame_worker.h).
    CapturedSurface captureSurface();
    // One surface's (setSurfaces' id) as last extracted; empty for a hidden or unknown one.
    CapturedSurface captureSurface(std::uint32_t layerId);
    // The isovalue (real units) of the surface on screen.
    std::optional<double> renderedIsovalue() const;
    // Whether the frame on screen shows the surface at the isovalue and crop set last, its
    // triangle count known: a frame requested before a change can still arrive after it (a
    // session sets its crop once its volume, at its isovalue, is loaded).
    bool showsCurrentSurface() const;
    // The figures of the last frame shown.
    const FrameStats& lastFrameStats() const { return m_framePolicy.stats(); }
    // The volume rendering resolution of the frame on screen (fraction of the view's), or
    // nullopt before the first frame.
    std::optional<float> shownVolumeResolution() const;
    // The GL renderer string, once the context exists.
    QString rendererName() const { return m_rendererName; }
    // The view as shown (the last frame, overlays included).
    QImage grabView();
    // What the view says over a frame whose surface is empty ("No surface at isovalue X: the
    // data range is A … B", real units), so an empty view is not taken for a failure, or whose
    // surface is not drawn ("The surface at isovalue X is not drawn: " and why, e.g. its mesh
    // does not fit in GPU memory); empty while the surface is drawn, before the first frame
    // and in volume-only mode.
    QString emptySurfaceHint() const;

signals:
    void frameStatsChanged(const isoview::FrameStats& stats);
    // A new frame from the render thread is on screen (after lastFrameStats() took it).
    void frameShown();
    // The view has been still for 3 s since its last frame and gave the heap the frames freed
    // back to the system (releaseFreedHeap, core/heap_reuse.h).
    void freedHeapReleased();
    void glError(const QString& message);
    // The user asked for the context menu actions through the keyboard/mouse; the main window
    // owns the actions.
    void glReady(const QString& renderer);

protected:
    bool event(QEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;

private:
    void startRenderThread();
    // Asks for a frame of the current state (posted at the end of this event-loop turn, so
    // several changes make one request).
    void scheduleFrame();
    // fullResolution: the still view's refinement of reduced-resolution volume rendering.
    void postFrameRequest(bool fullResolution);
    FrameRequest frameRequest(bool fullResolution) const;
    VoxelBox requestedCrop() const; // m_crop where it fits the volume, else the whole volume
    void showFrame(const std::shared_ptr<const RenderedFrame>& frame);
    void onFrameReady(const std::shared_ptr<const RenderedFrame>& frame);
    bool uploadVolume(QString* error);
    glm::vec2 toNdc(const QPointF& p) const;
    float aspect() const;
    void paintOrientationLabels(const gpu::SceneParams& params);

    std::unique_ptr<FrameWorker> m_worker;
    OrientationLabels* m_labels = nullptr;
    std::shared_ptr<const Volume> m_volume;
    bool m_volumeUploaded = false;
    std::shared_ptr<const TransferFunction> m_transferFunction;
    OrbitCamera m_camera;
    gpu::RenderMode m_mode = gpu::RenderMode::Surface;
    glm::vec3 m_surfaceColor{0.9f, 0.85f, 0.75f};
    bool m_showMarker = true;
    CropBoxOverlay m_cropBoxOverlay;
    gpu::SlicePlaneSettings m_slicePlanes;
    std::vector<gpu::SurfaceLayer> m_surfaces; // empty: the single surface
    std::uint32_t m_liveSurface = 0;
    QString m_liveSurfaceName;
    QString m_rendererName;

    std::optional<VoxelBox> m_crop; // none: the whole volume
    double m_isovalueReal = 0.0;
    bool m_isovalueSent = false; // the current isovalue has gone out with a request
    // Statistics, isovalue latency and the adaptive volume resolution (src/render), fed with
    // this monotonic clock.
    FramePolicy m_framePolicy;
    QElapsedTimer m_clock;
    // A frame request event is posted and not yet handled (scheduleFrame).
    bool m_requestPosted = false;
    QTimer m_refineTimer;   // the full-resolution volume frame once the view is still
    QTimer m_heapTrimTimer; // gives the frames' freed heap back once the view is still

    std::shared_ptr<const RenderedFrame> m_shown; // the frame on screen
    std::optional<double> m_shownIsovalue;

    enum class Drag { None, Rotate, Pan };
    Drag m_drag = Drag::None;
    QPointF m_lastMouse;
};

} // namespace isoview::app
