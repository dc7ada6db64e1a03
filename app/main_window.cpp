#include "main_window.h"

#include "common/error_dialog.h"
#include "common/log_panel.h"
#include "common/number_text.h"
#include "common/shortcut_table.h"
#include "core/error.h"
#include "core/log.h"
#include "crop/crop_panel.h"
#include "crop/crop_tool.h"
#include "export/export_all_surfaces.h"
#include "export/movie_export_flow.h"
#include "export/screenshot_controller.h"
#include "export/surface_export_flow.h"
#include "labels/label_map_opener.h"
#include "labels/label_picker.h"
#include "labels/labels_panel.h"
#include "loading/recent_files.h"
#include "loading/stack_geometry_note.h"
#include "loading/volume_opener.h"
#include "measure/measurements.h"
#include "session/session_controller.h"
#include "surfaces/histogram_view.h"
#include "surfaces/isovalue_panel.h"
#include "surfaces/surface_list_panel.h"
#include "time/time_bar.h"
#include "transfer_function/transfer_function_editor.h"
#include "transfer_function/transfer_function_panel.h"
#include "transfer_function/transfer_function_start.h"
#include "view_layout.h"
#include "views/viewport_widget.h"
#include "volume/label_statistics.h"

#include <QAbstractButton>
#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QColorDialog>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPainter>
#include <QSettings>
#include <QSignalBlocker>
#include <QStatusBar>
#include <QTimer>
#include <algorithm>
#include <cmath>

namespace isoview::app {
namespace {

const StandardView kStandardViews[] = {StandardView::Anterior, StandardView::Posterior,
                                       StandardView::Left,     StandardView::Right,
                                       StandardView::Superior, StandardView::Inferior};

QColor toQColor(const glm::vec3& c)
{
    return QColor::fromRgbF(c.r, c.g, c.b);
}

// A label that draws its text elided to the width it is given; text() stays whole.
class ElidedLabel : public QLabel {
public:
    using QLabel::QLabel;

protected:
    void paintEvent(QPaintEvent*) override
    {
        QPainter p(this);
        const QRect r = contentsRect();
        p.drawText(r, int(alignment()),
                   fontMetrics().elidedText(text(), Qt::ElideRight, r.width()));
    }
};

} // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent)
{
    setObjectName("mainWindow");
    setWindowTitle("isoview");
    setAcceptDrops(true);
    setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowTabbedDocks);

    m_scene = new SceneModel(this);
    m_view = new ViewportWidget(m_scene, this);
    m_viewLayout = new ViewLayout(m_view, m_scene, this);
    setCentralWidget(m_viewLayout);
    createDocks();
    createControllers();
    createActions();
    createMenus();
    createStatusBar();

    connect(m_scene, &SceneModel::changed, this, &MainWindow::onSceneChanged);
    connect(m_view, &ViewportWidget::frameStatsChanged, this, &MainWindow::onFrameStats);
    connect(m_view, &ViewportWidget::glReady, this, [this](const QString& renderer) {
        m_rendererLabel->setText(renderer);
        m_rendererLabel->setToolTip(tr("OpenGL renderer: %1").arg(renderer)); // when cut short
    });
    connect(m_view, &ViewportWidget::glError, this,
            [this](const QString& message) { showError(tr("3D view unavailable"), message); });
    // The slider, spin box and histogram edit the live (selected) surface's isovalue.
    connect(m_isovaluePanel, &IsovaluePanel::isovalueChanged, m_scene,
            &SceneModel::setLiveIsovalue);
    connect(m_tfPanel, &TransferFunctionPanel::transferFunctionChanged, this,
            [this] { m_scene->setTransferFunction(m_tfPanel->transferFunction()); });
    restoreSettings();
    updateViewNames();
}

MainWindow::~MainWindow() = default;

bool MainWindow::isLoading() const
{
    return m_opener->isLoading() || m_uploadingDocument;
}

DocumentSource MainWindow::documentSource()
{
    DocumentSource source;
    source.current = [this] { return m_document.get(); };
    source.isLoading = [this] { return isLoading(); };
    source.open = [this](const QString& path, std::optional<double> isovalue,
                         const io::LoadOptions& options) { openPath(path, isovalue, options); };
    source.openLabels = [this](const QString& labelMap, const QString& table,
                               std::function<void()> onOpened) {
        m_afterLabels = [this, table, onOpened = std::move(onOpened)] {
            if (!table.isEmpty()) openLabelTable(table);
            onOpened();
        };
        openLabelMap(labelMap);
    };
    return source;
}

// ---- construction ---------------------------------------------------------------------------

