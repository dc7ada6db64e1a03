// The viewer's screenshots: File > Save Screenshot (the 3D view with its overlays, as PNG,
// starting in the last screenshot folder) and `isoview --screenshot FILE` (the whole window,
// saved once the volume's surface, or a session's surfaces, are on screen; a load or session
// that fails ends the wait with its reason, so the command line never waits for nothing).
//
// Thread: GUI only. Owned by the MainWindow it serves.
#pragma once

#include <QObject>
#include <QString>

namespace isoview::app {

class MainWindow;
class ViewportWidget;

class ScreenshotController : public QObject {
    Q_OBJECT
public:
    ScreenshotController(MainWindow* window, ViewportWidget* view);

    // Asks where to save (PNG) and saves the 3D view there; a failure is reported by failed.
    void saveDialog();
    // Writes the 3D view as PNG, atomically, and says so in the status bar. Returns false and
    // sets *error on failure.
    bool save(const QString& path, QString* error);
    // Saves the whole window as PNG at path once the surface of the volume (or the session)
    // being opened is on screen, then emits done(true, path); done(false, why) when the save,
    // the load or the session fails.
    void saveWindowWhenReady(const QString& path);

signals:
    void done(bool ok, const QString& pathOrError);
    // A failure of saveDialog's save, for the window's error dialog.
    void failed(const QString& title, const QString& message);

private:
    void onFrame(); // each time the frame statistics change
    void abandon(const QString& why);

    MainWindow* m_window;
    ViewportWidget* m_view;
    QString m_pending; // where saveWindowWhenReady saves
};

} // namespace isoview::app
