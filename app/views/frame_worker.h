// Renders the 3D view's frames on a thread of its own, so the window never waits for the GPU:
// the GUI thread posts what the next frame should show and goes back to its event loop (the
// slider thumb and the camera keep following the mouse), and gets finished frames back as
// images. While a frame is in flight only the newest request is kept: whatever the user did in
// the meantime, the next frame shows the latest isovalue and camera.
//
// The thread has its own OpenGL context (the engine's EGL HeadlessContext: no window-system
// context is shared with Qt) and renders into an offscreen target it reads back.
//
// Thread: the public functions are called from the GUI thread. start(), capture() and
// captureLabels() wait for the frame in flight and then run on the render thread; request(),
// uploadVolume(), captureLater() and renderImageLater() never wait. frameReady,
// volumeUploaded, surfaceCaptured and imageRendered are emitted on the render thread (connect with
// a queued connection). renderNow() waits for its own frame too.
#pragma once

#include "extraction/iso_mesh.h"
#include "extraction/voxel_box.h"
#include "gpu/scene_renderer.h"
#include "scene/frame_policy.h"
#include "scene/scene.h"
#include "volume/volume.h"

#include <QImage>
#include <QObject>
#include <QString>
#include <QThread>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

namespace isoview::app {

// What a frame should show: a copy of the whole scene (the render thread hands it to the
// renderer, which does only what changed since the scene before), so a request that replaces
// another loses nothing; and how: this view's camera matrices, size and volume quality.
struct FrameRequest {
    Scene scene;
    gpu::FrameParams params; // targetFramebuffer is the render thread's own
    // A full-resolution frame of a still view (or a screenshot) beyond the adaptive volume
    // resolution: its ray-casting time does not steer the adaptation.
    bool fullResolution = false;
};

struct RenderedFrame {
    QImage image; // device pixels, top row first
    gpu::FrameParams params;
    bool fullResolution = false;                 // the request's
    RenderMode renderMode = RenderMode::Surface; // the request's scene's
    bool orientationMarker = true;               // the request's scene's
    double requestedIsovalue = 0.0;              // the request's live isovalue (real units)
    const Volume* volume = nullptr; // the request's scene's (identity only: a time point's)
    std::optional<double> isovalue; // of the surface in the image (real units)
    // Its live surface is the half-resolution preview of a drag (params.previewLiveSurface).
    bool livePreview = false;
    // Its live surface went without its counts (a GPU's drag frame) and is missing from the
    // image because the mesh outgrew its buffers: the view asks for the frame again
    // (SceneRenderer::surfaceUnconfirmed, asked after the read-back, when the counts are in).
    bool surfaceUnconfirmed = false;
    std::optional<std::uint32_t> vertexCount; // triangle corners, when the GPU had it
    QString surfaceError; // why the live surface is not drawn (SceneRenderer), empty if it is
    VoxelBox crop;        // the cells the surface in the image keeps
    // The live surface's extractions so far (SceneRenderer::liveExtractions): a new isovalue is
    // extracted once, whatever else the frames change.
    std::uint64_t liveExtractions = 0;
    // The label map's extractions so far (once per label map and crop; a style change none),
    // and why the scene's label map is not drawn (empty if it is, or there is none).
    std::uint64_t labelExtractions = 0;
    QString labelError;
    FrameGpuTimes gpuTimes;
    // Where the render thread's time went, for benchmarks that lay it on the GUI thread's
    // timeline (the steady clock is CLOCK_MONOTONIC, as QElapsedTimer's): when the thread took
    // the request, how long a new label map's upload took (0 without one), and the rest of the
    // frame (the scene's changes, extractions included, the draw and the read-back).
    std::chrono::steady_clock::time_point startedAt;
    double labelUploadMs = 0.0;
    double renderMs = 0.0;
};

// A surface's mesh with the isovalue and crop it was extracted at (scene_renderer.h).
using gpu::CapturedSurface;

// What captureLater() brings back: the surface, and the volume the render thread held then
// (null without one: the mesh is empty), or why the GPU failed.
struct SurfaceCapture {
    CapturedSurface surface;
    std::shared_ptr<const Volume> volume;
    QString error;
};

class FrameWorker : public QObject {
    Q_OBJECT
public:
    FrameWorker();
    ~FrameWorker() override; // finishes the frame in flight, frees the GPU objects, joins

    // Makes the context and the renderer on the render thread. Returns the renderer's summary,
    // or throws Error (no OpenGL 3.3, shader failure). The renderer's GPU memory budget comes
    // from ISOVIEW_GPU_MEMORY_BUDGET_MB (MB, read here) when set.
    QString start();
    bool started() const { return m_started; }

