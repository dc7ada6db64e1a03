#include "views/viewport_widget.h"

#include "core/error.h"
#include "core/heap_reuse.h"
#include "core/log.h"
#include "scene/orientation_marker_layout.h"
#include "views/frame_worker.h"

#include <glm/gtc/matrix_inverse.hpp>

#include <QCoreApplication>
#include <QEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QSettings>
#include <QWheelEvent>
#include <algorithm>
#include <array>
#include <cmath>

namespace isoview::app {
namespace {

// The event scheduleFrame posts to itself.
QEvent::Type frameRequestEventType()
{
    static const auto type = QEvent::Type(QEvent::registerEventType());
    return type;
}

} // namespace

// The axis letters of the orientation marker: a transparent child widget painted by the
// raster engine, so text never mixes with the engine's GL state, and grab() includes it.
class OrientationLabels : public QWidget {
public:
    explicit OrientationLabels(QWidget* parent) : QWidget(parent)
    {
        setAttribute(Qt::WA_TransparentForMouseEvents);
        setAttribute(Qt::WA_NoSystemBackground);
        setAttribute(Qt::WA_TranslucentBackground);
    }
    void setLabels(bool anatomical, const std::array<QPointF, 3>& at)
    {
        if (anatomical == m_anatomical && at == m_at && geometry() == parentWidget()->rect())
            return;
        m_anatomical = anatomical;
        m_at = at;
        setGeometry(parentWidget()->rect());
        update();
    }

protected:
    void paintEvent(QPaintEvent*) override
    {
        static const char* kPatient[3] = {"L", "P", "S"};
        static const char* kWorld[3] = {"X", "Y", "Z"};
        const QColor colors[3] = {QColor(240, 100, 100), QColor(120, 220, 120),
                                  QColor(120, 160, 255)};
        QPainter painter(this);
        painter.setRenderHint(QPainter::TextAntialiasing);
        QFont font = painter.font();
        font.setBold(true);
        painter.setFont(font);
        for (int a = 0; a < 3; ++a) {
            painter.setPen(colors[a]);
            painter.drawText(QRectF(m_at[std::size_t(a)] - QPointF(10, 10), QSizeF(20, 20)),
                             Qt::AlignCenter, (m_anatomical ? kPatient : kWorld)[a]);
        }
    }

private:
    bool m_anatomical = false;
    std::array<QPointF, 3> m_at{};
};

ViewportWidget::ViewportWidget(SceneModel* scene, QWidget* parent) : QWidget(parent), m_scene(scene)
{
    m_labels = new OrientationLabels(this);
    m_labels->hide();
    setObjectName("viewport");
    setFocusPolicy(Qt::StrongFocus);
    setMinimumSize(320, 240);
    setAttribute(Qt::WA_OpaquePaintEvent); // every pixel comes from the frame (or the fill)
    m_clock.start();
    // A still view gets its full-resolution volume frame after this pause.
    m_refineTimer.setSingleShot(true);
    m_refineTimer.setInterval(400);
    connect(&m_refineTimer, &QTimer::timeout, this, [this] {
        if (m_drag == Drag::None && drawsVolume(m_scene->scene().renderMode))
            postFrameRequest(true);
    });
    // A drag's preview surface makes way for the full one once the isovalue rests.
    m_surfaceRefineTimer.setSingleShot(true);
    m_surfaceRefineTimer.setInterval(int(FramePolicy::kDragGapNs / 1'000'000));
    connect(&m_surfaceRefineTimer, &QTimer::timeout, this, [this] {
        if (m_framePolicy.previewSurface(m_clock.nsecsElapsed())) {
            m_surfaceRefineTimer.start(); // changes came meanwhile
        } else if (!m_requestPosted) {
            postFrameRequest(false);
        }
    });
    m_previewAction = new QAction(tr("Coarse Surface While &Dragging"), this);
    m_previewAction->setObjectName("surfacePreviewAction");
    m_previewAction->setCheckable(true);
    m_previewAction->setStatusTip(
        tr("While an isovalue is dragged on a volume whose surface is slow to draw, show the "
           "surface at half resolution; the full surface follows when the drag pauses"));
    m_previewAction->setChecked(QSettings().value("view/surfacePreview", true).toBool());
    m_framePolicy.setSurfacePreviewAllowed(m_previewAction->isChecked());
    connect(m_previewAction, &QAction::toggled, this, [this](bool on) {
        QSettings().setValue("view/surfacePreview", on);
        m_framePolicy.setSurfacePreviewAllowed(on);
        if (!on && m_shown && m_shown->livePreview) scheduleFrame();
    });
    // The heap keeps what frames free while they follow each other (core/heap_reuse.h); a view
    // still for a few seconds gives it back, hundreds of MB on large meshes drawn by llvmpipe.
    m_heapTrimTimer.setSingleShot(true);
    m_heapTrimTimer.setInterval(3000);
    // On a worker: malloc_trim walks every arena, hundreds of ms after a large CT's frames.
    connect(&m_heapTrimTimer, &QTimer::timeout, this, [this] {
        if (!m_heapTrim.isRunning()) m_heapTrim.start([](TaskContext&) { releaseFreedHeap(); });
    });
    connect(&m_heapTrim, &BackgroundTask::succeeded, this, &ViewportWidget::freedHeapReleased);
    connect(m_scene, &SceneModel::changed, this, &ViewportWidget::onSceneChanged);
}

ViewportWidget::~ViewportWidget() = default;

void ViewportWidget::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (!m_worker) startRenderThread();
}