void MainWindow::createDocks()
{
    m_isovaluePanel = new IsovaluePanel(this);
    m_isovalueDock = new QDockWidget(tr("Isovalue"), this);
    m_isovalueDock->setObjectName("isovalueDock");
    m_isovalueDock->setWidget(m_isovaluePanel);
    addDockWidget(Qt::RightDockWidgetArea, m_isovalueDock);

    // Its edits go on the scene's history, with the crop's and the surfaces'.
    m_tfPanel = new TransferFunctionPanel(this, m_scene->history());
    m_tfDock = new QDockWidget(tr("Transfer Function"), this);
    m_tfDock->setObjectName("transferFunctionDock");
    m_tfDock->setWidget(m_tfPanel);
    addDockWidget(Qt::RightDockWidgetArea, m_tfDock);

    m_cropPanel = new CropPanel(m_scene, this);
    m_cropDock = new QDockWidget(tr("Crop Box"), this);
    m_cropDock->setObjectName("cropDock");
    m_cropDock->setWidget(m_cropPanel);
    addDockWidget(Qt::RightDockWidgetArea, m_cropDock);
    m_cropDock->hide();
    m_cropTool = new CropTool(m_cropPanel, m_cropDock, m_viewLayout, this);
    m_tfStart = new TransferFunctionStart(this);
    m_measurements = new Measurements(this, m_view, m_scene);
    m_viewLayout->addDistanceTool(m_measurements->distanceTool()); // clicks in the slices too
    addDockWidget(Qt::RightDockWidgetArea, m_measurements->dock());
    tabifyDockWidget(m_tfDock, m_measurements->dock()); // a tab with the room it needs
    connect(m_cropPanel, &CropPanel::cropChanged, m_measurements, &Measurements::surfaceChanged);

    m_surfacesPanel = new SurfaceListPanel(m_scene, this);
    m_surfacesDock = new QDockWidget(tr("Surfaces"), this);
    m_surfacesDock->setObjectName("surfacesDock");
    m_surfacesDock->setWidget(m_surfacesPanel);
    addDockWidget(Qt::RightDockWidgetArea, m_surfacesDock);
    // Measurements follow the selected surface.
    connect(m_scene, &SceneModel::surfacesChanged, m_measurements,
            [this](SurfaceList::Change change, std::uint32_t) {
                if (change == SurfaceList::Change::Selected || change == SurfaceList::Change::Reset)
                    m_measurements->surfaceChanged();
            });

    m_labelsPanel = new LabelsPanel(m_scene, this);
    m_labelsDock = new QDockWidget(tr("Labels"), this);
    m_labelsDock->setObjectName("labelsDock");
    m_labelsDock->setWidget(m_labelsPanel);
    addDockWidget(Qt::RightDockWidgetArea, m_labelsDock);
    // A tab beside the transfer function and the measurements: no new tab bar, so the window's
    // smallest size stays what it was.
    tabifyDockWidget(m_tfDock, m_labelsDock);
    m_tfDock->raise();

    m_logPanel = new LogPanel(this);
    m_logPanel->attachToEngineLog();
    m_logDock = new QDockWidget(tr("Log"), this);
    m_logDock->setObjectName("logDock");
    m_logDock->setWidget(m_logPanel);
    addDockWidget(Qt::BottomDockWidgetArea, m_logDock);
    m_logDock->hide();
}

void MainWindow::createControllers()
{
    m_opener = new VolumeOpener(this);
    m_opener->setVolumeAdmission([view = m_view] { return view->volumeAdmission(); });
    connect(m_opener, &VolumeOpener::opened, this, &MainWindow::applyDocument);
    connect(m_opener, &VolumeOpener::failed, this, [this](const QString& title, const QString& m) {
        showError(title, m);
        emit loadFailed(m);
    });
    connect(m_opener, &VolumeOpener::cancelled, this, [this] {
        statusBar()->showMessage(tr("Loading cancelled"), 4000);
        emit loadFailed(tr("cancelled"));
    });

    m_labelOpener = new LabelMapOpener(m_scene, this);
    new LabelPicker(m_view, m_scene); // a click in the 3D view selects the label seen there
    connect(m_labelOpener, &LabelMapOpener::openWithoutVolume, this, &MainWindow::openLabelMap);
    connect(m_labelOpener, &LabelMapOpener::failed, this,
            [this](const QString& title, const QString& message) {
                m_afterLabels = nullptr; // a session's styles wait for no label map now
                showError(title, message);
            });
    connect(m_labelOpener, &LabelMapOpener::notice, this, [this](const QString& message) {
        log::get("app")->warn("{}", message.toStdString());
        statusBar()->showMessage(message, 12000);
    });
    connect(m_labelOpener, &LabelMapOpener::opened, this, [this](const QString& path) {
        m_labelsDock->show();
        m_labelsDock->raise();
        log::get("app")->info("label map {}: {} labels", path.toStdString(),
                              m_scene->scene().labels->styles.size());
        if (const std::function<void()> after = std::exchange(m_afterLabels, nullptr)) after();
        emit labelsLoaded();
    });

    m_sessionController = new SessionController(m_scene, documentSource(), this);
    connect(this, &MainWindow::volumeLoaded, m_sessionController,
            &SessionController::onVolumeLoaded);
    connect(this, &MainWindow::loadFailed, m_sessionController, &SessionController::onLoadFailed);
    connect(m_sessionController, &SessionController::statusMessage, statusBar(),
            &QStatusBar::showMessage);

    m_screenshots = new ScreenshotController(this, m_view, [this] {
        return m_document != nullptr && !m_sessionController->isOpening();
    });
    connect(this, &MainWindow::loadFailed, m_screenshots, &ScreenshotController::abandon);
    connect(m_sessionController, &SessionController::sessionFailed, m_screenshots,
            &ScreenshotController::abandon);
    connect(m_screenshots, &ScreenshotController::statusMessage, statusBar(),
            &QStatusBar::showMessage);
    connect(m_screenshots, &ScreenshotController::done, this, &MainWindow::screenshotDone);
    connect(m_screenshots, &ScreenshotController::failed, this, &MainWindow::showError);

    m_surfaceExport = new SurfaceExportFlow(this, m_view, [this] { return m_document.get(); });
    connect(m_surfaceExport, &SurfaceExportFlow::finished, this, &MainWindow::exportFinished);
    connect(m_surfaceExport, &SurfaceExportFlow::failed, this, &MainWindow::showError);

    m_movieExport = new MovieExportFlow(this, m_view, [this] {
        return m_document != nullptr && !m_sessionController->isOpening();
    });
    connect(this, &MainWindow::loadFailed, m_movieExport, &MovieExportFlow::abandon);
    connect(m_sessionController, &SessionController::sessionFailed, m_movieExport,
            &MovieExportFlow::abandon);
    connect(m_movieExport, &MovieExportFlow::finished, this, &MainWindow::movieDone);
    connect(m_movieExport, &MovieExportFlow::failed, this, &MainWindow::showError);

    m_timeBar = new TimeBar(
        m_scene, m_view, [this] { return m_document.get(); }, this);
    addToolBar(Qt::BottomToolBarArea, m_timeBar);
    connect(m_timeBar, &TimeBar::histogramToShow, this, [this](const Histogram& histogram) {
        m_isovaluePanel->histogramView()->setHistogram(histogram);
        m_tfPanel->editor()->setHistogram(histogram);
    });
}

