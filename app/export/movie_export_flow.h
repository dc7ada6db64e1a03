// File > Export Movie... (Ctrl+Shift+M): MovieDialog's animation, length and size, then the
// file (MP4 or numbered PNGs, starting in the last movie folder), then the movie recorded from
// the scene as it is (MovieRecorder) with its progress and Cancel in the status bar, and a
// status message or an error dialog at the end. A failed or cancelled movie leaves no file.
//
// Thread: GUI only. Owned by the window it serves.
#pragma once

#include "export/movie_recorder.h"

#include <QObject>
#include <QString>
#include <functional>
#include <optional>

class QAction;
class QLabel;
class QMainWindow;
class QProgressBar;
class QWidget;

namespace isoview::app {

class MovieRecorder;
class ViewportWidget;

class MovieExportFlow : public QObject {
    Q_OBJECT
public:
    // ready: whether the window shows a volume and no session is still being opened.
    MovieExportFlow(QMainWindow* window, ViewportWidget* view, std::function<bool()> ready);

    // File > Export Movie...; enabled while a volume is shown (setEnabled).
    QAction* action() const { return m_action; }
    // The progress (label, bar, Cancel) for the window's status bar; shown while recording.
    QWidget* progressWidget() const { return m_progress; }
    MovieRecorder* recorder() const { return m_recorder; }

    void dialog();
    // Records the scene on screen as request says; finished follows (failures: failed first).
    void recordTo(const MovieRequest& request);
    void cancel();
    // `isoview --movie`: records once the volume (or session) being opened is on screen, in a
    // window that need not be shown; a load or session that fails ends it (abandon). Its
    // failures end in finished alone, for the command line to print: no dialog.
    void recordWhenReady(const MovieRequest& request);
    void abandon(const QString& why);

signals:
    void finished(bool ok, const QString& pathOrError);
    // For the window's error dialog.
    void failed(const QString& title, const QString& message);

private:
    void onFrame(); // each time the frame statistics change

    QMainWindow* m_window;
    ViewportWidget* m_view;
    std::function<bool()> m_ready;
    std::optional<MovieRequest> m_pending; // recordWhenReady's
    bool m_commandLine = false; // recordWhenReady's movie: its failure goes to stderr, no dialog
    MovieRecorder* m_recorder;
    QAction* m_action;
    QWidget* m_progress = nullptr;
    QLabel* m_progressLabel = nullptr;
    QProgressBar* m_progressBar = nullptr;
};

} // namespace isoview::app
