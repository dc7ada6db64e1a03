#include "views/frame_worker.h"

#include "core/error.h"
#include "core/log.h"
#include "gpu/headless_context.h"
#include "gpu/offscreen_target.h"

#include <QMetaObject>
#include <QtGlobal>
#include <exception>
#include <utility>

namespace isoview::app {

struct FrameWorker::RenderThreadState {
    std::unique_ptr<gpu::HeadlessContext> context;
    std::unique_ptr<gpu::SceneRenderer> renderer;
    std::unique_ptr<gpu::OffscreenTarget> target;
    std::shared_ptr<const Volume> volume;
    std::shared_ptr<const VolumeSeries> series; // volume's, when it is a time point
    // The label map the scene asked for last, and why it could not be uploaded (empty if it
    // was): asked once, not again every frame.
    std::shared_ptr<const Volume> labelMap;
    QString labelError;
    // The view's last frame (renderPending's request), and whether an image of another scene
    // (renderImageLater's: a movie's frame, another isovalue) was rendered since: the renderer
    // then holds that scene's surfaces, and a capture renders the view's frame again first.
    std::optional<FrameRequest> viewRequest;
    bool otherSceneRendered = false;
};

namespace {

// The renderer back on the view's scene after an image of another one, so that captures are of
// the surfaces the window shows (File > Export Surface after an isovalue sweep's movie exported
// the sweep's last isovalue). The frame is not shown: the view has it already. Throws Error.
void renderViewSceneAgain(FrameWorker::RenderThreadState& s);

} // namespace

FrameWorker::FrameWorker() : m_state(std::make_unique<RenderThreadState>())
{
    m_thread.setObjectName("isoview render");
    m_threadObject = new QObject;
    m_threadObject->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_threadObject, &QObject::deleteLater);
    m_thread.start();
}

FrameWorker::~FrameWorker()
{
    runOnRenderThread([this] {
        // GL objects go first, with the context current, then the context.
        if (m_state->context) m_state->context->makeCurrent();
        m_state->target.reset();
        m_state->renderer.reset();
        m_state->context.reset();
    });
    m_thread.quit();
    m_thread.wait();
}

template <class F> void FrameWorker::runOnRenderThread(F&& f)
{
    std::exception_ptr failure;
    QMetaObject::invokeMethod(
        m_threadObject,
        [&] {
            try {
                f();
            } catch (...) {
                failure = std::current_exception();
            }
        },
        Qt::BlockingQueuedConnection);
    if (failure) std::rethrow_exception(failure);
}

namespace {

// ISOVIEW_GPU_MEMORY_BUDGET_MB: the GPU memory a volume may take, in MB (10^6 bytes), instead of
// what the GPU reports free, the live surface's mesh getting what the volume leaves; 0 (no
// budget) when unset or not a positive number. Tests set it to refuse volumes or surfaces on
// any machine; users can keep room for other programs with it.
std::uint64_t memoryBudgetFromEnvironment()
{
    const QString text = qEnvironmentVariable("ISOVIEW_GPU_MEMORY_BUDGET_MB");
    if (text.isEmpty()) return 0;
    bool ok = false;
    const double megabytes = text.toDouble(&ok);
    if (!ok || !(megabytes > 0.0) || megabytes > 1e9) {
        log::get("app")->warn("ISOVIEW_GPU_MEMORY_BUDGET_MB='{}' is not a positive number of MB; "
                              "ignored",
                              text.toStdString());
        return 0;
    }
    log::get("app")->info("GPU memory budget {} MB (ISOVIEW_GPU_MEMORY_BUDGET_MB)", megabytes);
    return std::uint64_t(megabytes * 1e6);
}

} // namespace

QString FrameWorker::start()
{
    QString summary;
    gpu::SceneRenderer::Options options;
    options.memoryBudgetBytes = memoryBudgetFromEnvironment();
    if (options.memoryBudgetBytes != 0) {
        m_budgetNote = QStringLiteral("\n\nThe GPU memory budget is set by "
                                      "ISOVIEW_GPU_MEMORY_BUDGET_MB=%1.")
                           .arg(qEnvironmentVariable("ISOVIEW_GPU_MEMORY_BUDGET_MB"));
    }
    runOnRenderThread([&] {
        m_state->context = std::make_unique<gpu::HeadlessContext>();
        m_state->renderer = std::make_unique<gpu::SceneRenderer>(options);
        summary = QString::fromStdString(m_state->renderer->capabilities().summary());
        takeVolumeAdmission();
    });
    m_started = true;
    return summary;
}