void ViewportWidget::startRenderThread()
{
    m_worker = std::make_unique<FrameWorker>();
    connect(m_worker.get(), &FrameWorker::frameReady, this, &ViewportWidget::onFrameReady,
            Qt::QueuedConnection);
    connect(m_worker.get(), &FrameWorker::volumeUploaded, this, &ViewportWidget::onVolumeUploaded,
            Qt::QueuedConnection);
    connect(m_worker.get(), &FrameWorker::surfaceCaptured, this, &ViewportWidget::onSurfaceCaptured,
            Qt::QueuedConnection);
    connect(m_worker.get(), &FrameWorker::imageRendered, this, &ViewportWidget::onImageRendered,
            Qt::QueuedConnection);
    try {
        m_rendererName = m_worker->start();
        log::get("app")->info("3D view on {}", m_rendererName.toStdString());
    } catch (const Error& e) {
        m_worker.reset();
        const QString message =
            QStringLiteral("OpenGL 3.3 core or newer is needed for the 3D view.\n\n%1")
                .arg(QString::fromUtf8(e.what()));
        log::get("app")->error("{}", e.what());
        emit glError(message);
        return;
    }
    emit glReady(m_rendererName);
    uploadVolume(
        sharedVolume(),
        [this](const std::optional<QString>& error) {
            if (error) emit glError(*error);
        },
        m_scene->scene().series);
    scheduleFrame();
}

void ViewportWidget::uploadVolume(std::shared_ptr<const Volume> volume, UploadDone done,
                                  std::shared_ptr<const VolumeSeries> series)
{
    if (!m_worker || !volume || (m_uploads.empty() && volume == m_uploaded)) {
        if (done) done(std::nullopt);
        return;
    }
    // Already on its way (the scene took a volume the window is uploading): waits for it.
    if (!m_uploads.empty() && m_uploads.back().volume == volume) {
        m_uploads.back().done.push_back(std::move(done));
        return;
    }
    m_uploads.push_back({volume, {}});
    m_uploads.back().done.push_back(std::move(done));
    m_worker->uploadVolume(std::move(volume), std::move(series));
}

void ViewportWidget::onVolumeUploaded(const std::shared_ptr<const Volume>& volume,
                                      const QString& error, bool superseded)
{
    if (m_uploads.empty() || m_uploads.front().volume != volume) return; // not asked here
    const std::vector<UploadDone> done = std::move(m_uploads.front().done);
    m_uploads.pop_front();
    if (superseded) {
        // A time point passed over: the render thread goes on to a newer one.
        for (const UploadDone& d : done) {
            if (d) d(std::nullopt);
        }
        return;
    }
    if (error.isEmpty()) m_uploaded = volume; // else the render thread kept the previous one
    scheduleFrame();                          // the volume on screen, if the scene shows it
    for (const UploadDone& d : done) {
        if (d) d(error.isEmpty() ? std::nullopt : std::optional(error));
    }
}

bool ViewportWidget::volumeUploaded() const
{
    return m_worker && m_uploads.empty() && m_uploaded && m_uploaded == m_scene->scene().volume;
}

