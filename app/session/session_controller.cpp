#include "session/session_controller.h"

#include "common/log_panel.h"
#include "core/error.h"
#include "core/log.h"
#include "crop/crop_panel.h"
#include "main_window.h"
#include "measure/distance_tool.h"
#include "measure/measurements.h"
#include "surfaces/isovalue_panel.h"
#include "surfaces/surface_list_panel.h"
#include "transfer_function/transfer_function_panel.h"
#include "view_layout.h"

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

gpu::RenderMode toRenderMode(SessionRenderMode mode)
{
    switch (mode) {
    case SessionRenderMode::Surface: return gpu::RenderMode::Surface;
    case SessionRenderMode::Volume: return gpu::RenderMode::Volume;
    case SessionRenderMode::SurfaceAndVolume: return gpu::RenderMode::SurfaceAndVolume;
    }
    return gpu::RenderMode::Surface;
}

SessionRenderMode toSessionMode(gpu::RenderMode mode)
{
    switch (mode) {
    case gpu::RenderMode::Surface: return SessionRenderMode::Surface;
    case gpu::RenderMode::Volume: return SessionRenderMode::Volume;
    case gpu::RenderMode::SurfaceAndVolume: return SessionRenderMode::SurfaceAndVolume;
    }
    return SessionRenderMode::Surface;
}

constexpr std::pair<ViewLayout::Layout, std::string_view> kLayoutNames[] = {
    {ViewLayout::Layout::Grid2x2, "2x2"},
    {ViewLayout::Layout::Row1x3, "1x3"},
    {ViewLayout::Layout::ThreeDOnly, "3d"},
};

} // namespace

SessionController::SessionController(MainWindow* window) : QObject(window), m_window(window)
{
    // Ctrl+Shift+S and Ctrl+Shift+O already save a screenshot and open a DICOM folder.
    m_saveAction = new QAction(tr("Save Sessio&n..."), this);
    m_saveAction->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_S));
    m_saveAction->setStatusTip(
        tr("Save the volume, surfaces, transfer function, camera, crop box and distance to a "
           "file"));
    m_saveAction->setEnabled(false);
    connect(m_saveAction, &QAction::triggered, this, &SessionController::saveDialog);
    connect(m_window, &MainWindow::volumeLoaded, this,
            [this] { m_saveAction->setEnabled(m_window->document() != nullptr); });

    m_openAction = new QAction(tr("Open Sess&ion..."), this);
    m_openAction->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_O));
    m_openAction->setStatusTip(tr("Open a saved session: its volume and how it was shown"));
    connect(m_openAction, &QAction::triggered, this, &SessionController::openDialog);

    connect(m_window, &MainWindow::volumeLoaded, this, &SessionController::onVolumeLoaded);
    connect(m_window, &MainWindow::loadFailed, this, &SessionController::onLoadFailed);
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
    const VolumeDocument* doc = m_window->document();
    if (!doc) throw InvalidInputError("no volume is open: there is no session to save");
    Session s;
    const QFileInfo source(doc->path);
    s.volume.path = toPath(source.absoluteFilePath());
    s.volume.folder = source.isDir();
    s.volume.seriesIndex = doc->options.seriesIndex;
    if (doc->format == io::VolumeFormat::Dicom)
        s.volume.seriesUid = doc->volume->metadata().seriesInstanceUid;
    s.volume.raw = doc->options.raw;

    ViewportWidget* view = m_window->viewport();
    s.isovalue = m_window->isovaluePanel()->isovalue();
    const SurfaceList& surfaces = m_window->surfaceListPanel()->surfaces();
    s.surfaces = surfaces.surfaces();
    for (Surface& surface : s.surfaces)
        surface.id = 0; // a session names surfaces by position
    s.selectedSurface = surfaces.selectedIndex();
    if (const std::vector<glm::dvec3>& p = m_window->measurements()->distanceTool()->points();
        p.size() == 2)
        s.distance = std::array<glm::dvec3, 2>{p[0], p[1]};
    s.transferFunction = m_window->transferFunctionPanel()->transferFunction();
    s.camera = view->camera().pose();
    const VoxelBox crop = m_window->cropPanel()->box();
    if (crop != VoxelBox::whole(doc->volume->dims())) s.crop = crop;
    s.renderMode = toSessionMode(view->renderMode());
    s.orientationMarker = m_window->orientationMarkerAction()->isChecked();
    if (const std::optional<QColor> c = m_window->surfaceColorOverride())
        s.surfaceColor = glm::vec3(float(c->redF()), float(c->greenF()), float(c->blueF()));
    if (const ViewLayout* views = m_window->viewLayout()) {
        SessionSliceViews slices;
        for (const auto& [layout, name] : kLayoutNames) {
            if (layout == views->layout()) slices.layout = name;
        }
        slices.windowCenter = views->windowLevel().center;
        slices.windowWidth = views->windowLevel().width;
        slices.crosshair = views->crosshair();
        s.sliceViews = slices;
    }
    return s;
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
    m_window->statusBar()->showMessage(tr("Saved session %1").arg(path), 5000);
    emit sessionSaved(path);
    return true;
}