void MainWindow::editCamera(const std::function<void(OrbitCamera&)>& edit)
{
    m_scene->editCamera(edit);
}

void MainWindow::createActions()
{
    m_openAction = new QAction(tr("&Open File..."), this);
    m_openAction->setShortcut(QKeySequence::Open);
    m_openAction->setStatusTip(tr("Open a DICOM file, NRRD, MetaImage or raw volume"));
    connect(m_openAction, &QAction::triggered, this, &MainWindow::openFileDialog);

    m_openFolderAction = new QAction(tr("Open DICOM &Folder..."), this);
    m_openFolderAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    connect(m_openFolderAction, &QAction::triggered, this, &MainWindow::openFolderDialog);

    m_exportAction = new QAction(tr("&Export Surface..."), this);
    m_exportAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    m_exportAction->setStatusTip(tr("Write the surface on screen as PLY, STL or OBJ"));
    m_exportAction->setEnabled(false);
    connect(m_exportAction, &QAction::triggered, m_surfaceExport, &SurfaceExportFlow::dialog);

    m_screenshotAction = new QAction(tr("Save &Screenshot..."), this);
    m_screenshotAction->setShortcuts(
        {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S), QKeySequence(Qt::Key_F12)});
    connect(m_screenshotAction, &QAction::triggered, m_screenshots,
            &ScreenshotController::saveDialog);

    m_quitAction = new QAction(tr("&Quit"), this);
    m_quitAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Q));
    connect(m_quitAction, &QAction::triggered, this, &QWidget::close);

    m_modeGroup = new QActionGroup(this);
    m_modeGroup->setObjectName("renderModeGroup");
    auto modeAction = [this](const QString& text, Qt::Key key, RenderMode mode) {
        auto* a = new QAction(text, m_modeGroup);
        a->setCheckable(true);
        a->setShortcut(QKeySequence(key));
        a->setData(int(mode));
        connect(a, &QAction::triggered, this, [this, mode] { m_scene->setRenderMode(mode); });
        return a;
    };
    modeAction(tr("&Surface"), Qt::Key_1, RenderMode::Surface)->setChecked(true);
    modeAction(tr("&Volume Rendering"), Qt::Key_2, RenderMode::Volume);
    modeAction(tr("Surface &and Volume"), Qt::Key_3, RenderMode::SurfaceAndVolume);
    // Intensity projections, grey through the slice views' window (View > Window presets).
    modeAction(tr("&Maximum Intensity Projection"), Qt::Key_4, RenderMode::MaximumIntensity);
    modeAction(tr("M&inimum Intensity Projection"), Qt::Key_5, RenderMode::MinimumIntensity);
    modeAction(tr("Average I&ntensity Projection"), Qt::Key_6, RenderMode::AverageIntensity);

    m_orthographicAction = new QAction(tr("&Orthographic Projection"), this);
    m_orthographicAction->setObjectName("orthographicAction");
    m_orthographicAction->setCheckable(true);
    m_orthographicAction->setShortcut(QKeySequence(Qt::Key_O));
    connect(m_orthographicAction, &QAction::toggled, this, [this](bool on) {
        const Projection projection = on ? Projection::Orthographic : Projection::Perspective;
        if (m_scene->scene().camera.projection() == projection) return;
        editCamera([projection](OrbitCamera& c) { c.setProjection(projection); });
    });

    m_resetViewAction = new QAction(tr("&Reset View"), this);
    m_resetViewAction->setShortcut(QKeySequence(Qt::Key_R));
    connect(m_resetViewAction, &QAction::triggered, this,
            [this] { editCamera([](OrbitCamera& c) { c.reset(); }); });
    m_fitViewAction = new QAction(tr("&Fit to Volume"), this);
    m_fitViewAction->setShortcut(QKeySequence(Qt::Key_F));
    connect(m_fitViewAction, &QAction::triggered, this, [this] {
        const Volume* v = m_scene->scene().volume.get();
        if (!v) return;
        const Bounds bounds = volumeBounds(v->geometry(), v->dims());
        editCamera([bounds](OrbitCamera& c) { c.fitTo(bounds); });
    });

    m_markerAction = new QAction(tr("Orientation &Marker"), this);
    m_markerAction->setObjectName("orientationMarkerAction");
    m_markerAction->setCheckable(true);
    m_markerAction->setChecked(true);
    m_markerAction->setShortcut(QKeySequence(Qt::Key_M));
    connect(m_markerAction, &QAction::toggled, m_scene, &SceneModel::setOrientationMarker);

    int number = 1;
    for (StandardView v : kStandardViews) {
        auto* a = new QAction(this);
        a->setShortcut(QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_0 + number++)));
        connect(a, &QAction::triggered, this,
                [this, v] { editCamera([v](OrbitCamera& c) { c.setStandardView(v); }); });
        m_standardViewActions.push_back(a);
    }

    m_tfColorAction = new QAction(tr("Colour from &Transfer Function"), this);
    m_tfColorAction->setCheckable(true);
    m_tfColorAction->setChecked(true);
    connect(m_tfColorAction, &QAction::toggled, this, [this](bool on) {
        if (on) m_surfacesPanel->setSelectedColor(std::nullopt);
    });
    m_surfaceColorAction = new QAction(tr("Surface &Colour..."), this);
    m_surfaceColorAction->setShortcut(QKeySequence(Qt::Key_C));
    connect(m_surfaceColorAction, &QAction::triggered, this, &MainWindow::chooseSurfaceColor);

    m_isoUpAction = new QAction(tr("Isovalue &Up"), this);
    m_isoUpAction->setShortcuts({QKeySequence(Qt::Key_BracketRight), QKeySequence(Qt::Key_Plus)});
    connect(m_isoUpAction, &QAction::triggered, this, [this] { stepIsovalue(+1); });
    m_isoDownAction = new QAction(tr("Isovalue &Down"), this);
    m_isoDownAction->setShortcuts({QKeySequence(Qt::Key_BracketLeft), QKeySequence(Qt::Key_Minus)});
    connect(m_isoDownAction, &QAction::triggered, this, [this] { stepIsovalue(-1); });
}