void ViewportWidget::onSceneChanged(SceneChanges what)
{
    if (what & SceneChange::Volume) {
        // Normally uploaded by the window before the scene took it; a scene given a volume
        // some other way gets it uploaded here.
        uploadVolume(
            sharedVolume(),
            [this](const std::optional<QString>& error) {
                if (error) emit glError(*error);
            },
            m_scene->scene().series);
        m_framePolicy.resetStats();
        m_shown.reset(); // the previous volume's frame no longer applies
    } else if (what & SceneChange::TimePoint) {
        // The next time point's values replace the last's on the GPU; the frame on screen stays
        // until the first of the new one.
        uploadVolume(
            sharedVolume(),
            [this](const std::optional<QString>& error) {
                if (error) emit glError(*error);
            },
            m_scene->scene().series);
    }
    // The isovalue latency runs from the first change the screen does not show yet.
    if (what & (SceneChange::Isovalue | SceneChange::Volume | SceneChange::TimePoint))
        m_framePolicy.isovalueChanged(m_clock.nsecsElapsed());
    scheduleFrame();
}

void ViewportWidget::setCropBoxOverlay(const CropBoxOverlay& overlay)
{
    if (overlay == m_cropBoxOverlay) return;
    m_cropBoxOverlay = overlay;
    scheduleFrame();
}

glm::mat4 ViewportWidget::viewMatrix() const
{
    return m_scene->scene().camera.viewMatrix();
}

glm::mat4 ViewportWidget::projectionMatrix() const
{
    return m_scene->scene().camera.projectionMatrix(aspect());
}

bool ViewportWidget::anatomical() const
{
    const Volume* v = volume();
    return v && v->metadata().patientSpace;
}

std::optional<double> ViewportWidget::renderedIsovalue() const
{
    if (!volumeUploaded() || !m_shown) return std::nullopt;
    return m_shown->isovalue;
}

bool ViewportWidget::showsCurrentSurface() const
{
    const std::optional<double> shown = renderedIsovalue();
    const Scene& scene = m_scene->scene();
    return shown && !m_shown->livePreview && std::abs(*shown - scene.liveIsovalue()) < 1e-9 &&
           m_shown->crop == scene.cropBox() && m_shown->volume == scene.volume.get() &&
           lastFrameStats().triangles.has_value();
}

bool ViewportWidget::showsSceneVolume() const
{
    return m_shown && volumeUploaded() && m_shown->volume == m_scene->scene().volume.get();
}

std::optional<float> ViewportWidget::shownVolumeResolution() const
{
    if (!m_shown) return std::nullopt;
    return m_shown->params.volumeResolutionScale;
}

CapturedSurface ViewportWidget::captureSurface()
{
    if (!volumeUploaded()) return {};
    return m_worker->capture(m_scene->scene().surfaces.selected().id);
}

std::optional<std::vector<LabelSurface>> ViewportWidget::captureLabels()
{
    const std::optional<LabelLayer>& layer = m_scene->scene().labels;
    if (!volumeUploaded() || !layer) return std::nullopt;
    return m_worker->captureLabels(layer->labelMap);
}

CapturedSurface ViewportWidget::captureSurface(std::uint32_t surfaceId)
{
    if (!volumeUploaded()) return {};
    return m_worker->capture(surfaceId);
}

gpu::SceneRenderer::VolumeAdmission ViewportWidget::volumeAdmission() const
{
    return m_worker ? m_worker->volumeAdmission() : nullptr;
}

void ViewportWidget::captureSurfaceLater(QObject* context, CaptureDone done)
{
    captureSurfaceLater(m_scene->scene().surfaces.selected().id, context, std::move(done));
}

void ViewportWidget::captureSurfaceLater(std::uint32_t surfaceId, QObject* context,
                                         CaptureDone done)
{
    if (!volumeUploaded()) {
        // Nothing to capture yet: an empty capture, as the render thread would give (later
        // too, so callers see one order of events).
        QTimer::singleShot(0, context, [done = std::move(done)] {
            done(std::make_shared<const SurfaceCapture>());
        });
        return;
    }
    const quint64 ticket = m_nextCapture++;
    m_captures[ticket] = {context, std::move(done)};
    m_worker->captureLater(surfaceId, ticket);
}

void ViewportWidget::onSurfaceCaptured(quint64 ticket,
                                       const std::shared_ptr<const SurfaceCapture>& capture)
{
    const auto it = m_captures.find(ticket);
    if (it == m_captures.end()) return;
    const PendingCapture pending = std::move(it->second);
    m_captures.erase(it);
    if (pending.context) pending.done(capture);
}

