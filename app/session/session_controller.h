// File > Save Session / Open Session: writes the scene (scene_model.h) as a Session
// (src/session/scene_session.h, session.h), and brings a saved one back into the scene. Opening
// reads and validates the whole file first (a bad file is an error dialog and changes nothing),
// asks where the volume went when it is no longer where the session says (Cancel changes nothing),
// loads it through the window's own background load (progress, Cancel, the previous volume
// usable meanwhile) and, once it is on screen, restores the rest into the scene in one change:
// the surfaces and their selection, the crop, the transfer function, the camera, the view's and
// the slice views' state, the measured distance. A restored session has nothing to undo.
//
// Session files end in ".isoview": one plain extension that file dialogs, drag and drop and a
// desktop MIME glob match without ambiguity (".json" would also match transfer functions).
//
// Thread: GUI only. It knows the scene and the window's loading (DocumentSource), not the
// window; the window tells it of loads through onVolumeLoaded and onLoadFailed.
#pragma once

#include "loading/document_source.h"
#include "scene_model.h"
#include "session/session.h"

#include <QObject>
#include <QString>
#include <optional>
#include <string>

class QAction;

namespace isoview::app {

class SessionController : public QObject {
    Q_OBJECT
public:
    // window: where its dialogs open (it owns the controller). The scene outlives it.
    SessionController(SceneModel* scene, DocumentSource documents, QWidget* window);

    QAction* saveAction() const { return m_saveAction; }
    QAction* openAction() const { return m_openAction; }

    // True for a path named like a session file (by its extension).
    static bool isSessionPath(const QString& path);

    // The scene as a session. Throws InvalidInputError when no volume is open.
    Session currentSession() const;
    // Writes the scene to path (atomically). Returns false and sets *error (when
    // given) on failure; emits sessionSaved on success.
    bool saveTo(const QString& path, QString* error);
    // Opens a session: reads and validates it (an error dialog when it is bad, the window
    // unchanged), asks for a volume that moved, loads the volume in the background and applies
    // the rest. Ends with sessionOpened or sessionFailed (also on Cancel).
    void open(const QString& path);
    // false (--screenshot): a session whose volume moved fails with why instead of asking
    // where it went.
    void setAsksQuestions(bool asks) { m_asksQuestions = asks; }
    // A session is loading its volume.
    bool isOpening() const { return m_pending.has_value(); }

    // The window's load finished (a volume is on screen) or failed: a session waiting for its
    // volume applies the rest, or gives up.
    void onVolumeLoaded();
    void onLoadFailed(const QString& message);

signals:
    // For the window's status bar.
    void statusMessage(const QString& text, int timeoutMs);
    void sessionSaved(const QString& path);
    void sessionOpened(const QString& path);
    void sessionFailed(const QString& message);

private:
    void saveDialog();
    void openDialog();
    // Where the session's volume is now: its path when it exists, else the user's answer to a
    // file dialog started at the session's folder (nullopt: cancelled).
    std::optional<QString> locateVolume(const Session& session, const QString& sessionPath);
    void apply(const Session& session);
    void finishPending();
    void fail(const QString& title, const QString& message);
    // A warning for the log, counted for the status bar's "N note(s)".
    void note(const std::string& message);
    QString startFolder() const;

    SceneModel* m_scene;
    DocumentSource m_documents;
    QWidget* m_window;
    QAction* m_saveAction = nullptr;
    QAction* m_openAction = nullptr;
    // The session whose volume is loading, and the file it came from.
    std::optional<Session> m_pending;
    QString m_pendingFile;
    QString m_pendingVolume;
    int m_notes = 0; // of the session being opened
    bool m_asksQuestions = true;
};

} // namespace isoview::app