void MainWindow::createMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(m_openAction);
    file->addAction(m_openFolderAction);
    file->addAction(m_labelOpener->openAction());
    file->addAction(m_labelOpener->openTableAction());
    m_recentFiles = new RecentFiles(file->addMenu(tr("Open &Recent")), this);
    connect(m_recentFiles, &RecentFiles::openRequested, this,
            [this](const QString& path) { openPath(path); });
    connect(m_sessionController, &SessionController::sessionOpened, m_recentFiles,
            &RecentFiles::add);
    connect(m_sessionController, &SessionController::sessionSaved, m_recentFiles,
            &RecentFiles::add);
    file->addSeparator();
    file->addAction(m_sessionController->openAction());
    file->addAction(m_sessionController->saveAction());
    file->addSeparator();
    file->addAction(m_exportAction);
    file->addAction(
        (new ExportAllSurfaces(this, m_view, [this] { return m_document.get(); }))->action());
    file->addAction(m_screenshotAction);
    file->addAction(m_movieExport->action());
    file->addSeparator();
    file->addAction(m_quitAction);

    // Window-wide Undo/Redo: transfer-function, crop and surface edits, wherever the focus is.
    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    edit->addAction(m_tfPanel->undoAction());
    edit->addAction(m_tfPanel->redoAction());
    edit->addSeparator();
    edit->addAction(m_tfStart->keepAction());
    edit->addAction(m_cropTool->resetAction());

    m_viewMenu = menuBar()->addMenu(tr("&View"));
    m_viewMenu->addActions(m_modeGroup->actions());
    m_viewMenu->addSeparator();
    m_viewMenu->addAction(m_orthographicAction);
    m_viewMenu->addAction(m_resetViewAction);
    m_viewMenu->addAction(m_fitViewAction);
    QMenu* standard = m_viewMenu->addMenu(tr("Standard &Views"));
    standard->addActions(m_standardViewActions);
    m_viewMenu->addAction(m_markerAction);
    m_viewMenu->addAction(m_view->surfacePreviewAction());
    QMenu* time = m_viewMenu->addMenu(tr("&Time Points"));
    time->addActions(m_timeBar->menuActions());
    m_viewMenu->addSeparator();
    m_viewLayout->addActionsTo(m_viewMenu);
    m_viewMenu->addSeparator();
    m_viewMenu->addAction(m_isovalueDock->toggleViewAction());
    m_viewMenu->addAction(m_tfDock->toggleViewAction());
    m_viewMenu->addAction(m_cropDock->toggleViewAction());
    m_viewMenu->addAction(m_cropTool->showAction());
    m_viewMenu->addAction(m_measurements->dock()->toggleViewAction());
    m_viewMenu->addAction(m_surfacesDock->toggleViewAction());
    m_viewMenu->addAction(m_labelsDock->toggleViewAction());
    QAction* logToggle = m_logDock->toggleViewAction();
    logToggle->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_L));
    m_viewMenu->addAction(logToggle);

    QMenu* surface = menuBar()->addMenu(tr("&Surface"));
    surface->addAction(m_isoUpAction);
    surface->addAction(m_isoDownAction);
    surface->addSeparator();
    surface->addAction(m_tfColorAction);
    surface->addAction(m_surfaceColorAction);
    surface->addSeparator();
    surface->addAction(m_surfacesPanel->addAction());
    surface->addAction(m_surfacesPanel->removeAction());
    surface->addAction(m_surfacesPanel->renameAction());

    QMenu* tools = menuBar()->addMenu(tr("&Tools"));
    tools->addAction(m_measurements->distanceAction());
    tools->addAction(m_measurements->clearDistanceAction());

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    QAction* shortcuts =
        help->addAction(tr("&Keyboard Shortcuts"), this, &MainWindow::showShortcuts);
    shortcuts->setShortcut(QKeySequence::HelpContents);
    help->addAction(tr("Show &Log File Location"), this, [this] {
        QMessageBox::information(this, tr("Log file"),
                                 logFilePath().isEmpty() ? tr("No log file could be created.")
                                                         : logFilePath());
    });
    help->addAction(tr("&About isoview"), this, &MainWindow::showAbout);
}