void ViewportWidget::renderImageLater(QSize size, bool transparent, QObject* context,
                                      ImageDone done)
{
    renderSceneLater(m_scene->scene(), size, transparent, context,
                     [done = std::move(done)](const std::shared_ptr<const RenderedFrame>& frame,
                                              const QString& error) {
                         done(frame ? frame->image : QImage(), error);
                     });
}

void ViewportWidget::renderSceneLater(const Scene& scene, QSize size, bool transparent,
                                      QObject* context, FrameDone done)
{
    // The scene's volume on the render thread: the view's, or another time point a movie put
    // there.
    const bool held = m_worker && m_uploads.empty() && m_uploaded && scene.volume == m_uploaded;
    if (!held || size.isEmpty()) {
        const QString why =
            size.isEmpty()
                ? tr("The image size %1 x %2 is empty.").arg(size.width()).arg(size.height())
            : m_uploaded && scene.volume && m_uploads.empty()
                ? tr("Another volume was opened meanwhile.")
                : tr("No volume is shown yet.");
        QTimer::singleShot(0, context, [done = std::move(done), why] { done(nullptr, why); });
        return;
    }
    FrameRequest request = frameRequest(true);
    request.scene = scene;
    gpu::FrameParams& params = request.params;
    params.viewportSize = glm::ivec2(size.width(), size.height());
    params.view = scene.camera.viewMatrix();
    params.projection = scene.camera.projectionMatrix(float(size.width()) / float(size.height()));
    params.cropBox = {}; // the crop box's handles belong to the window, not the picture
    params.transparentBackground = transparent;
    const quint64 ticket = m_nextImage++;
    m_images[ticket] = {context, std::move(done)};
    m_worker->renderImageLater(std::move(request), ticket);
}

bool ViewportWidget::startHidden()
{
    if (!m_worker) startRenderThread();
    return m_worker != nullptr;
}

void ViewportWidget::onImageRendered(quint64 ticket,
                                     const std::shared_ptr<const RenderedFrame>& frame,
                                     const QString& error)
{
    const auto it = m_images.find(ticket);
    if (it == m_images.end()) return;
    const PendingImage pending = std::move(it->second);
    m_images.erase(it);
    if (!pending.context) return;
    if (frame)
        pending.done(frame, QString());
    else
        pending.done(nullptr, error.isEmpty() ? tr("No volume is shown yet.") : error);
}

QImage ViewportWidget::grabView()
{
    // Volume rendering may be on screen at reduced resolution (while dragging, or before the
    // still view's refinement arrived), or a drag frame's surface may be unconfirmed: a
    // screenshot renders the view at full resolution first.
    const bool reducedVolume = drawsVolume(m_scene->scene().renderMode) &&
                               (!m_shown || m_shown->params.volumeResolutionScale < 1.0f);
    if (volumeUploaded() && (reducedVolume || (m_shown && m_shown->surfaceUnconfirmed))) {
        if (const auto frame = m_worker->renderNow(frameRequest(true))) showFrame(frame);
    }
    return grab().toImage(); // the frame with the axis letters over it
}

QSize ViewportWidget::devicePixelSize() const
{
    const qreal dpr = devicePixelRatioF();
    return {std::max(1, int(std::lround(width() * dpr))),
            std::max(1, int(std::lround(height() * dpr)))};
}

float ViewportWidget::aspect() const
{
    return height() > 0 ? float(width()) / float(height()) : 1.0f;
}

void ViewportWidget::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    scheduleFrame();
}

// Changes made in one handler (an isovalue and the camera, a whole session) go out as one
// request: it is posted, not sent. It is posted at high priority, so it reaches the render
// thread as soon as that handler returns, before the repaints the change caused (this view,
// the slider, the histogram, the status bar): with the 0 ms timer used before, it waited for
// them, 1.5-2 ms of every frame on llvmpipe while the render thread had nothing to do.
void ViewportWidget::scheduleFrame()
{
    m_refineTimer.stop();
    m_heapTrimTimer.stop();
    m_surfaceRefineTimer.stop();
    if (volumeUploaded() && !m_requestPosted) {
        m_requestPosted = true;
        QCoreApplication::postEvent(this, new QEvent(frameRequestEventType()),
                                    Qt::HighEventPriority);
    }
    update(); // the last frame, rescaled, until the new one arrives
}

bool ViewportWidget::event(QEvent* event)
{
    if (event->type() != frameRequestEventType()) return QWidget::event(event);
    m_requestPosted = false;
    postFrameRequest(false);
    return true;
}

