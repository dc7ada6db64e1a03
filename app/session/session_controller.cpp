#include "session/session_controller.h"

#include "common/error_dialog.h"
#include "common/log_panel.h"
#include "core/error.h"
#include "core/log.h"
#include "loading/volume_document.h"
#include "session/scene_session.h"

#include <QAction>
#include <QActionGroup>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace isoview::app {
namespace {

constexpr const char* kLastFolderKey = "session/lastFolder";

QString sessionFilter()
{
    return QObject::tr("isoview session (*%1)")
        .arg(QString::fromUtf8(kSessionExtension.data(), int(kSessionExtension.size())));
}

std::filesystem::path toPath(const QString& path)
{
    return std::filesystem::path(path.toStdString());
}

QString toQString(const std::filesystem::path& path)
{
    return QString::fromStdString(path.string());
}

} // namespace

SessionController::SessionController(SceneModel* scene, DocumentSource documents, QWidget* window)
    : QObject(window), m_scene(scene), m_documents(std::move(documents)), m_window(window)
{
    // Ctrl+Shift+S and Ctrl+Shift+O already save a screenshot and open a DICOM folder.
    m_saveAction = new QAction(tr("Save Sessio&n..."), this);
    m_saveAction->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_S));
    m_saveAction->setStatusTip(
        tr("Save the volume, surfaces, transfer function, camera, crop box and distance to a "
           "file"));
    m_saveAction->setEnabled(false);
    connect(m_saveAction, &QAction::triggered, this, &SessionController::saveDialog);

    m_openAction = new QAction(tr("Open Sess&ion..."), this);
    m_openAction->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_O));
    m_openAction->setStatusTip(tr("Open a saved session: its volume and how it was shown"));
    connect(m_openAction, &QAction::triggered, this, &SessionController::openDialog);
}

bool SessionController::isSessionPath(const QString& path)
{
    return path.endsWith(QString::fromUtf8(kSessionExtension.data(), int(kSessionExtension.size())),
                         Qt::CaseInsensitive);
}

QString SessionController::startFolder() const
{
    QString last = QSettings().value(kLastFolderKey).toString();
    if (!last.isEmpty() && QFileInfo(last).isDir()) return last;
    return QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
}

// ---- saving ---------------------------------------------------------------------------------

Session SessionController::currentSession() const
{
    const VolumeDocument* doc = m_documents.current();
    if (!doc) throw InvalidInputError("no volume is open: there is no session to save");
    SessionVolume volume;
    const QFileInfo source(doc->path);
    volume.path = toPath(source.absoluteFilePath());
    volume.folder = source.isDir();
    volume.seriesIndex = doc->options.seriesIndex;
    // A series on one grid comes back at the time point shown: its own entry is the one loaded
    // first when the session opens (loadVolumeDocument), the others around it.
    const Scene& scene = m_scene->scene();
    if (doc->series && scene.series == doc->series && scene.timePoint < doc->seriesEntries.size())
        volume.seriesIndex = doc->seriesEntries[scene.timePoint];
    if (doc->format == io::VolumeFormat::Dicom)
        volume.seriesUid = doc->volume->metadata().seriesInstanceUid;
    volume.raw = doc->options.raw;
    return sessionFromScene(m_scene->scene(), volume);
}

bool SessionController::saveTo(const QString& path, QString* error)
{
    try {
        saveSession(toPath(path), currentSession());
    } catch (const Error& e) {
        if (error) *error = QString::fromUtf8(e.what());
        return false;
    }
    QSettings().setValue(kLastFolderKey, QFileInfo(path).absolutePath());
    log::get("app")->info("saved session {}", path.toStdString());
    emit statusMessage(tr("Saved session %1").arg(path), 5000);
    emit sessionSaved(path);
    return true;
}

void SessionController::saveDialog()
{
    const VolumeDocument* doc = m_documents.current();
    if (!doc) return;
    const QString name = QFileInfo(doc->path).completeBaseName() +
                         QString::fromUtf8(kSessionExtension.data(), int(kSessionExtension.size()));
    QString path = QFileDialog::getSaveFileName(
        m_window, tr("Save Session"), QDir(startFolder()).filePath(name), sessionFilter());
    if (path.isEmpty()) return;
    if (!isSessionPath(path))
        path += QString::fromUtf8(kSessionExtension.data(), int(kSessionExtension.size()));
    QString error;
    if (!saveTo(path, &error)) fail(tr("Cannot save the session"), error);
}

// ---- opening --------------------------------------------------------------------------------

void SessionController::openDialog()
{
    const QString path = QFileDialog::getOpenFileName(m_window, tr("Open Session"), startFolder(),
                                                      sessionFilter() + ";;" + tr("All files (*)"));
    if (!path.isEmpty()) open(path);
}

