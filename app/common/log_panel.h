// The log panel: every isoview log line (engine, gl, io, app) as it happens, plus the log file
// on disk that error dialogs point to. Lines logged on any thread reach the panel through a
// queued signal, so loaders in the background never touch widgets.
#pragma once

#include <QPlainTextEdit>
#include <QString>
#include <memory>

namespace isoview::app {

class LogPanel : public QPlainTextEdit {
    Q_OBJECT
public:
    explicit LogPanel(QWidget* parent = nullptr);

    // Routes the engine's loggers into this panel (once per panel; the sink holds a guarded
    // pointer, so lines logged after the panel is gone are dropped).
    void attachToEngineLog();

public slots:
    void appendLine(const QString& line, int level);

private:
    static constexpr int kMaxLines = 5000;
};

// Adds a rotating log file under the user's data folder to every logger and returns its path
// (empty when it cannot be created; the viewer still runs). Called once at start-up.
QString startLogFile();
// The path startLogFile() returned, for error dialogs.
QString logFilePath();

} // namespace isoview::app