void ViewportWidget::postFrameRequest(bool fullResolution)
{
    if (!volumeUploaded()) return;
    m_worker->request(frameRequest(fullResolution));
}

FrameRequest ViewportWidget::frameRequest(bool fullResolution) const
{
    FrameRequest request;
    request.scene = m_scene->scene(); // the whole scene: the renderer diffs it
    gpu::FrameParams& params = request.params;
    const QSize pixels = devicePixelSize();
    params.viewportSize = glm::ivec2(pixels.width(), pixels.height());
    params.view = viewMatrix();
    params.projection = projectionMatrix();
    params.cropBox = m_cropBoxOverlay;
    const VolumeQuality quality = m_framePolicy.volumeQuality(m_drag != Drag::None);
    params.volumeResolutionScale = fullResolution ? 1.0f : quality.resolutionScale;
    params.volumeStepVoxels = fullResolution ? 0.5f : quality.stepVoxels;
    params.previewLiveSurface =
        !fullResolution && m_framePolicy.previewSurface(m_clock.nsecsElapsed());
    // The view's own frames never stall on a GPU for the surface's counts; one the mesh
    // outgrew is drawn again (onFrameReady). Full-resolution frames
    // (screenshots, the view grabbed, a still volume's refinement) wait and are whole.
    params.liveSurfaceWithoutCountWait = !fullResolution;
    request.fullResolution = fullResolution;
    return request;
}

void ViewportWidget::onFrameReady(const std::shared_ptr<const RenderedFrame>& frame)
{
    if (!volumeUploaded()) return;
    // A label map the GPU could not take: said once per failure, the rest of the frame drawn.
    if (frame->labelError != m_labelErrorShown) {
        m_labelErrorShown = frame->labelError;
        if (!frame->labelError.isEmpty()) emit glError(frame->labelError);
    }
    showFrame(frame);
    const float scale = frame->params.volumeResolutionScale;
    // Volume frames at reduced resolution get a full-resolution one when the view stays still.
    if (drawsVolume(m_scene->scene().renderMode) && scale < 1.0f && m_drag == Drag::None &&
        !m_requestPosted)
        m_refineTimer.start();
    // A drag's preview is followed by the full surface once the drag rests; a full frame that
    // extracted a new isovalue says whether drags need previews.
    if (frame->livePreview && !m_requestPosted) m_surfaceRefineTimer.start();
    // A surface that outgrew its buffers in a frame drawn without its counts is drawn again at
    // once: the frame's read-back has brought the counts, so this frame waits for nothing.
    if (frame->surfaceUnconfirmed && !m_requestPosted) postFrameRequest(false);
    if (!frame->livePreview && frame->liveExtractions != m_liveExtractions &&
        drawsSurfaces(frame->renderMode)) {
        m_framePolicy.fullSurfaceFrameTook(frame->renderMs);
    }
    m_liveExtractions = frame->liveExtractions;
    m_heapTrimTimer.start();
    emit frameShown();
}

void ViewportWidget::showFrame(const std::shared_ptr<const RenderedFrame>& frame)
{
    m_shown = frame;
    // Isovalue latency runs from the oldest change not yet shown to the first frame showing the
    // newest value; frames of values the user has already moved past do not end it.
    if (frame->requestedIsovalue == m_scene->scene().liveIsovalue())
        m_framePolicy.frameTookIsovalue();
    m_framePolicy.frameSwapped(m_clock.nsecsElapsed(), frame->isovalue, frame->livePreview);
    // A full-resolution refinement frame says nothing about the adaptive resolution's cost.
    FrameGpuTimes times = frame->gpuTimes;
    if (frame->fullResolution) times.volumeMs.reset();
    m_framePolicy.gpuResults(frame->vertexCount, times);
    emit frameStatsChanged(m_framePolicy.stats());
    m_labels->setVisible(frame->orientationMarker);
    if (frame->orientationMarker) paintOrientationLabels(frame->params, anatomical());
    update();
}

void ViewportWidget::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    if (!m_shown) {
        painter.fillRect(rect(), QColor::fromRgbF(0.1, 0.1, 0.12));
        return;
    }
    // The frame fills the view; during a resize the last one is stretched until the next
    // arrives.
    painter.setRenderHint(QPainter::SmoothPixmapTransform);
    painter.drawImage(QRectF(rect()), m_shown->image);

    const QString hint = emptySurfaceHint();
    if (hint.isEmpty()) return;
    painter.setRenderHint(QPainter::Antialiasing);
    const QRect text =
        painter.fontMetrics()
            .boundingRect(rect().adjusted(24, 0, -24, 0), Qt::AlignCenter | Qt::TextWordWrap, hint)
            .adjusted(-12, -8, 12, 8);
    painter.setPen(Qt::NoPen);
    painter.setBrush(QColor(0, 0, 0, 150));
    painter.drawRoundedRect(text, 6, 6);
    painter.setPen(QColor(235, 235, 235));
    painter.drawText(text, Qt::AlignCenter | Qt::TextWordWrap, hint);
}

