// One movie: each frame's scene (scene/movie_animation.h) rendered off screen on the render
// thread at the movie's size, whatever the window's, and encoded on a background task
// (video/movie_writer.h: H.264 MP4 or numbered PNGs). Rendering frame i + 1 overlaps encoding
// frame i; at most two rendered frames wait for the encoder, so memory stays a few frames
// whatever the movie's length. A failed or cancelled movie leaves nothing at its destination.
//
// Thread: GUI only; the window keeps answering while a movie records (it can even be edited:
// the movie goes on from the scene it started with).
//
// Example:
//   recorder->record(view->scene().scene(), {"turn.mp4", QSize(1280, 720), 30.0,
//                                             parseMovieAnimation("rotate", 120)});
//   connect(recorder, &MovieRecorder::finished, ...);
#pragma once

#include "common/background_task.h"
#include "scene/movie_animation.h"
#include "scene/scene.h"

#include <QObject>
#include <QSize>
#include <QString>
#include <memory>
#include <optional>
#include <vector>

namespace isoview::app {

class ViewportWidget;
class MovieFrameQueue;
struct RenderedFrame;

struct MovieRequest {
    QString path; // .mp4, or .png for numbered PNGs (video/movie_format.h)
    QSize size;   // pixels; even for MP4
    double framesPerSecond = 30.0;
    MovieAnimation animation;
    bool transparent = false; // PNGs only: no background
    // Time points: one frame each, whatever animation.frames says (the command line's default).
    bool framePerTimePoint = false;
};

// What one rendered frame showed: the live surface's isovalue (real units) and triangles, when
// the GPU said (none without a surface, or in a mode that draws none).
struct MovieFrameFacts {
    std::optional<double> isovalue;
    std::optional<quint64> triangles;
};

class MovieRecorder : public QObject {
    Q_OBJECT
public:
    explicit MovieRecorder(ViewportWidget* view, QObject* parent = nullptr);
    ~MovieRecorder() override; // cancels a movie in progress (nothing is left of it)

    // Why request cannot be recorded (its file's kind, its size, a transparent MP4, a missing
    // folder or a FIFO or device at the path), or none: what the writer would refuse only once
    // opened, said before anything is rendered. Reads the file system (a few stat calls).
    static std::optional<QString> problemWith(const MovieRequest& request);

    // Records `start` animated as request says. Returns false, with why in *error, when one is
    // recording already or the request cannot be written (format, size); otherwise progress and
    // exactly one finished follow.
    bool record(const Scene& start, const MovieRequest& request, QString* error);
    void cancel();
    bool isRecording() const { return m_recording; }
    // Each frame rendered so far, in order.
    const std::vector<MovieFrameFacts>& frames() const { return m_facts; }

signals:
    // A frame was rendered (frame from 0).
    void frameRendered(int frame, const isoview::app::MovieFrameFacts& facts);
    // Frames encoded of all.
    void progressChanged(int encoded, int frames);
    // ok: the movie is complete at pathOrError; else why (cancelled says "cancelled").
    void finished(bool ok, const QString& pathOrError, bool cancelled);

private:
    void renderNext();
    // Renders the frame's scene; a time point other than the one on the GPU goes there first.
    void render(int frame, const Scene& scene);
    void onFrame(quint64 movie, int frame, const std::shared_ptr<const RenderedFrame>& rendered,
                 const QString& error);
    void end(bool ok, const QString& pathOrError, bool cancelled);

    ViewportWidget* m_view;
    BackgroundTask m_encoder;
    std::shared_ptr<MovieFrameQueue> m_queue;
    Scene m_start;
    MovieRequest m_request;
    std::vector<MovieFrameFacts> m_facts;
    // Counts the movies record() started: a frame of an earlier one (cancelled or failed while it
    // was on the render thread) that comes back during the next is dropped.
    quint64 m_movie = 0;
    int m_nextFrame = 0;
    bool m_rendering = false; // a frame of this movie is on the render thread
    bool m_recording = false;
};

} // namespace isoview::app