void MainWindow::createStatusBar()
{
    auto label = [this](const char* name, const QString& tip) {
        auto* l = new QLabel(this);
        l->setObjectName(name);
        l->setToolTip(tip);
        return l;
    };
    m_volumeLabel = label("volumeLabel", tr("Dimensions and voxel spacing"));
    m_triangleLabel = label("triangleLabel", tr("Triangles of the surface on screen"));
    m_timingLabel =
        label("timingLabel", tr("GPU time of the HistoPyramid build and of the extraction + "
                                "shading pass, last frame"));
    m_fpsLabel = label("fpsLabel", tr("Frames per second while the view changes"));
    m_fpsLabel->setMinimumWidth(m_fpsLabel->fontMetrics().horizontalAdvance("000.0 fps"));
    // A short bar elides the renderer's name first: the dimensions, the stack's note and the
    // figures keep their whole text (the layout used to shrink the widest, the dimensions
    // under the note).
    m_rendererLabel = new ElidedLabel(this);
    m_rendererLabel->setObjectName("rendererLabel");
    m_rendererLabel->setToolTip(tr("OpenGL renderer"));
    m_rendererLabel->setMinimumWidth(1);

    statusBar()->addWidget(m_volumeLabel);
    statusBar()->addWidget(m_opener->progressWidget());
    statusBar()->addWidget(m_labelOpener->progressWidget());
    statusBar()->addWidget(m_surfaceExport->progressWidget());
    statusBar()->addWidget(m_movieExport->progressWidget());
    m_geometryLabel = label("stackGeometryLabel", tr("Kept as measured: each slice is shown "
                                                     "where it was measured, not resampled"));
    statusBar()->addPermanentWidget(m_geometryLabel);
    statusBar()->addPermanentWidget(m_triangleLabel);
    statusBar()->addPermanentWidget(m_timingLabel);
    statusBar()->addPermanentWidget(m_fpsLabel);
    statusBar()->addPermanentWidget(m_rendererLabel);
}

// ---- settings -------------------------------------------------------------------------------

void MainWindow::restoreSettings()
{
    QSettings s;
    if (!restoreGeometry(s.value("window/geometry").toByteArray())) resize(1280, 820);
    restoreState(s.value("window/state").toByteArray());
    m_lastFolder = s.value("files/lastFolder").toString();
    const int mode = s.value("view/mode", int(RenderMode::Surface)).toInt();
    for (QAction* a : m_modeGroup->actions()) {
        if (a->data().toInt() == mode) a->trigger();
    }
    m_orthographicAction->setChecked(s.value("view/orthographic", false).toBool());
    m_markerAction->setChecked(s.value("view/marker", true).toBool());
    // The remembered surface colour is the first surface's, and so each new volume's.
    const QVariant color = s.value("surface/color");
    if (color.isValid() && QColor(color.toString()).isValid()) {
        const QColor c(color.toString());
        Surface first = m_scene->scene().surfaces.selected();
        first.color = glm::vec3(float(c.redF()), float(c.greenF()), float(c.blueF()));
        m_scene->editSurface(first);
    }
}

