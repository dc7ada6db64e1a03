#include "export/movie_recorder.h"

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/log.h"
#include "video/movie_format.h"
#include "video/movie_writer.h"
#include "views/frame_worker.h"
#include "views/viewport_widget.h"

#include <QImage>
#include <QPointer>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <utility>

namespace isoview::app {

// Rendered frames on their way from the GUI thread to the encoder's task. The encoder waits
// for the next frame; the GUI renders ahead only while fewer than kDepth wait, and is told
// (through `taken`, posted to the GUI thread) each time the encoder takes one.
class MovieFrameQueue {
public:
    static constexpr std::size_t kDepth = 2;

    explicit MovieFrameQueue(std::function<void()> taken) : m_taken(std::move(taken)) {}

    // GUI thread.
    void push(QImage image)
    {
        {
            const std::lock_guard lock(m_mutex);
            m_images.push_back(std::move(image));
        }
        m_ready.notify_one();
    }
    void fail(const QString& why)
    {
        {
            const std::lock_guard lock(m_mutex);
            m_failure = why;
        }
        m_ready.notify_one();
    }
    bool hasRoom()
    {
        const std::lock_guard lock(m_mutex);
        return m_images.size() < kDepth;
    }
    // The GUI's side is going away: nothing is posted to it any more.
    void detach()
    {
        const std::lock_guard lock(m_mutex);
        m_taken = nullptr;
    }

