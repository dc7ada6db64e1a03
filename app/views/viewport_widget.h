// The 3D view: draws the scene (scene_model.h) through the engine's SceneRenderer. Left drag
// orbits the scene's camera (trackball), middle drag or Shift+left drag pans, the wheel zooms.
//
// Never blocks: frames are rendered on a render thread of their own (FrameWorker) and shown
// as images when they are done; each change of the scene posts the next frame's request, a copy
// of the whole scene with this view's size and camera matrices, so the slider and the camera follow
// the mouse even while a frame takes longer than the mouse's pace. Requests made while a frame is
// in flight merge into one, the newest: every frame shows the latest isovalue and camera. Once the
// view has been still for a moment after a reduced-resolution volume frame, a full-resolution frame
// follows.
//
// GL: the render thread owns its context and every GPU object; the widget itself never touches
// GL. The render thread starts when the widget is first shown.
#pragma once

#include "common/background_task.h"
#include "extraction/iso_mesh.h"
#include "gpu/scene_renderer.h"
#include "scene/frame_policy.h"
#include "scene_model.h"
#include "volume/volume.h"

#include <QAction>
#include <QElapsedTimer>
#include <QImage>
#include <QPointer>
#include <QString>
#include <QTimer>
#include <QWidget>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <vector>

namespace isoview::app {

class FrameWorker;
struct FrameRequest;
struct RenderedFrame;
struct SurfaceCapture;
class OrientationLabels;

class ViewportWidget : public QWidget {
    Q_OBJECT
public:
    // The scene outlives the view.
    explicit ViewportWidget(SceneModel* scene, QWidget* parent = nullptr);
    ~ViewportWidget() override;

    // nullopt once the render thread holds the volume, else why the GPU cannot take it.
    using UploadDone = std::function<void(const std::optional<QString>& error)>;
    // Uploads a volume the scene is about to show, on the render thread, and returns at once:
    // the window keeps answering while a large volume uploads. done runs on the GUI thread when
    // the upload ends: nullopt, or the error message when the GPU cannot take the volume (the
    // render thread keeps the previous one then, and the view goes on showing it). No frame is
    // asked for meanwhile; the last one stays on screen. Without a render thread yet (or with
    // the volume already held), done runs now: the scene's volume is uploaded when the view is
    // first shown (errors then come through glError()). A scene whose volume was not uploaded
    // here is uploaded when it changes (errors through glError()).
    // series: the volume's, when it is a time point of one (FrameWorker::uploadVolume).
    void uploadVolume(std::shared_ptr<const Volume> volume, UploadDone done,
                      std::shared_ptr<const VolumeSeries> series = nullptr);
    // The volume the render thread holds (its last upload that succeeded); null before one.
    const std::shared_ptr<const Volume>& uploadedVolume() const { return m_uploaded; }
    // An upload is on its way to the render thread.
    bool isUploading() const { return !m_uploads.empty(); }
    // The scene's volume.
    bool hasVolume() const { return m_scene->hasVolume(); }
    const Volume* volume() const { return m_scene->scene().volume.get(); }
    // The same, for work that outlives a volume change (background measurements).
    std::shared_ptr<const Volume> sharedVolume() const { return m_scene->scene().volume; }
    const SceneModel& scene() const { return *m_scene; }

    // The crop box's outline and handles over the frame (crop_handles_3d.h drives it).
    void setCropBoxOverlay(const CropBoxOverlay& overlay);
    // The scene's camera matrices at this view's aspect (the camera is the scene's).
    glm::mat4 viewMatrix() const;
    glm::mat4 projectionMatrix() const;
    float aspect() const;
    // The view's size in device pixels (at least 1 x 1): its frames' and screenshots' size.
    QSize devicePixelSize() const;
    // True when the volume lives in patient space (DICOM): views and the marker use anatomical
    // names.
    bool anatomical() const;