void MainWindow::saveSettings() const
{
    QSettings s;
    const Scene& scene = m_scene->scene();
    s.setValue("window/geometry", saveGeometry());
    s.setValue("window/state", saveState());
    s.setValue("files/lastFolder", m_lastFolder);
    s.setValue("view/mode", int(scene.renderMode));
    s.setValue("view/orthographic", scene.camera.projection() == Projection::Orthographic);
    s.setValue("view/marker", scene.orientationMarker);
    if (const std::optional<glm::vec3> c = scene.surfaces.carriedColor())
        s.setValue("surface/color", toQColor(*c).name());
    else
        s.remove("surface/color");
    if (m_document) {
        s.setValue("transferFunction/last",
                   QString::fromStdString(transferFunctionToJson(scene.transferFunction)));
        s.setValue("transferFunction/lastUnits", m_document->units());
    }
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    saveSettings();
    m_opener->cancel();
    m_surfaceExport->cancel();
    m_movieExport->cancel();
    QMainWindow::closeEvent(event);
}

// ---- opening volumes ------------------------------------------------------------------------

void MainWindow::openFileDialog()
{
    const QString file = QFileDialog::getOpenFileName(
        this, tr("Open Volume"), m_lastFolder,
        tr("Volumes (*.dcm *.nrrd *.nhdr *.mhd *.mha *.nii *.nii.gz *.hdr *.raw *.ima DICOMDIR);;"
           "DICOM (*.dcm *.ima DICOMDIR);;NRRD (*.nrrd *.nhdr);;MetaImage (*.mhd *.mha);;"
           "NIfTI (*.nii *.nii.gz *.hdr);;Raw (*.raw *.bin *.img "
           "*.dat);;All files (*)"));
    if (!file.isEmpty()) openPath(file);
}

void MainWindow::openFolderDialog()
{
    const QString folder =
        QFileDialog::getExistingDirectory(this, tr("Open DICOM Folder"), m_lastFolder);
    if (!folder.isEmpty()) openPath(folder);
}

void MainWindow::openPath(const QString& path, std::optional<double> isovalue,
                          const io::LoadOptions& options)
{
    if (SessionController::isSessionPath(path)) { // by name: command line, drop, recent files
        m_sessionController->open(path);
        return;
    }
    if (isLoading()) {
        showError(tr("Busy"), tr("A volume is still loading. Cancel it first, or wait."));
        return;
    }
    m_opener->open(path, isovalue, options);
}

void MainWindow::openLabelMap(const QString& path)
{
    if (m_scene->hasVolume() && !isLoading()) {
        m_labelOpener->open(path);
        return;
    }
    m_labelsAfterLoad = path; // opened as the volume first; applyDocument lays it over
    openPath(path);
}

void MainWindow::openLabelTable(const QString& path)
{
    m_labelOpener->openTable(path);
}

void MainWindow::applyDocument(const std::shared_ptr<VolumeDocument>& doc,
                               std::optional<double> isovalue)
{
    // Hundreds of ms for a large volume on llvmpipe (D99's 93 MB of float labels: 350 ms), in
    // which the GUI thread used to wait for the render thread; it answers now, the previous
    // volume on screen until this one is shown.
    m_uploadingDocument = true;
    statusBar()->showMessage(tr("Uploading %1 to the GPU…").arg(doc->displayName));
    m_view->uploadVolume(
        doc->volume,
        [this, doc, isovalue](const std::optional<QString>& error) {
            m_uploadingDocument = false;
            statusBar()->clearMessage();
            if (error) {
                showError(tr("Cannot show %1").arg(doc->displayName), *error);
                emit loadFailed(*error);
                return;
            }
            showDocument(doc, isovalue);
        },
        doc->series);
}

