#include "export/movie_export_flow.h"

#include "common/output_folders.h"
#include "common/status_progress.h"
#include "export/movie_dialog.h"
#include "export/movie_recorder.h"
#include "video/movie_format.h"
#include "views/viewport_widget.h"

#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMainWindow>
#include <QProgressBar>
#include <QStatusBar>
#include <QToolButton>
#include <utility>

namespace isoview::app {

MovieExportFlow::MovieExportFlow(QMainWindow* window, ViewportWidget* view,
                                 std::function<bool()> ready)
    : QObject(window), m_window(window), m_view(view), m_ready(std::move(ready)),
      m_recorder(new MovieRecorder(view, this))
{
    connect(m_view, &ViewportWidget::frameStatsChanged, this, &MovieExportFlow::onFrame);
    m_action = new QAction(tr("Export &Movie..."), this);
    m_action->setObjectName("exportMovieAction");
    m_action->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_M));
    m_action->setStatusTip(
        tr("Record a turn of the view, an isovalue sweep or a slice sweep as MP4 or PNG frames"));
    m_action->setEnabled(false);
    connect(m_action, &QAction::triggered, this, &MovieExportFlow::dialog);

    QToolButton* cancelButton = nullptr;
    m_progress = makeProgressWidget(window, &m_progressLabel, &m_progressBar, &cancelButton);
    m_progress->setObjectName("movieProgress");
    connect(cancelButton, &QToolButton::clicked, this, &MovieExportFlow::cancel);
    connect(m_recorder, &MovieRecorder::progressChanged, this, [this](int done, int total) {
        m_progressLabel->setText(tr("Movie: frame %1 of %2").arg(done).arg(total));
        showProgress(m_progressBar, done, total);
    });
    connect(
        m_recorder, &MovieRecorder::finished, this,
        [this](bool ok, const QString& pathOrError, bool cancelled) {
            m_progress->hide();
            if (ok) {
                rememberOutputFolder(OutputKind::Movie, pathOrError);
                m_window->statusBar()->showMessage(tr("Saved the movie %1").arg(pathOrError), 8000);
            } else if (cancelled) {
                m_window->statusBar()->showMessage(tr("Movie cancelled; no file was left"), 6000);
            } else if (!m_commandLine) {
                emit failed(tr("Cannot export the movie"), pathOrError);
            }
            emit finished(ok, pathOrError);
        });
}

void MovieExportFlow::dialog()
{
    const Scene& scene = m_view->scene().scene();
    if (!scene.volume) return;
    if (m_recorder->isRecording()) {
        m_window->statusBar()->showMessage(tr("A movie is being recorded; wait or cancel it"),
                                           5000);
        return;
    }
    const ValueRange range = scene.volume->realRange();
    MovieDialog options(scene.liveIsovalue(), range.min, range.max, scene.timePointCount(),
                        m_window);
    if (options.exec() != QDialog::Accepted) return;
    const MovieOptions chosen = options.options();
    const QString mp4Filter = tr("MP4 video, H.264 (*.mp4)");
    const QString pngFilter = tr("Numbered PNG frames (*.png)");
    QString filter = mp4Filter;
    const QString start = QDir(outputFolder(OutputKind::Movie)).filePath("isoview.mp4");
    QString file = QFileDialog::getSaveFileName(m_window, tr("Export Movie"), start,
                                                mp4Filter + ";;" + pngFilter, &filter);
    if (file.isEmpty()) return;
    // A name typed without an extension takes the chosen filter's.
    if (QFileInfo(file).suffix().isEmpty()) file += filter == pngFilter ? ".png" : ".mp4";
    MovieRequest request;
    request.path = file;
    request.size = chosen.size;
    request.framesPerSecond = chosen.framesPerSecond;
    request.animation = chosen.animation;
    recordTo(request);
}

void MovieExportFlow::recordTo(const MovieRequest& request)
{
    QString error;
    if (!m_recorder->record(m_view->scene().scene(), request, &error)) {
        if (!m_commandLine) emit failed(tr("Cannot export the movie"), error);
        emit finished(false, error);
        return;
    }
    m_progressLabel->setText(tr("Movie: frame 0 of %1").arg(request.animation.frames));
    m_progressBar->setRange(0, 1000);
    m_progressBar->setValue(0);
    m_progress->show();
}

void MovieExportFlow::cancel()
{
    m_recorder->cancel();
}

void MovieExportFlow::recordWhenReady(const MovieRequest& request)
{
    m_pending = request;
    m_commandLine = true;
    // A window that is not shown starts no render thread of its own.
    if (!m_view->startHidden()) abandon(tr("The 3D view has no OpenGL context."));
}

void MovieExportFlow::onFrame()
{
    // A session's surfaces and crop come after its volume, whose first frames can come without
    // them: the movie starts from a frame that has them.
    if (!m_pending || !m_ready() || !m_view->showsCurrentSurface()) return;
    const MovieRequest request = *std::exchange(m_pending, std::nullopt);
    recordTo(request);
}

void MovieExportFlow::abandon(const QString& why)
{
    if (!m_pending) return;
    m_pending.reset();
    emit finished(false, why);
}

} // namespace isoview::app