void SessionController::saveDialog()
{
    const VolumeDocument* doc = m_window->document();
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
    if (m_window->isLoading() || m_pending) {
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
    if (!volume) {
        m_window->statusBar()->showMessage(tr("Session not opened: its volume was not found"),
                                           6000);
        emit sessionFailed(tr("cancelled"));
        return;
    }
    session.volume.path = toPath(*volume);
    m_pending = session;
    m_pendingFile = path;
    m_pendingVolume = *volume;
    io::LoadOptions options;
    options.seriesIndex = session.volume.seriesIndex;
    options.raw = session.volume.raw;
    m_window->openPath(*volume, session.isovalue, options);
}

std::optional<QString> SessionController::locateVolume(const Session& session,
                                                       const QString& sessionPath)
{
    const QString saved = toQString(session.volume.path);
    std::error_code ec;
    if (std::filesystem::exists(session.volume.path, ec)) return saved;

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
    if (!m_pending) return;
    const VolumeDocument* doc = m_window->document();
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
    m_window->statusBar()->showMessage(
        m_notes == 0 ? tr("Opened session %1").arg(file)
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
    const VolumeDocument* doc = m_window->document();
    const Volume& volume = *doc->volume;
    if (!session.volume.seriesUid.empty() &&
        session.volume.seriesUid != volume.metadata().seriesInstanceUid) {
        note("session: series " + std::to_string(session.volume.seriesIndex.value_or(0)) +
             " is now " + volume.metadata().seriesInstanceUid + ", not " +
             session.volume.seriesUid + " as when the session was saved");
    }
    m_window->isovaluePanel()->setIsovalue(session.isovalue);
    // The surfaces before the transfer function below, which clears the edit history, and
    // before the crop, whose frame then extracts every surface once.
    try {
        m_window->surfaceListPanel()->restore(session.surfaces, session.selectedSurface);
    } catch (const Error& e) { // loadSession has checked them; a session built in code may not
        note(std::string("session: its surfaces were not applied: ") + e.what());
    }
    if (session.crop) {
        if (session.crop->fitsIn(volume.dims()))
            m_window->cropPanel()->setBox(*session.crop);
        else
            note("session: the crop box does not fit the volume; not applied");
    }
    // After the crop: setting the transfer function clears the edit history, so a restored
    // session starts with nothing to undo.
    TransferFunctionPanel* tf = m_window->transferFunctionPanel();
    tf->setTransferFunction(session.transferFunction.size() > 0 ? session.transferFunction
                                                                : tf->transferFunction());
    for (QAction* a : m_window->renderModeGroup()->actions()) {
        if (a->data().toInt() == int(toRenderMode(session.renderMode))) a->trigger();
    }
    m_window->orientationMarkerAction()->setChecked(session.orientationMarker);
    DistanceTool* distance = m_window->measurements()->distanceTool();
    if (session.distance)
        distance->setPoints((*session.distance)[0], (*session.distance)[1]);
    else
        distance->clear();
    if (ViewLayout* views = m_window->viewLayout(); views && session.sliceViews) {
        const SessionSliceViews& slices = *session.sliceViews;
        for (const auto& [layout, name] : kLayoutNames) {
            if (name == slices.layout) views->setLayout(layout);
        }
        if (slices.windowCenter && slices.windowWidth)
            views->setWindowLevel({*slices.windowCenter, *slices.windowWidth});
        if (slices.crosshair) {
            const glm::dvec3 last = glm::dvec3(volume.dims() - glm::uvec3(1));
            views->setCrosshair(glm::clamp(*slices.crosshair, glm::dvec3(0.0), last));
        }
    }
    if (session.camera) {
        m_window->orthographicAction()->setChecked(session.camera->projection ==
                                                   Projection::Orthographic);
        m_window->viewport()->camera().setPose(*session.camera);
        m_window->viewport()->setProjection(session.camera->projection); // and a new frame
    }
}

void SessionController::note(const std::string& message)
{
    log::get("app")->warn("{}", message);
    ++m_notes;
}

void SessionController::fail(const QString& title, const QString& message)
{
    auto* box = new QMessageBox(QMessageBox::Critical, title, message, QMessageBox::Ok, m_window);
    box->setObjectName("errorDialog");
    box->setAttribute(Qt::WA_DeleteOnClose);
    const QString log = logFilePath();
    if (!log.isEmpty()) box->setInformativeText(tr("Details are in the log: %1").arg(log));
    box->open(); // window-modal, never blocks the event loop
    log::get("app")->error("{}: {}", title.toStdString(), message.toStdString());
    emit sessionFailed(message);
}

} // namespace isoview::app