void MainWindow::showDocument(const std::shared_ptr<VolumeDocument>& doc,
                              std::optional<double> isovalue)
{
    const std::shared_ptr<VolumeDocument> previous = std::exchange(m_document, doc);
    const Volume& v = *doc->volume;
    const double iso = std::clamp(isovalue.value_or(doc->suggestedIsovalue), doc->realRange.min,
                                  doc->realRange.max);

    // The transfer function: the modality's default unless the user keeps the current one.
    const Scene& scene = m_scene->scene();
    const std::optional<TransferFunction> shownTf =
        previous ? std::optional(scene.transferFunction) : std::nullopt;
    const TransferFunction tf =
        m_tfStart->forVolume(v, doc->units(), shownTf, previous ? previous->units() : QString());
    m_isovaluePanel->setVolumeContext(doc->histogram, doc->realRange, doc->units(),
                                      doc->integerValued);
    m_tfPanel->setVolumeContext(doc->histogram, doc->realRange, doc->units());
    // One surface, in the colour the first one had (the user's, never a palette colour of an
    // added one), else the transfer function's; the scene's crop, distance, camera and slices
    // start afresh, and the surfaces added next take the palette from its start.
    const Surface first{0, "Surface 1", iso, scene.surfaces.carriedColor(), 1.0f, true};
    m_scene->openVolume(doc->volume, {first}, 0, tf, doc->series, doc->timePoint);
    // Now, not when the first frame comes: what a session sets after the load stays.
    m_measurements->volumeChanged();

    const glm::uvec3 d = v.dims();
    const glm::dvec3 sp = v.geometry().spacing;
    m_volumeLabel->setText(tr("%1 x %2 x %3 | %4 x %5 x %6 mm | %7")
                               .arg(d.x)
                               .arg(d.y)
                               .arg(d.z)
                               .arg(formatValue(sp.x), formatValue(sp.y), formatValue(sp.z),
                                    QString::fromStdString(std::string(scalarTypeName(v.type())))));
    m_geometryLabel->setText(stackGeometryNote(v.geometry(), d.z));
    setWindowTitle(QStringLiteral("%1 - isoview").arg(doc->displayName));
    m_exportAction->setEnabled(true);
    m_movieExport->action()->setEnabled(true);
    updateViewNames();
    m_lastFolder = QFileInfo(doc->path).absolutePath();
    m_recentFiles->add(doc->path);
    for (const std::string& w : v.metadata().warnings)
        log::get("io")->warn("{}", w);
    if (!v.metadata().warnings.empty())
        statusBar()->showMessage(
            tr("%1 loader note(s), see the log panel (Ctrl+L)").arg(v.metadata().warnings.size()),
            8000);
    log::get("app")->info("opened {} ({}x{}x{}), isovalue {} in {}", doc->path.toStdString(), d.x,
                          d.y, d.z, iso,
                          v.metadata().units.empty() ? "real units" : v.metadata().units);
    emit volumeLoaded();
    if (!m_labelsAfterLoad.isEmpty()) {
        const QString labels = std::exchange(m_labelsAfterLoad, QString());
        if (QFileInfo(labels) == QFileInfo(doc->path))
            showVolumeAsLabels();
        else
            m_labelOpener->open(labels);
    } else if (v.metadata().declaresLabelMap) {
        showVolumeAsLabels(); // a NIfTI label intent or a .seg.nrrd says what it is
    } else if (looksLikeLabelMap(v)) {
        offerVolumeAsLabels(doc->path);
    }
}

void MainWindow::showVolumeAsLabels()
{
    // The label map is the volume: an isovalue across label numbers means nothing.
    Surface hidden = m_scene->scene().surfaces.selected();
    hidden.visible = false;
    m_scene->editSurface(hidden);
    m_labelOpener->open(m_document->path);
}