void SessionController::open(const QString& path)
{
    if (m_documents.isLoading() || m_pending) {
        fail(tr("Busy"), tr("A volume is still loading. Cancel it first, or wait."));
        return;
    }
    // All of the file is read and checked before anything in the window changes.
    Session session;
    std::vector<std::string> warnings;
    try {
        session = loadSession(toPath(path), &warnings);
    } catch (const Error& e) {
        fail(tr("Cannot open the session %1").arg(QFileInfo(path).fileName()),
             QString::fromUtf8(e.what()));
        return;
    }
    m_notes = 0;
    for (const std::string& w : warnings)
        note(w);
    QSettings().setValue(kLastFolderKey, QFileInfo(path).absolutePath());

    const std::optional<QString> volume = locateVolume(session, path);
    if (!volume && !m_asksQuestions) {
        fail(tr("Cannot open the session %1").arg(QFileInfo(path).fileName()),
             tr("its volume %1 is not there any more").arg(toQString(session.volume.path)));
        return;
    }
    if (!volume) {
        emit statusMessage(tr("Session not opened: its volume was not found"), 6000);
        emit sessionFailed(tr("cancelled"));
        return;
    }
    // A session that names a session (itself, say) as its volume would be opened as a session
    // again, while this one is pending, and end in "Busy".
    if (isSessionPath(*volume)) {
        fail(tr("Cannot open the session %1").arg(QFileInfo(path).fileName()),
             tr("its volume %1 is a session file, not a volume").arg(*volume));
        return;
    }
    session.volume.path = toPath(*volume);
    m_pending = session;
    m_pendingFile = path;
    m_pendingVolume = *volume;
    io::LoadOptions options;
    options.seriesIndex = session.volume.seriesIndex;
    options.raw = session.volume.raw;
    m_documents.open(*volume, session.isovalue, options);
}

std::optional<QString> SessionController::locateVolume(const Session& session,
                                                       const QString& sessionPath)
{
    const QString saved = toQString(session.volume.path);
    std::error_code ec;
    if (std::filesystem::exists(session.volume.path, ec)) return saved;

    if (!m_asksQuestions) return std::nullopt; // open() says why
    const QString folder = QFileInfo(sessionPath).absolutePath();
    const QString name = QFileInfo(saved).fileName();
    log::get("app")->warn("session {}: its volume {} is not there any more; asking for it",
                          sessionPath.toStdString(), saved.toStdString());
    QFileDialog dialog(m_window, tr("Where is %1? (it was at %2)").arg(name, saved), folder);
    dialog.setObjectName("locateVolumeDialog");
    dialog.setAcceptMode(QFileDialog::AcceptOpen);
    if (session.volume.folder) {
        dialog.setFileMode(QFileDialog::Directory);
        dialog.setOption(QFileDialog::ShowDirsOnly);
    } else {
        dialog.setFileMode(QFileDialog::ExistingFile);
        dialog.setNameFilters({tr("%1 (%1)").arg(name), tr("All files (*)")});
    }
    if (dialog.exec() != QDialog::Accepted || dialog.selectedFiles().isEmpty()) return std::nullopt;
    return dialog.selectedFiles().first();
}

void SessionController::onVolumeLoaded()
{
    m_saveAction->setEnabled(m_documents.current() != nullptr);
    if (!m_pending) return;
    const VolumeDocument* doc = m_documents.current();
    // Another load (not this session's) finished: the session no longer applies.
    if (!doc || QFileInfo(doc->path) != QFileInfo(m_pendingVolume)) {
        finishPending();
        emit sessionFailed(tr("another volume was opened"));
        return;
    }
    const Session session = *m_pending;
    const QString file = m_pendingFile;
    finishPending();
    apply(session);
    log::get("app")->info("opened session {}", file.toStdString());
    emit statusMessage(m_notes == 0
                           ? tr("Opened session %1").arg(file)
                           : tr("Opened session %1; %2 note(s), see the log panel (Ctrl+L)")
                                 .arg(file)
                                 .arg(m_notes),
                       m_notes == 0 ? 5000 : 10000);
    emit sessionOpened(file);
}

void SessionController::onLoadFailed(const QString& message)
{
    if (!m_pending) return;
    finishPending(); // the window showed the loader's error and kept its volume
    emit sessionFailed(message);
}

void SessionController::finishPending()
{
    m_pending.reset();
    m_pendingFile.clear();
    m_pendingVolume.clear();
}

void SessionController::apply(const Session& session)
{
    std::vector<std::string> notes;
    // One change of the scene: every panel, view and the renderer follow it at once, and the
    // history starts empty (a restored session has nothing to undo).
    m_scene->restore(sceneFromSession(session, m_scene->scene(), &notes));
    for (const std::string& n : notes)
        note(n);
    if (!session.labels || !m_documents.openLabels) return;
    // The label map loads in the background like the volume; its styles follow once it is in.
    const SessionLabels saved = *session.labels;
    const QString table = saved.table ? QString::fromStdString(saved.table->string()) : QString();
    m_documents.openLabels(QString::fromStdString(saved.path.string()), table, [this, saved] {
        if (!m_scene->scene().labels) return;
        LabelLayer layer = *m_scene->scene().labels;
        std::vector<std::string> labelNotes;
        applySessionLabels(saved, layer, &labelNotes);
        m_scene->setLabelStyles(layer.styles);
        m_scene->selectLabel(layer.selected);
        m_scene->setLabelSmoothing(layer.smoothingSigmaMm); // made in the background
        m_scene->history()->clear(); // a restored session has nothing to undo
        for (const std::string& n : labelNotes)
            note(n);
    });
}

void SessionController::note(const std::string& message)
{
    log::get("app")->warn("{}", message);
    ++m_notes;
}

void SessionController::fail(const QString& title, const QString& message)
{
    showErrorDialog(m_window, title, message);
    emit sessionFailed(message);
}

} // namespace isoview::app
