// The viewer's screenshots: File > Save Screenshot (its dialog asks the size: the 3D view as
// shown with its overlays, or any size rendered off screen, the background transparent if
// wanted; PNG, starting in the last screenshot folder) and `isoview --screenshot FILE` (the
// whole window, or with --size the 3D view alone at that size, saved once the volume's surface,
// or a session's surfaces, are on screen; a load or session that fails ends the wait with its
// reason, so the command line never waits for nothing). Off-screen pictures are rendered on the
// render thread: the window keeps answering while a 4K volume rendering takes seconds.
//
// Thread: GUI only. It knows the window only as a widget to grab; the window tells it when a
// load or a session fails (abandon).
#pragma once

#include <QObject>
#include <QSize>
#include <QString>
#include <functional>
#include <optional>

namespace isoview::app {

class ViewportWidget;

class ScreenshotController : public QObject {
    Q_OBJECT
public:
    // window: what --screenshot grabs and where the dialog opens (it owns the controller).
    // ready: whether the window shows a volume and no session is still being opened.
    ScreenshotController(QWidget* window, ViewportWidget* view, std::function<bool()> ready);

    // Asks the size and where to save (PNG) and saves the 3D view there; a failure is reported
    // by failed.
    void saveDialog();
    // Writes the 3D view as shown as PNG, atomically, and says so in the status bar. Returns
    // false and sets *error on failure.
    bool save(const QString& path, QString* error);
    // Renders the 3D view's scene off screen at size (transparent: no background) and writes
    // it as PNG without waiting; saved(path) or failed follows.
    void saveRendered(const QString& path, QSize size, bool transparent);
    // Saves the whole window as PNG at path (with a size or transparent: the 3D view alone,
    // rendered at that size, else its own) once the surface of the volume (or the session) being
    // opened is on screen, then emits done(true, path); done(false, why) when the save, the load or
    // the session fails.
    void saveWindowWhenReady(const QString& path, std::optional<QSize> size = std::nullopt,
                             bool transparent = false);

    // A load or session that was to be shot failed: the wait ends with done(false, why).
    void abandon(const QString& why);

signals:
    // For the window's status bar.
    void statusMessage(const QString& text, int timeoutMs);
    void done(bool ok, const QString& pathOrError);
    // A failure of saveDialog's save, for the window's error dialog.
    void failed(const QString& title, const QString& message);
    // saveRendered wrote its picture.
    void saved(const QString& path);

private:
    void onFrame(); // each time the frame statistics change

    QWidget* m_window;
    ViewportWidget* m_view;
    std::function<bool()> m_ready;
    // Writes an off-screen picture of the view; done(ok, pathOrError) on the GUI thread.
    void renderAndSave(const QString& path, QSize size, bool transparent,
                       std::function<void(bool, const QString&)> done);

    QString m_pending; // where saveWindowWhenReady saves
    std::optional<QSize> m_pendingSize;
    bool m_pendingTransparent = false;
};

} // namespace isoview::app