    // Uploads the volume on the render thread, after the frame in flight, and returns at once
    // (hundreds of ms for a large volume on llvmpipe: the window must not wait for them).
    // volumeUploaded follows, with an empty error once the renderer holds it, else the message
    // saying why the GPU cannot take it (the previous volume stays then): a volume beyond the
    // GPU's memory or the budget gets one with the sizes and what to do
    // (SceneRenderer::setVolume), and the budget's origin when one is set. A request made
    // meanwhile may merge into one scheduled before the upload and render first: the view asks
    // for no frame until volumeUploaded.
    // With series (volume one of its time points): SceneRenderer::setTimePoint, which after the
    // series' first takes only the new values and keeps the label map; a time point that a
    // later one of the same series follows before it started is skipped (a slider dragged over
    // a long series uploads the time point it stops at, not every one it passed), and its
    // volumeUploaded says superseded.
    void uploadVolume(std::shared_ptr<const Volume> volume,
                      std::shared_ptr<const VolumeSeries> series = nullptr);

    // Queues a frame; replaces a request not yet started.
    void request(FrameRequest request);

    // Renders this request now and waits for it (screenshots); null before start() or
    // without a volume. Throws Error.
    std::shared_ptr<const RenderedFrame> renderNow(const FrameRequest& request);
    // Renders this request into an image of its own size after the frames asked for so far,
    // without waiting and without touching the view's target (a 3840 x 2160 screenshot takes
    // seconds of volume rendering on llvmpipe); imageRendered(ticket, frame, error) follows.
    // A transparent background (params.transparentBackground) gives a premultiplied ARGB image.
    // Its scene may differ from the view's (a movie's frame): the captures below still give the
    // view's surfaces, rendering its last frame again first (unseen) when another scene came
    // since.
    void renderImageLater(FrameRequest request, quint64 ticket);

    // One surface of the scene (its id) as last extracted (empty mesh when none yet, hidden or
    // unknown). Throws GlError.
    CapturedSurface capture(std::uint32_t surfaceId);
    // The same without waiting: the capture runs on the render thread after the frames asked
    // for so far (a read-back: tens of ms for 2 M triangles, after a frame that may take
    // seconds), and surfaceCaptured(ticket, ...) brings it back.
    void captureLater(std::uint32_t surfaceId, quint64 ticket);
    // The renderer's GPU memory check as the render thread last took it (at start and after
    // each upload), for a loader to refuse a volume the GPU cannot hold before reading it
    // (VolumeOpener). Null before start(). Any thread; the function holds figures only.
    gpu::SceneRenderer::VolumeAdmission volumeAdmission() const;
    // Every label's surface of this label map, when it is the one the render thread holds and
    // has drawn; nullopt otherwise (another one, or still uploading). Throws GlError.
    std::optional<std::vector<LabelSurface>>
    captureLabels(const std::shared_ptr<const Volume>& labelMap);

    struct RenderThreadState; // lives on the render thread

signals:
    void frameReady(std::shared_ptr<const isoview::app::RenderedFrame> frame);
    void volumeUploaded(std::shared_ptr<const isoview::Volume> volume, QString error,
                        bool superseded);
    void surfaceCaptured(quint64 ticket,
                         std::shared_ptr<const isoview::app::SurfaceCapture> capture);
    // renderImageLater's frame (null with an error, or before a volume).
    void imageRendered(quint64 ticket, std::shared_ptr<const isoview::app::RenderedFrame> frame,
                       QString error);

private:
    void renderPending(); // render thread
    // Runs f on the render thread and waits for it.
    template <class F> void runOnRenderThread(F&& f);

    QThread m_thread;
    QObject* m_threadObject = nullptr; // lives on m_thread: queued calls run there
    std::unique_ptr<RenderThreadState> m_state;
    bool m_started = false;
    // Said after every upload error while ISOVIEW_GPU_MEMORY_BUDGET_MB sets a budget (empty
    // otherwise), so the user knows where the limit comes from.
    QString m_budgetNote;

    void takeVolumeAdmission();          // render thread
    mutable std::mutex m_admissionMutex; // guards m_admission
    // The newest time-point upload asked for (uploadVolume with a series) and its series: an
    // older one of that series still queued is skipped.
    std::mutex m_timePointMutex;
    quint64 m_timePointTicket = 0;
    const VolumeSeries* m_timePointSeries = nullptr; // identity only
    gpu::SceneRenderer::VolumeAdmission m_admission;
    std::mutex m_mutex; // guards m_pending and m_scheduled
    std::optional<FrameRequest> m_pending;
    bool m_scheduled = false;
};

} // namespace isoview::app