void MainWindow::offerVolumeAsLabels(const QString& path)
{
    // The answer is remembered per file: the question comes once.
    const QString key = QStringLiteral("labels/asked/") +
                        QString::fromLatin1(QFileInfo(path).absoluteFilePath().toUtf8().toBase64());
    QSettings settings;
    const QVariant answer = settings.value(key);
    if (answer.isValid()) {
        if (answer.toBool()) showVolumeAsLabels();
        return;
    }
    // Not modal: the volume is usable while the question waits.
    auto* box = new QMessageBox(QMessageBox::Question, tr("Open as Labels?"),
                                tr("%1 looks like a segmentation: a few whole numbers with a zero "
                                   "background. Show each number as its own labelled surface?")
                                    .arg(QFileInfo(path).fileName()),
                                QMessageBox::Yes | QMessageBox::No, this);
    box->setObjectName("labelsQuestion");
    box->button(QMessageBox::Yes)->setText(tr("Open as Labels"));
    box->button(QMessageBox::No)->setText(tr("Keep as Image"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    const std::shared_ptr<const Volume> asked = m_scene->scene().volume;
    connect(box, &QMessageBox::finished, this, [this, key, asked](int result) {
        const bool yes = result == QMessageBox::Yes;
        QSettings().setValue(key, yes);
        if (yes && m_scene->scene().volume == asked) showVolumeAsLabels();
    });
    box->open();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    if (event->mimeData()->hasUrls() && event->mimeData()->urls().first().isLocalFile())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (urls.isEmpty() || !urls.first().isLocalFile()) return;
    event->acceptProposedAction();
    // Dropping several DICOM files means their folder.
    QString path = urls.first().toLocalFile();
    if (urls.size() > 1) path = QFileInfo(path).absolutePath();
    // Leave the drop handler before any dialog opens.
    QTimer::singleShot(0, this, [this, path] { openPath(path); });
}

// ---- the scene's state in the panels and actions --------------------------------------------

void MainWindow::onSceneChanged(SceneChanges what)
{
    const Scene& scene = m_scene->scene();
    if (what & SceneChange::Volume) {
        // A new volume's function: its history starts afresh (the scene's was cleared too).
        m_tfPanel->setTransferFunction(scene.transferFunction);
    } else if (what & SceneChange::TransferFunction) {
        m_tfPanel->showTransferFunction(scene.transferFunction); // undo, redo, a session
    }
    // The slider, spin box and histogram show the live surface; a value out of their range is
    // clamped there and comes back as the panel's edit.
    if (what & (SceneChange::Volume | SceneChange::Surfaces | SceneChange::Isovalue))
        m_isovaluePanel->setIsovalue(scene.liveIsovalue());
    if (what & SceneChange::Display) {
        for (QAction* a : m_modeGroup->actions())
            if (a->data().toInt() == int(scene.renderMode)) a->setChecked(true);
        m_markerAction->setChecked(scene.orientationMarker);
        onFrameStats(m_view->lastFrameStats()); // the figures the mode shows
    }
    if (what & SceneChange::Camera)
        m_orthographicAction->setChecked(scene.camera.projection() == Projection::Orthographic);
    if (what & (SceneChange::Volume | SceneChange::Surfaces)) {
        const QSignalBlocker quiet(m_tfColorAction); // showing the state is not an edit
        m_tfColorAction->setChecked(!scene.surfaces.selected().color);
    }
}

void MainWindow::chooseSurfaceColor()
{
    const Scene& scene = m_scene->scene();
    const QColor current =
        toQColor(surfaceDrawColor(scene.surfaces.selected(), scene.transferFunction));
    const QColor chosen = QColorDialog::getColor(current, this, tr("Surface Colour"));
    if (!chosen.isValid()) return;
    m_surfacesPanel->setSelectedColor(QColor::fromRgba(chosen.rgba())); // undoable
}

void MainWindow::stepIsovalue(int direction)
{
    if (!m_document) return;
    const double range = m_document->realRange.max - m_document->realRange.min;
    double step = range / 200.0;
    if (m_document->integerValued) step = std::max(1.0, std::round(step));
    m_isovaluePanel->setIsovalue(m_isovaluePanel->isovalue() + direction * step);
}

// ---- status ---------------------------------------------------------------------------------

void MainWindow::onFrameStats(const FrameStats& stats)
{
    // Volume rendering and the projections draw no surface: no triangle count or surface times (the
    // last surface's figures stayed on).
    const bool surface = drawsSurfaces(m_scene->scene().renderMode);
    m_triangleLabel->setText(
        !surface ? QString()
        : stats.triangles && stats.surfacePreview
            ? tr("%1 triangles (half resolution while dragging)").arg(formatCount(*stats.triangles))
        : stats.triangles ? tr("%1 triangles").arg(formatCount(*stats.triangles))
                          : tr("... triangles"));
    QStringList timing;
    if (surface && stats.gpu.extractMs)
        timing << tr("pyramid %1 ms").arg(*stats.gpu.extractMs, 0, 'f', 1);
    if (surface && stats.gpu.surfaceMs)
        timing << tr("surface %1 ms").arg(*stats.gpu.surfaceMs, 0, 'f', 1);
    if (stats.gpu.volumeMs) timing << tr("volume %1 ms").arg(*stats.gpu.volumeMs, 0, 'f', 1);
    m_timingLabel->setText(timing.join(" | "));
    m_fpsLabel->setText(stats.framesPerSecond > 0.0
                            ? tr("%1 fps").arg(stats.framesPerSecond, 0, 'f', 1)
                            : QString());
}

void MainWindow::updateViewNames()
{
    const bool anatomical = m_view->anatomical();
    for (int i = 0; i < m_standardViewActions.size(); ++i) {
        m_standardViewActions[i]->setText(
            QString::fromUtf8(standardViewName(kStandardViews[i], anatomical).data()));
    }
}

void MainWindow::showError(const QString& title, const QString& message)
{
    showErrorDialog(this, title, message);
}

void MainWindow::showShortcuts()
{
    QMessageBox::information(this, tr("Keyboard Shortcuts"),
                             shortcutTableHtml(findChildren<QAction*>()));
}

void MainWindow::showAbout()
{
    QMessageBox::about(this, tr("About isoview"),
                       tr("<b>isoview</b> %1<br>Live isosurfaces of DICOM and raw volumes: GPU "
                          "marching cubes through a HistoPyramid (Dyken, Ziegler, Theobalt, "
                          "Seidel).<br><br>OpenGL: %2")
                           .arg(QCoreApplication::applicationVersion(), m_rendererLabel->text()));
}

// ---- export and screenshots -----------------------------------------------------------------

void MainWindow::exportMeshTo(const QString& path, const MeshExportOptions& options,
                              const PrintSteps& steps)
{
    m_surfaceExport->exportTo(path, options, steps);
}

bool MainWindow::saveScreenshot(const QString& path, QString* error)
{
    return m_screenshots->save(path, error);
}

void MainWindow::screenshotWhenReady(const QString& path, std::optional<QSize> size,
                                     bool transparent)
{
    // Nobody answers a dialog in --screenshot: the opener takes the default series and the
    // sessions fail with why, rather than wait for ever.
    m_opener->setAsksQuestions(false);
    m_sessionController->setAsksQuestions(false);
    m_screenshots->saveWindowWhenReady(path, size, transparent);
}

void MainWindow::movieWhenReady(const MovieRequest& request)
{
    // As for --screenshot: nobody answers a dialog.
    m_opener->setAsksQuestions(false);
    m_sessionController->setAsksQuestions(false);
    m_movieExport->recordWhenReady(request);
}

} // namespace isoview::app