    // The encoder's thread: the next frame. Throws CancelledError when the task is cancelled and
    // IoError when rendering failed.
    QImage pop(const TaskContext& context)
    {
        std::unique_lock lock(m_mutex);
        // Woken by push and fail; the timeout notices a cancel, which notifies nobody here.
        while (m_images.empty() && !m_failure && !context.cancelRequested())
            m_ready.wait_for(lock, std::chrono::milliseconds(50));
        if (context.cancelRequested()) throw CancelledError("the movie was cancelled");
        if (m_images.empty()) throw IoError(m_failure->toStdString());
        QImage image = std::move(m_images.front());
        m_images.pop_front();
        if (m_taken) m_taken();
        return image;
    }

private:
    std::mutex m_mutex;
    std::condition_variable m_ready;
    std::deque<QImage> m_images;
    std::optional<QString> m_failure;
    std::function<void()> m_taken;
};

MovieRecorder::MovieRecorder(ViewportWidget* view, QObject* parent) : QObject(parent), m_view(view)
{
    connect(&m_encoder, &BackgroundTask::progressChanged, this,
            [this](const QString&, qint64 done, qint64 total) {
                emit progressChanged(int(done), int(total));
            });
    connect(&m_encoder, &BackgroundTask::succeeded, this,
            [this] { end(true, m_request.path, false); });
    connect(&m_encoder, &BackgroundTask::failed, this,
            [this](const QString& why) { end(false, why, false); });
    connect(&m_encoder, &BackgroundTask::cancelled, this,
            [this] { end(false, tr("cancelled"), true); });
}

MovieRecorder::~MovieRecorder()
{
    if (m_queue) m_queue->detach();
    m_encoder.cancel();
}

std::optional<QString> MovieRecorder::problemWith(const MovieRequest& request)
{
    const int width = request.size.width();
    const int height = request.size.height();
    try {
        const video::MovieFormat format = video::movieFormatFor(request.path.toStdString());
        if (width < 1 || height < 1 || width > video::kMaxMovieSide ||
            height > video::kMaxMovieSide)
            return tr("A movie's frames are 1 to %1 pixels wide and high, not %2 x %3.")
                .arg(video::kMaxMovieSide)
                .arg(width)
                .arg(height);
        if (format == video::MovieFormat::Mp4H264 && (width % 2 != 0 || height % 2 != 0))
            return tr("An MP4 movie (H.264) needs an even width and height, not %1 x %2.")
                .arg(width)
                .arg(height);
        if (request.transparent && format != video::MovieFormat::PngSequence)
            return tr("Only PNG frames keep a transparent background (H.264 has no alpha).");
        // A missing folder, or a FIFO or device where the file would go: said before the
        // volume is read, not after.
        const std::filesystem::path path = request.path.toStdString();
        requireReplaceableDestination(
            format == video::MovieFormat::PngSequence ? video::numberedFramePath(path, 0) : path);
    } catch (const Error& e) {
        return QString::fromUtf8(e.what());
    }
    if (!(request.framesPerSecond > 0.0 && request.framesPerSecond <= 1000.0))
        return tr("A movie has more than 0 and at most 1000 frames a second.");
    return std::nullopt;
}

bool MovieRecorder::record(const Scene& start, const MovieRequest& request, QString* error)
{
    if (m_recording) {
        *error = tr("A movie is being recorded already.");
        return false;
    }
    if (const std::optional<QString> problem = problemWith(request)) {
        *error = *problem;
        return false;
    }
    video::MovieSettings settings;
    settings.width = request.size.width();
    settings.height = request.size.height();
    settings.framesPerSecond = request.framesPerSecond;

    m_start = start;
    m_request = request;
    if (request.animation.kind == MovieAnimationKind::TimePoints) {
        if (!start.series) {
            *error = tr("The volume has one time point: a movie of time needs a series of "
                        "volumes on one grid (a 4-D file, a series of time points).");
            return false;
        }
        if (request.framePerTimePoint) m_request.animation.frames = int(start.series->size());
    }
    m_facts.clear();
    ++m_movie;
    m_nextFrame = 0;
    m_rendering = false;
    m_recording = true;
    QPointer<MovieRecorder> self(this);
    m_queue = std::make_shared<MovieFrameQueue>([self] {
        QMetaObject::invokeMethod(
            self.data(),
            [self] {
                if (self) self->renderNext();
            },
            Qt::QueuedConnection);
    });
    const std::string path = request.path.toStdString();
    const int frames = m_request.animation.frames;
    m_encoder.start([queue = m_queue, path, settings, frames](TaskContext& context) {
        video::MovieWriter movie(path, settings);
        for (int i = 0; i < frames; ++i) {
            const QImage image = queue->pop(context).convertToFormat(QImage::Format_RGBA8888);
            movie.addFrame({image.constBits(), std::size_t(image.sizeInBytes())},
                           int(image.bytesPerLine()));
            context.progress("encoding", std::uint64_t(i) + 1, std::uint64_t(frames));
        }
        movie.finish();
    });
    log::get("app")->info("recording a movie of {} frames ({}) at {}x{} to {}", frames,
                          movieAnimationText(m_request.animation), settings.width, settings.height,
                          path);
    renderNext();
    return true;
}

void MovieRecorder::cancel()
{
    if (!m_recording) return;
    m_encoder.cancel();
}

void MovieRecorder::renderNext()
{
    if (!m_recording || m_rendering || m_nextFrame >= m_request.animation.frames ||
        !m_queue->hasRoom())
        return;
    const int frame = m_nextFrame++;
    m_rendering = true;
    Scene scene;
    try {
        scene = movieFrameScene(m_start, m_request.animation, frame);
    } catch (const Error& e) {
        m_queue->fail(QString::fromUtf8(e.what()));
        return;
    }
    render(frame, scene);
}

void MovieRecorder::render(int frame, const Scene& scene)
{
    if (scene.series && scene.volume != m_view->uploadedVolume()) {
        // Another time point: its values go to the GPU first (the window's frames wait
        // meanwhile; end() brings the window's own time point back).
        m_view->uploadVolume(
            scene.volume,
            [this, movie = m_movie, frame, scene](const std::optional<QString>& error) {
                if (movie != m_movie || !m_recording) return;
                if (error) {
                    m_rendering = false;
                    m_queue->fail(tr("Time point %1 cannot be shown: %2")
                                      .arg(scene.timePoint + 1)
                                      .arg(*error));
                    return;
                }
                render(frame, scene);
            },
            scene.series);
        return;
    }
    m_view->renderSceneLater(scene, m_request.size, m_request.transparent, this,
                             [this, movie = m_movie, frame](
                                 const std::shared_ptr<const RenderedFrame>& rendered,
                                 const QString& error) { onFrame(movie, frame, rendered, error); });
}

void MovieRecorder::onFrame(quint64 movie, int frame,
                            const std::shared_ptr<const RenderedFrame>& rendered,
                            const QString& error)
{
    // A frame of a movie that ended while it rendered: the next movie's would take its place
    // (its picture, of the old size, encoded as the new movie's first frame).
    if (movie != m_movie) return;
    m_rendering = false;
    if (!m_recording) return;
    if (!rendered) {
        m_queue->fail(tr("Frame %1 could not be rendered: %2").arg(frame + 1).arg(error));
        return;
    }
    MovieFrameFacts facts;
    facts.isovalue = rendered->isovalue;
    if (rendered->vertexCount) facts.triangles = quint64(*rendered->vertexCount / 3);
    m_facts.push_back(facts);
    emit frameRendered(frame, facts);
    m_queue->push(rendered->image);
    renderNext();
}

void MovieRecorder::end(bool ok, const QString& pathOrError, bool cancelled)
{
    m_recording = false;
    // A movie of time leaves the window's own time point on the GPU again.
    const Scene& shown = m_view->scene().scene();
    if (shown.volume && shown.volume != m_view->uploadedVolume())
        m_view->uploadVolume(shown.volume, nullptr, shown.series);
    if (m_queue) m_queue->detach();
    m_queue.reset();
    log::get("app")->info("movie {}: {}",
                          ok          ? "written"
                          : cancelled ? "cancelled"
                                      : "failed",
                          pathOrError.toStdString());
    emit finished(ok, pathOrError, cancelled);
}

} // namespace isoview::app
