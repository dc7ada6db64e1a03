// The viewer's screenshots: File > Save Screenshot (the 3D view with its overlays, as PNG,
// starting in the last screenshot folder) and `isoview --screenshot FILE` (the whole window,
// saved once the volume's surface, or a session's surfaces, are on screen; a load or session
// that fails ends the wait with its reason, so the command line never waits for nothing).
//
// Thread: GUI only. It knows the window only as a widget to grab; the window tells it when a
// load or a session fails (abandon).
#pragma once

#include <QObject>
#include <QString>
#include <functional>

namespace isoview::app {

class ViewportWidget;

class ScreenshotController : public QObject {
    Q_OBJECT
public:
    // window: what --screenshot grabs and where the dialog opens (it owns the controller).
    // ready: whether the window shows a volume and no session is still being opened.
    ScreenshotController(QWidget* window, ViewportWidget* view, std::function<bool()> ready);

    // Asks where to save (PNG) and saves the 3D view there; a failure is reported by failed.
    void saveDialog();
    // Writes the 3D view as PNG, atomically, and says so in the status bar. Returns false and
    // sets *error on failure.
    bool save(const QString& path, QString* error);
    // Saves the whole window as PNG at path once the surface of the volume (or the session)
    // being opened is on screen, then emits done(true, path); done(false, why) when the save,
    // the load or the session fails.
    void saveWindowWhenReady(const QString& path);

    // A load or session that was to be shot failed: the wait ends with done(false, why).
    void abandon(const QString& why);

signals:
    // For the window's status bar.
    void statusMessage(const QString& text, int timeoutMs);
    void done(bool ok, const QString& pathOrError);
    // A failure of saveDialog's save, for the window's error dialog.
    void failed(const QString& title, const QString& message);

private:
    void onFrame(); // each time the frame statistics change

    QWidget* m_window;
    ViewportWidget* m_view;
    std::function<bool()> m_ready;
    QString m_pending; // where saveWindowWhenReady saves
};

} // namespace isoview::app