    // The live surface as last rendered, as a welded mesh with the isovalue and crop it was
    // extracted at (GPU capture; waits for the frame in flight); empty when nothing is shown.
    // Throws GlError if the GPU fails.
    gpu::CapturedSurface captureSurface();
    // One surface (a scene surface id) as last extracted; empty for a hidden or unknown one.
    gpu::CapturedSurface captureSurface(std::uint32_t surfaceId);
    // The same without waiting for the render thread (what the GUI thread must never do for
    // long: a volume frame of a large CT takes seconds on a software renderer): returns at once,
    // and done runs later on the GUI thread with the selected surface (or surfaceId) as the
    // frames asked for until now extracted it, unless context is destroyed first. Without a
    // volume on the render thread the capture is empty. GPU failures come as its error.
    using CaptureDone = std::function<void(std::shared_ptr<const SurfaceCapture> capture)>;
    void captureSurfaceLater(QObject* context, CaptureDone done);
    void captureSurfaceLater(std::uint32_t surfaceId, QObject* context, CaptureDone done);
    // The view's scene and camera rendered off screen into an image of `size` pixels (any
    // aspect: the camera's vertical field of view is kept), volume at full quality, the
    // background left transparent when asked; without waiting: done runs later on the GUI
    // thread with the image, or a null image and why, unless context is destroyed first.
    // Overlays painted by the widget (axis letters, hints) are not in it.
    using ImageDone = std::function<void(QImage image, QString error)>;
    void renderImageLater(QSize size, bool transparent, QObject* context, ImageDone done);
    // The same for any scene of the volume on screen (a movie's frame: the view turned, another
    // isovalue), seen through its own camera; done gets the whole frame (its image, the
    // isovalue and triangle count of its surface), or null and why. The render thread diffs
    // each scene against the one before, so the view's next frame may extract again.
    using FrameDone =
        std::function<void(std::shared_ptr<const RenderedFrame> frame, QString error)>;
    void renderSceneLater(const Scene& scene, QSize size, bool transparent, QObject* context,
                          FrameDone done);
    // Starts the render thread of a view that is not shown (`isoview --movie` renders with no
    // window); a shown view starts it itself. False, with glError emitted, when it cannot start.
    bool startHidden();
    // The GPU's memory check for a volume not read yet (FrameWorker::volumeAdmission).
    gpu::SceneRenderer::VolumeAdmission volumeAdmission() const;
    // The scene's label map's surfaces, one per label; nullopt while the render thread does not
    // hold that label map yet (a frame later it does).
    std::optional<std::vector<LabelSurface>> captureLabels();
    // The isovalue (real units) of the live surface on screen.
    std::optional<double> renderedIsovalue() const;
    // Whether the frame on screen shows the live surface of the scene's volume (time point) at
    // its isovalue and crop, at full resolution (not a drag's preview), its triangle count
    // known: a frame requested before a change can still arrive after it (a session sets its
    // crop once its volume, at its isovalue, is loaded).
    bool showsCurrentSurface() const;
    // Whether the frame on screen was rendered from the scene's volume (its time point), in
    // any mode: its surfaces were extracted from it.
    bool showsSceneVolume() const;
    // The figures of the last frame shown.
    const FrameStats& lastFrameStats() const { return m_framePolicy.stats(); }
    // The frame on screen with what it was rendered from (frame_worker.h); null before the
    // first and after a new volume.
    const RenderedFrame* shownFrame() const { return m_shown.get(); }
    // The volume rendering resolution of the frame on screen (fraction of the view's), or
    // nullopt before the first frame.
    std::optional<float> shownVolumeResolution() const;
    // View > Coarse Surface While Dragging (checkable, remembered): an isovalue drag shows the
    // live surface at half resolution when full frames are slow (FramePolicy::previewSurface),
    // and the full surface once the drag pauses.
    QAction* surfacePreviewAction() const { return m_previewAction; }
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
    // The view has been still for 3 s since its last frame and a worker gave the heap the frames
    // freed back to the system (releaseFreedHeap, core/heap_reuse.h).
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
    void onSceneChanged(SceneChanges what);
    // Asks for a frame of the current state (posted at the end of this event-loop turn, so
    // several changes make one request).
    void scheduleFrame();
    // fullResolution: the still view's refinement of reduced-resolution volume rendering.
    void postFrameRequest(bool fullResolution);
    FrameRequest frameRequest(bool fullResolution) const;
    // Whether the render thread holds the scene's volume.
    bool volumeUploaded() const;
    void showFrame(const std::shared_ptr<const RenderedFrame>& frame);
    void onFrameReady(const std::shared_ptr<const RenderedFrame>& frame);
    void onVolumeUploaded(const std::shared_ptr<const Volume>& volume, const QString& error,
                          bool superseded);
    void onSurfaceCaptured(quint64 ticket, const std::shared_ptr<const SurfaceCapture>& capture);
    void onImageRendered(quint64 ticket, const std::shared_ptr<const RenderedFrame>& frame,
                         const QString& error);
    glm::vec2 toNdc(const QPointF& p) const;
    void paintOrientationLabels(const gpu::FrameParams& params, bool anatomical);

    SceneModel* m_scene;
    std::unique_ptr<FrameWorker> m_worker;
    OrientationLabels* m_labels = nullptr;
    // The volume the render thread holds (the scene's once uploaded).
    std::shared_ptr<const Volume> m_uploaded;
    // Uploads on their way, in the render thread's order, each with who waits for it.
    struct Upload {
        std::shared_ptr<const Volume> volume;
        std::vector<UploadDone> done;
    };
    std::deque<Upload> m_uploads;
    // Captures asked of the render thread (captureSurfaceLater), by ticket.
    struct PendingCapture {
        QPointer<QObject> context;
        CaptureDone done;
    };
    std::map<quint64, PendingCapture> m_captures;
    quint64 m_nextCapture = 1;
    // Images asked of the render thread (renderImageLater), by ticket.
    struct PendingImage {
        QPointer<QObject> context;
        FrameDone done;
    };
    std::map<quint64, PendingImage> m_images;
    quint64 m_nextImage = 1;
    CropBoxOverlay m_cropBoxOverlay;
    QString m_rendererName;
    // Statistics, isovalue latency and the adaptive volume resolution (src/render), fed with
    // this monotonic clock.
    FramePolicy m_framePolicy;
    QElapsedTimer m_clock;
    // A frame request event is posted and not yet handled (scheduleFrame).
    bool m_requestPosted = false;
    QTimer m_refineTimer;        // the full-resolution volume frame once the view is still
    QTimer m_heapTrimTimer;      // gives the frames' freed heap back once the view is still
    QTimer m_surfaceRefineTimer; // the full surface once an isovalue drag pauses
    QAction* m_previewAction = nullptr;
    std::uint64_t m_liveExtractions = 0; // of the last frame shown
    BackgroundTask m_heapTrim;           // ... off the GUI thread

    std::shared_ptr<const RenderedFrame> m_shown; // the frame on screen
    QString m_labelErrorShown; // the last label map error said (RenderedFrame::labelError)

    enum class Drag { None, Rotate, Pan };
    Drag m_drag = Drag::None;
    QPointF m_lastMouse;
};

} // namespace isoview::app