QString ViewportWidget::emptySurfaceHint() const
{
    const Volume* v = volume();
    if (!m_shown || !v || !drawsSurfaces(m_shown->renderMode)) return {};
    if (!m_shown->isovalue) return {};
    const QString iso = QString::number(*m_shown->isovalue, 'g', 6);
    QString hint;
    if (!m_shown->surfaceError.isEmpty()) {
        // The engine's message names the bytes; the log has it too.
        hint = tr("The surface at isovalue %1 is not drawn: %2. A crop or another isovalue "
                  "gives a smaller surface.")
                   .arg(iso, m_shown->surfaceError);
    } else {
        if (!m_shown->vertexCount || *m_shown->vertexCount != 0) return {};
        const ValueRange real = v->realRange();
        hint = tr("No surface at isovalue %1: the data range is %2\u00a0…\u00a0%3")
                   .arg(iso, QString::number(real.min, 'g', 6), QString::number(real.max, 'g', 6));
    }
    // With several surfaces the hint is about the selected one, which the slider moves.
    const SurfaceList& surfaces = m_scene->scene().surfaces;
    return surfaces.size() > 1 ? QString::fromStdString(surfaces.selected().name) + ": " + hint
                               : hint;
}

void ViewportWidget::paintOrientationLabels(const gpu::FrameParams& params, bool anatomical)
{
    const OrientationMarkerLayout layout =
        orientationMarkerLayout(params.view, params.viewportSize);
    const qreal dpr = devicePixelRatioF();
    std::array<QPointF, 3> at;
    for (std::size_t a = 0; a < 3; ++a) {
        // A little beyond each tip, in widget coordinates (top-left origin, logical pixels).
        const glm::vec2 tip = layout.axisTips[a];
        const glm::vec2 dir = tip - layout.center;
        const float len = glm::length(dir);
        const glm::vec2 p = len > 1e-3f ? tip + dir / len * 10.0f * float(dpr) : tip;
        at[a] = QPointF(p.x / dpr, height() - p.y / dpr);
    }
    m_labels->setLabels(anatomical, at);
}

glm::vec2 ViewportWidget::toNdc(const QPointF& p) const
{
    return {float(2.0 * p.x() / std::max(1, width()) - 1.0),
            float(1.0 - 2.0 * p.y() / std::max(1, height()))};
}

void ViewportWidget::mousePressEvent(QMouseEvent* event)
{
    m_lastMouse = event->position();
    if (event->button() == Qt::MiddleButton ||
        (event->button() == Qt::LeftButton && (event->modifiers() & Qt::ShiftModifier)))
        m_drag = Drag::Pan;
    else if (event->button() == Qt::LeftButton)
        m_drag = Drag::Rotate;
    else
        return QWidget::mousePressEvent(event);
    event->accept();
}

void ViewportWidget::mouseMoveEvent(QMouseEvent* event)
{
    if (m_drag == Drag::None) return QWidget::mouseMoveEvent(event);
    const glm::vec2 from = toNdc(m_lastMouse);
    const glm::vec2 to = toNdc(event->position());
    m_lastMouse = event->position();
    const float a = aspect();
    m_scene->editCamera([&](OrbitCamera& camera) {
        if (m_drag == Drag::Rotate)
            camera.rotateByDrag(from, to, a);
        else
            camera.pan(to - from, a);
    });
}

void ViewportWidget::mouseReleaseEvent(QMouseEvent* event)
{
    if (m_drag == Drag::None) return QWidget::mouseReleaseEvent(event);
    m_drag = Drag::None;
    scheduleFrame(); // the adaptive resolution of a still view
}

void ViewportWidget::wheelEvent(QWheelEvent* event)
{
    const double steps = event->angleDelta().y() / 120.0;
    if (steps != 0.0) {
        m_scene->editCamera(
            [&](OrbitCamera& camera) { camera.zoom(float(std::pow(1.15, steps))); });
    }
    event->accept();
}

} // namespace isoview::app