void FrameWorker::uploadVolume(std::shared_ptr<const Volume> volume,
                               std::shared_ptr<const VolumeSeries> series)
{
    quint64 ticket = 0;
    if (series) {
        const std::lock_guard lock(m_timePointMutex);
        ticket = ++m_timePointTicket;
        m_timePointSeries = series.get();
    }
    QMetaObject::invokeMethod(
        m_threadObject, [this, volume = std::move(volume), series = std::move(series), ticket] {
            if (series) {
                const std::lock_guard lock(m_timePointMutex);
                if (ticket != m_timePointTicket && m_timePointSeries == series.get()) {
                    emit volumeUploaded(volume, QString(), true);
                    return;
                }
            }
            QString error;
            try {
                const std::size_t t = series ? series->indexOf(volume.get()) : 0;
                const bool timePoint = series && t < series->size();
                const bool nextTimePoint = timePoint && series == m_state->series;
                if (timePoint) {
                    m_state->renderer->setTimePoint(series, t);
                } else {
                    m_state->renderer->setVolume(*volume);
                }
                m_state->volume = volume;
                m_state->series = timePoint ? series : nullptr;
                m_state->viewRequest.reset(); // a frame of the old volume: never rendered again
                // The renderer forgets the label map with a new grid, not with a time point.
                if (!nextTimePoint) m_state->labelMap.reset();
                m_state->labelError.clear();
            } catch (const Error& e) {
                error = QString::fromUtf8(e.what()) + m_budgetNote;
            }
            takeVolumeAdmission(); // what the GPU has free has changed
            emit volumeUploaded(volume, error, false);
        });
}

void FrameWorker::takeVolumeAdmission()
{
    gpu::SceneRenderer::VolumeAdmission check = m_state->renderer->volumeAdmission();
    const std::string note = m_budgetNote.toStdString();
    std::lock_guard lock(m_admissionMutex);
    m_admission = [check = std::move(check), note](glm::uvec3 dims, ScalarType type) {
        try {
            check(dims, type);
        } catch (const Error& e) {
            throw InvalidInputError(e.what() + note);
        }
    };
}

gpu::SceneRenderer::VolumeAdmission FrameWorker::volumeAdmission() const
{
    std::lock_guard lock(m_admissionMutex);
    return m_admission;
}

CapturedSurface FrameWorker::capture(std::uint32_t surfaceId)
{
    CapturedSurface surface;
    runOnRenderThread([&] {
        if (!m_state->volume) return;
        renderViewSceneAgain(*m_state);
        surface = m_state->renderer->capture(surfaceId);
    });
    return surface;
}

void FrameWorker::captureLater(std::uint32_t surfaceId, quint64 ticket)
{
    // Queued behind the frames requested so far: it captures what they extracted.
    QMetaObject::invokeMethod(m_threadObject, [this, surfaceId, ticket] {
        auto captured = std::make_shared<SurfaceCapture>();
        try {
            if (m_state->volume) {
                renderViewSceneAgain(*m_state);
                captured->surface = m_state->renderer->capture(surfaceId);
                captured->volume = m_state->volume;
            }
        } catch (const Error& e) {
            captured->error = QString::fromUtf8(e.what());
        }
        emit surfaceCaptured(ticket, std::move(captured));
    });
}

std::optional<std::vector<LabelSurface>>
FrameWorker::captureLabels(const std::shared_ptr<const Volume>& labelMap)
{
    std::optional<std::vector<LabelSurface>> labels;
    runOnRenderThread([&] {
        if (!m_state->volume || !labelMap) return;
        renderViewSceneAgain(*m_state);
        if (m_state->labelMap == labelMap && m_state->labelError.isEmpty())
            labels = m_state->renderer->captureLabels();
    });
    return labels;
}

void FrameWorker::request(FrameRequest request)
{
    bool schedule = false;
    {
        std::lock_guard lock(m_mutex);
        m_pending = std::move(request);
        schedule = !std::exchange(m_scheduled, true);
    }
    if (schedule) QMetaObject::invokeMethod(m_threadObject, [this] { renderPending(); });
}

namespace {

// Renders one request on the render thread: hands its scene to the renderer (which does what
// changed since the scene before), renders into the offscreen target and reads it back. Throws
// Error.
std::shared_ptr<RenderedFrame> renderFrame(FrameWorker::RenderThreadState& s,
                                           const FrameRequest& request,
                                           std::unique_ptr<gpu::OffscreenTarget>& target);

} // namespace

void FrameWorker::renderPending()
{
    std::optional<FrameRequest> request;
    {
        std::lock_guard lock(m_mutex);
        request = std::exchange(m_pending, std::nullopt);
        m_scheduled = false;
    }
    if (!request || !m_state->renderer || !m_state->volume) return;
    try {
        emit frameReady(renderFrame(*m_state, *request, m_state->target));
        m_state->viewRequest = std::move(request);
        m_state->otherSceneRendered = false;
    } catch (const Error& e) {
        log::get("app")->error("rendering a frame failed: {}", e.what());
    }
}

std::shared_ptr<const RenderedFrame> FrameWorker::renderNow(const FrameRequest& request)
{
    std::shared_ptr<const RenderedFrame> frame;
    runOnRenderThread([&] {
        if (m_state->renderer && m_state->volume)
            frame = renderFrame(*m_state, request, m_state->target);
    });
    return frame;
}

void FrameWorker::renderImageLater(FrameRequest request, quint64 ticket)
{
    QMetaObject::invokeMethod(m_threadObject, [this, request = std::move(request), ticket] {
        std::shared_ptr<const RenderedFrame> frame;
        QString error;
        try {
            std::unique_ptr<gpu::OffscreenTarget> target; // the image's own, freed here
            if (m_state->renderer && m_state->volume) {
                m_state->otherSceneRendered = true;
                frame = renderFrame(*m_state, request, target);
            }
        } catch (const Error& e) {
            error = QString::fromUtf8(e.what());
        }
        emit imageRendered(ticket, std::move(frame), error);
    });
}

namespace {

std::shared_ptr<RenderedFrame> renderFrame(FrameWorker::RenderThreadState& s,
                                           const FrameRequest& request,
                                           std::unique_ptr<gpu::OffscreenTarget>& target)
{
    using Clock = std::chrono::steady_clock;
    const auto msSince = [](Clock::time_point from) {
        return std::chrono::duration<double, std::milli>(Clock::now() - from).count();
    };
    const Clock::time_point startedAt = Clock::now();
    double labelUploadMs = 0.0;
    const Scene& scene = request.scene;
    // A new label map goes to the GPU here, on the render thread, like every extraction: the
    // window keeps answering while a large one uploads (seconds for a 365-label atlas on
    // llvmpipe) and the frame shows it when it is done.
    std::shared_ptr<const Volume> labelMap = scene.labels ? scene.labels->labelMap : nullptr;
    if (labelMap != s.labelMap) {
        s.labelMap = labelMap;
        s.labelError.clear();
        try {
            s.renderer->setLabelMap(std::move(labelMap));
        } catch (const Error& e) {
            s.labelError = QString::fromUtf8(e.what());
        }
        labelUploadMs = msSince(startedAt);
    }
    const Clock::time_point renderStart = Clock::now();
    s.renderer->setScene(scene);
    const glm::ivec2 size = request.params.viewportSize;
    if (!target || target->width() != size.x || target->height() != size.y)
        target = std::make_unique<gpu::OffscreenTarget>(size.x, size.y);
    gpu::FrameParams params = request.params;
    params.targetFramebuffer = target->framebuffer();
    s.renderer->render(params);
    auto frame = std::make_shared<RenderedFrame>();
    // The frame is read in the window system's own 32-bit layout: the view paints it with a
    // plain copy. (RGBA8888 frames were converted pixel by pixel in every paint, on Qt's thread
    // pool, competing with the renderer for the CPU.) Opaque, unless the background was left
    // transparent: then its alpha, with premultiplied colour.
    frame->image = QImage(size.x, size.y,
                          params.transparentBackground ? QImage::Format_ARGB32_Premultiplied
                                                       : QImage::Format_RGB32);
    target->readPixelsBgra(frame->image.bits(), std::size_t(frame->image.bytesPerLine()));
    frame->image.mirror(); // GL's rows go bottom up
    frame->params = params;
    frame->requestedIsovalue = scene.liveIsovalue();
    frame->volume = scene.volume.get();
    frame->fullResolution = request.fullResolution;
    frame->renderMode = scene.renderMode;
    frame->orientationMarker = scene.orientationMarker;
    frame->crop = s.renderer->crop();
    frame->isovalue = s.renderer->renderedIsovalue();
    frame->livePreview = s.renderer->livePreviewShown();
    frame->surfaceUnconfirmed = s.renderer->surfaceUnconfirmed();
    frame->liveExtractions = s.renderer->liveExtractions();
    frame->labelExtractions = s.renderer->labelExtractions();
    frame->labelError = s.labelError;
    frame->vertexCount = s.renderer->pollVertexCount();
    if (const std::optional<std::string> error = s.renderer->surfaceError())
        frame->surfaceError = QString::fromStdString(*error);
    frame->gpuTimes = s.renderer->lastGpuTimes();
    frame->startedAt = startedAt;
    frame->labelUploadMs = labelUploadMs;
    frame->renderMs = msSince(renderStart);
    return frame;
}

void renderViewSceneAgain(FrameWorker::RenderThreadState& s)
{
    if (!s.otherSceneRendered || !s.viewRequest || !s.renderer) return;
    renderFrame(s, *s.viewRequest, s.target);
    s.otherSceneRendered = false;
}

} // namespace

} // namespace isoview::app
