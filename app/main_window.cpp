#include "main_window.h"

#include "common/log_panel.h"
#include "common/shortcut_table.h"
#include "common/status_progress.h"
#include "core/error.h"
#include "core/log.h"
#include "crop/crop_panel.h"
#include "crop/crop_tool.h"
#include "export/export_all_surfaces.h"
#include "export/screenshot_controller.h"
#include "export/surface_export_flow.h"
#include "loading/raw_import_dialog.h"
#include "loading/recent_files.h"
#include "loading/series_picker_dialog.h"
#include "loading/stack_geometry_note.h"
#include "measure/measurements.h"
#include "session/session_controller.h"
#include "surfaces/isovalue_panel.h"
#include "surfaces/surface_list_panel.h"
#include "transfer_function/transfer_function_panel.h"
#include "transfer_function/transfer_function_start.h"
#include "view_layout.h"
#include "views/frame_worker.h"

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
#include <QProgressBar>
#include <QSettings>
#include <QStatusBar>
#include <QTimer>
#include <QToolButton>
#include <cmath>

namespace isoview::app {
namespace {

QString formatCount(std::uint64_t n)
{
    return QLocale().toString(qulonglong(n));
}

QString formatValue(double v)
{
    return QString::number(v, 'g', 6);
}

std::size_t loadableSeriesCount(const io::VolumeSourceInfo& info)
{
    std::size_t n = 0;
    for (const io::SeriesSummary& s : info.series)
        n += s.note.empty() ? 1 : 0;
    return n;
}

const StandardView kStandardViews[] = {StandardView::Anterior, StandardView::Posterior,
                                       StandardView::Left,     StandardView::Right,
                                       StandardView::Superior, StandardView::Inferior};

// What a load in the background hands back: the opened source, and either the volume or what
// the user must answer first (raw parameters, or which series) before it is loaded from that
// same source.
struct LoadOutcome {
    std::shared_ptr<const io::VolumeSource> source;
    std::shared_ptr<VolumeDocument> document;
    bool askRawParameters = false;
    bool chooseSeries = false;
};

} // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent)
{
    setObjectName("mainWindow");
    setWindowTitle("isoview");
    setAcceptDrops(true);
    setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowTabbedDocks);

    m_view = new ViewportWidget(this);
    m_viewLayout = new ViewLayout(m_view, this);
    setCentralWidget(m_viewLayout);
    createDocks();
    m_sessionController = new SessionController(this);
    m_screenshots = new ScreenshotController(this, m_view);
    m_surfaceExport = new SurfaceExportFlow(this, m_view, [this] { return m_document.get(); });
    createActions();
    createMenus();
    createStatusBar();

    connect(m_view, &ViewportWidget::frameStatsChanged, this, &MainWindow::onFrameStats);
    connect(m_view, &ViewportWidget::glReady, this,
            [this](const QString& renderer) { m_rendererLabel->setText(renderer); });
    connect(m_view, &ViewportWidget::glError, this,
            [this](const QString& message) { showError(tr("3D view unavailable"), message); });
    connect(m_isovaluePanel, &IsovaluePanel::isovalueChanged, this, &MainWindow::onIsovalueChanged);
    connect(m_tfPanel, &TransferFunctionPanel::transferFunctionChanged, this,
            &MainWindow::onTransferFunctionChanged);
    connect(m_sessionController, &SessionController::sessionOpened, m_recentFiles,
            &RecentFiles::add);
    connect(m_sessionController, &SessionController::sessionSaved, m_recentFiles,
            &RecentFiles::add);
    connect(m_screenshots, &ScreenshotController::done, this, &MainWindow::screenshotDone);
    connect(m_screenshots, &ScreenshotController::failed, this, &MainWindow::showError);
    connect(m_surfaceExport, &SurfaceExportFlow::finished, this, &MainWindow::exportFinished);
    connect(m_surfaceExport, &SurfaceExportFlow::failed, this, &MainWindow::showError);
    restoreSettings();
    updateViewNames();
}

MainWindow::~MainWindow() = default;

// ---- construction ---------------------------------------------------------------------------

void MainWindow::createDocks()
{
    m_isovaluePanel = new IsovaluePanel(this);
    m_isovalueDock = new QDockWidget(tr("Isovalue"), this);
    m_isovalueDock->setObjectName("isovalueDock");
    m_isovalueDock->setWidget(m_isovaluePanel);
    addDockWidget(Qt::RightDockWidgetArea, m_isovalueDock);

    m_tfPanel = new TransferFunctionPanel(this);
    m_tfDock = new QDockWidget(tr("Transfer Function"), this);
    m_tfDock->setObjectName("transferFunctionDock");
    m_tfDock->setWidget(m_tfPanel);
    addDockWidget(Qt::RightDockWidgetArea, m_tfDock);

    m_cropPanel = new CropPanel(this);
    m_cropDock = new QDockWidget(tr("Crop Box"), this);
    m_cropDock->setObjectName("cropDock");
    m_cropDock->setWidget(m_cropPanel);
    addDockWidget(Qt::RightDockWidgetArea, m_cropDock);
    m_cropDock->hide();
    connect(m_cropPanel, &CropPanel::cropChanged, this,
            [this](const VoxelBox& box) { m_view->setCrop(box); });
    m_cropPanel->setUndoStack(m_tfPanel->undoStack()); // one edit history per volume
    m_cropTool = new CropTool(m_cropPanel, m_cropDock, m_viewLayout, this);
    m_tfStart = new TransferFunctionStart(this);
    m_measurements = new Measurements(this, m_view);
    m_viewLayout->addDistanceTool(m_measurements->distanceTool()); // clicks in the slices too
    addDockWidget(Qt::RightDockWidgetArea, m_measurements->dock());
    tabifyDockWidget(m_tfDock, m_measurements->dock()); // a tab with the room it needs
    connect(m_cropPanel, &CropPanel::cropChanged, m_measurements, &Measurements::surfaceChanged);

    m_surfacesPanel = new SurfaceListPanel(this);
    m_surfacesPanel->attach(m_isovaluePanel, m_tfPanel, m_view, m_tfPanel->undoStack());
    m_surfacesDock = new QDockWidget(tr("Surfaces"), this);
    m_surfacesDock->setObjectName("surfacesDock");
    m_surfacesDock->setWidget(m_surfacesPanel);
    addDockWidget(Qt::RightDockWidgetArea, m_surfacesDock);
    // The window's surface colour (Surface > Colour, Colour from TF) is the selected surface's.
    connect(m_surfacesPanel, &SurfaceListPanel::selectedColorChanged, this,
            [this](const std::optional<QColor>& c) {
                if (c)
                    m_surfaceColorOverride.emplace(QColor::fromRgba(c->rgba()));
                else
                    m_surfaceColorOverride.reset();
                if (m_tfColorAction) m_tfColorAction->setChecked(!c);
                updateSurfaceColor();
            });
    connect(m_surfacesPanel, &SurfaceListPanel::selectionChanged, m_measurements,
            &Measurements::surfaceChanged);
    connect(m_surfacesPanel, &SurfaceListPanel::surfacesChanged, m_viewLayout,
            [this] { m_viewLayout->setContours(m_surfacesPanel->sliceContours()); });

    m_logPanel = new LogPanel(this);
    m_logPanel->attachToEngineLog();
    m_logDock = new QDockWidget(tr("Log"), this);
    m_logDock->setObjectName("logDock");
    m_logDock->setWidget(m_logPanel);
    addDockWidget(Qt::BottomDockWidgetArea, m_logDock);
    m_logDock->hide();
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
    auto modeAction = [this](const QString& text, Qt::Key key, gpu::RenderMode mode) {
        auto* a = new QAction(text, m_modeGroup);
        a->setCheckable(true);
        a->setShortcut(QKeySequence(key));
        a->setData(int(mode));
        connect(a, &QAction::triggered, this, [this, mode] { m_view->setRenderMode(mode); });
        return a;
    };
    m_surfaceModeAction = modeAction(tr("&Surface"), Qt::Key_1, gpu::RenderMode::Surface);
    m_volumeModeAction = modeAction(tr("&Volume Rendering"), Qt::Key_2, gpu::RenderMode::Volume);
    m_bothModeAction =
        modeAction(tr("Surface &and Volume"), Qt::Key_3, gpu::RenderMode::SurfaceAndVolume);
    m_surfaceModeAction->setChecked(true);

    m_orthographicAction = new QAction(tr("&Orthographic Projection"), this);
    m_orthographicAction->setCheckable(true);
    m_orthographicAction->setShortcut(QKeySequence(Qt::Key_O));
    connect(m_orthographicAction, &QAction::toggled, this, [this](bool on) {
        m_view->setProjection(on ? Projection::Orthographic : Projection::Perspective);
    });

    m_resetViewAction = new QAction(tr("&Reset View"), this);
    m_resetViewAction->setShortcut(QKeySequence(Qt::Key_R));
    connect(m_resetViewAction, &QAction::triggered, m_view, &ViewportWidget::resetView);
    m_fitViewAction = new QAction(tr("&Fit to Volume"), this);
    m_fitViewAction->setShortcut(QKeySequence(Qt::Key_F));
    connect(m_fitViewAction, &QAction::triggered, m_view, &ViewportWidget::fitView);

    m_markerAction = new QAction(tr("Orientation &Marker"), this);
    m_markerAction->setCheckable(true);
    m_markerAction->setChecked(true);
    m_markerAction->setShortcut(QKeySequence(Qt::Key_M));
    connect(m_markerAction, &QAction::toggled, m_view,
            &ViewportWidget::setOrientationMarkerVisible);

    int number = 1;
    for (StandardView v : kStandardViews) {
        auto* a = new QAction(this);
        a->setShortcut(QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_0 + number++)));
        connect(a, &QAction::triggered, this, [this, v] { m_view->setStandardView(v); });
        m_standardViewActions.push_back(a);
    }

    m_tfColorAction = new QAction(tr("Colour from &Transfer Function"), this);
    m_tfColorAction->setCheckable(true);
    m_tfColorAction->setChecked(true);
    connect(m_tfColorAction, &QAction::toggled, this, [this](bool on) {
        if (on) m_surfacesPanel->setSelectedColor(std::nullopt);
        updateSurfaceColor();
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
    m_recentFiles = new RecentFiles(file->addMenu(tr("Open &Recent")), this);
    connect(m_recentFiles, &RecentFiles::openRequested, this,
            [this](const QString& path) { openPath(path); });
    file->addSeparator();
    file->addAction(m_sessionController->openAction());
    file->addAction(m_sessionController->saveAction());
    file->addSeparator();
    file->addAction(m_exportAction);
    file->addAction((new ExportAllSurfaces(this, m_view, m_surfacesPanel, [this] {
                        return m_document.get();
                    }))->action());
    file->addAction(m_screenshotAction);
    file->addSeparator();
    file->addAction(m_quitAction);

    // Window-wide Undo/Redo: transfer-function and crop edits, wherever the focus is.
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
    m_viewMenu->addSeparator();
    m_viewLayout->addActionsTo(m_viewMenu);
    m_viewMenu->addSeparator();
    m_viewMenu->addAction(m_isovalueDock->toggleViewAction());
    m_viewMenu->addAction(m_tfDock->toggleViewAction());
    m_viewMenu->addAction(m_cropDock->toggleViewAction());
    m_viewMenu->addAction(m_cropTool->showAction());
    m_viewMenu->addAction(m_measurements->dock()->toggleViewAction());
    m_viewMenu->addAction(m_surfacesDock->toggleViewAction());
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
    m_rendererLabel = label("rendererLabel", tr("OpenGL renderer"));

    QToolButton* cancelLoad = nullptr;
    m_loadProgress =
        makeProgressWidget(this, &m_loadProgressLabel, &m_loadProgressBar, &cancelLoad);
    m_loadProgress->setObjectName("loadProgress");
    connect(cancelLoad, &QToolButton::clicked, &m_loadTask, &BackgroundTask::cancel);

    statusBar()->addWidget(m_volumeLabel);
    statusBar()->addWidget(m_loadProgress);
    statusBar()->addWidget(m_surfaceExport->progressWidget());
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
    const int mode = s.value("view/mode", int(gpu::RenderMode::Surface)).toInt();
    for (QAction* a : m_modeGroup->actions()) {
        if (a->data().toInt() == mode) a->trigger();
    }
    m_orthographicAction->setChecked(s.value("view/orthographic", false).toBool());
    m_markerAction->setChecked(s.value("view/marker", true).toBool());
    const QVariant color = s.value("surface/color");
    if (color.isValid() && QColor(color.toString()).isValid()) {
        m_surfaceColorOverride = QColor(color.toString());
        m_tfColorAction->setChecked(false);
    }
}

void MainWindow::saveSettings() const
{
    QSettings s;
    s.setValue("window/geometry", saveGeometry());
    s.setValue("window/state", saveState());
    s.setValue("files/lastFolder", m_lastFolder);
    s.setValue("view/mode", int(m_view->renderMode()));
    s.setValue("view/orthographic", m_orthographicAction->isChecked());
    s.setValue("view/marker", m_markerAction->isChecked());
    if (m_surfaceColorOverride)
        s.setValue("surface/color", m_surfaceColorOverride->name());
    else
        s.remove("surface/color");
    if (m_document) {
        s.setValue("transferFunction/last",
                   QString::fromStdString(transferFunctionToJson(m_tfPanel->transferFunction())));
        s.setValue("transferFunction/lastUnits", m_document->units());
    }
}

QStringList MainWindow::recentFiles() const
{
    return m_recentFiles->paths();
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    saveSettings();
    m_loadTask.cancel();
    m_surfaceExport->cancel();
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
    if (m_loadTask.isRunning()) {
        showError(tr("Busy"), tr("A volume is still loading. Cancel it first, or wait."));
        return;
    }
    startLoad(path, isovalue, options, nullptr);
}

void MainWindow::startLoad(const QString& path, std::optional<double> isovalue,
                           const io::LoadOptions& options,
                           const std::shared_ptr<const io::VolumeSource>& source)
{
    auto outcome = std::make_shared<LoadOutcome>();
    const bool askSeries = !options.seriesIndex.has_value() && !options.raw.has_value();
    m_loadTask.disconnect(this);
    connect(&m_loadTask, &BackgroundTask::progressChanged, this,
            [this](const QString& stage, qint64 done, qint64 total) {
                m_loadProgressLabel->setText(stage);
                showProgress(m_loadProgressBar, done, total);
            });
    connect(&m_loadTask, &BackgroundTask::succeeded, this,
            [this, outcome, path, isovalue, options] {
                setBusy(m_loadProgress, false);
                // The answers go back to the source already opened: nothing is scanned again.
                if (outcome->askRawParameters) {
                    std::optional<io::RawVolumeParameters> raw =
                        RawImportDialog::ask(*outcome->source, this);
                    if (!raw) return;
                    io::LoadOptions withRaw = options;
                    withRaw.raw = raw;
                    startLoad(path, isovalue, withRaw, outcome->source);
                    return;
                }
                if (outcome->chooseSeries) {
                    const std::optional<std::size_t> series =
                        SeriesPickerDialog::ask(*outcome->source, this);
                    if (!series) return;
                    io::LoadOptions withSeries = options;
                    withSeries.seriesIndex = *series;
                    startLoad(path, isovalue, withSeries, outcome->source);
                    return;
                }
                applyDocument(outcome->document, isovalue);
            });
    connect(&m_loadTask, &BackgroundTask::failed, this, [this, path](const QString& message) {
        setBusy(m_loadProgress, false);
        showError(tr("Cannot open %1").arg(QFileInfo(path).fileName()), message);
        emit loadFailed(message);
    });
    connect(&m_loadTask, &BackgroundTask::cancelled, this, [this] {
        setBusy(m_loadProgress, false);
        statusBar()->showMessage(tr("Loading cancelled"), 4000);
        emit loadFailed(tr("cancelled"));
    });
    m_loadProgressLabel->setText(tr("Opening %1").arg(QFileInfo(path).fileName()));
    m_loadProgressBar->setRange(0, 0);
    setBusy(m_loadProgress, true);
    m_loadTask.start([outcome, path, options, askSeries, source](TaskContext& context) {
        outcome->source = source;
        if (!outcome->source) {
            const std::filesystem::path fsPath = path.toStdString();
            outcome->source = std::make_shared<const io::VolumeSource>(
                options.raw ? io::openRawSource(fsPath) : io::openSource(fsPath, &context));
        }
        const io::VolumeSource& opened = *outcome->source;
        if (opened.needsRawParameters && !options.raw) {
            outcome->askRawParameters = true;
            return;
        }
        // DICOM series, the volumes of a multi-volume series and of a 4-D NIfTI file alike.
        if (askSeries && !opened.series.empty()) {
            if (loadableSeriesCount(opened) == 0) {
                std::string why = "no series in it can be loaded";
                for (const io::SeriesSummary& s : opened.series)
                    why += "; " + s.note;
                throw InvalidInputError(why);
            }
            if (loadableSeriesCount(opened) > 1) {
                outcome->chooseSeries = true;
                return;
            }
        }
        outcome->document = loadVolumeDocument(opened, options, &context);
    });
}

void MainWindow::applyDocument(const std::shared_ptr<VolumeDocument>& doc,
                               std::optional<double> isovalue)
{
    if (const std::optional<QString> error = m_view->setVolume(doc->volume)) {
        showError(tr("Cannot show %1").arg(doc->displayName), *error);
        emit loadFailed(*error);
        return;
    }
    const std::shared_ptr<VolumeDocument> previous = std::exchange(m_document, doc);
    m_measurements->volumeChanged();
    const Volume& v = *doc->volume;
    const double iso = std::clamp(isovalue.value_or(doc->suggestedIsovalue), doc->realRange.min,
                                  doc->realRange.max);

    // The transfer function: the modality's default unless the user keeps the current one.
    const std::optional<TransferFunction> shownTf =
        previous ? std::optional(m_tfPanel->transferFunction()) : std::nullopt;
    const TransferFunction tf =
        m_tfStart->forVolume(v, doc->units(), shownTf, previous ? previous->units() : QString());
    m_isovaluePanel->setVolumeContext(doc->histogram, doc->realRange, doc->units(),
                                      doc->integerValued);
    m_cropPanel->setVolumeDims(v.dims()); // a new volume starts uncropped (so does the view)
    m_tfPanel->setVolumeContext(doc->histogram, doc->realRange, doc->units());
    m_tfPanel->setTransferFunction(tf);
    m_view->setTransferFunction(m_tfPanel->transferFunction());
    m_isovaluePanel->setIsovalue(iso);
    m_surfacesPanel->resetForVolume(m_isovaluePanel->isovalue(), m_surfaceColorOverride);
    m_view->setIsovalue(m_isovaluePanel->isovalue());
    m_viewLayout->setVolume(doc->volume, doc->realRange);
    updateSurfaceColor();

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
    updateViewNames();
    m_lastFolder = QFileInfo(doc->path).absolutePath();
    m_recentFiles->add(doc->path);
    for (const std::string& w : v.metadata().warnings)
        log::get("io")->warn("{}", w);
    if (!v.metadata().warnings.empty())
        statusBar()->showMessage(
            tr("%1 loader note(s), see the log panel (Ctrl+L)").arg(v.metadata().warnings.size()),
            8000);
    log::get("app")->info("opened {} ({}x{}x{}), isovalue {}", doc->path.toStdString(), d.x, d.y,
                          d.z, iso);
    emit volumeLoaded();
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

// ---- isovalue, transfer function, colour ----------------------------------------------------

void MainWindow::onIsovalueChanged(double real)
{
    m_view->setIsovalue(real);
    updateSurfaceColor();
}

void MainWindow::onTransferFunctionChanged()
{
    m_view->setTransferFunction(m_tfPanel->transferFunction());
    updateSurfaceColor();
}

void MainWindow::updateSurfaceColor()
{
    if (m_surfaceColorOverride) {
        m_view->setSurfaceColor(*m_surfaceColorOverride);
        return;
    }
    if (!m_document) return;
    // The transfer function's colour at the isovalue, brightened when it is dark: a surface
    // is shaded, and a near-black surface shows nothing.
    const glm::vec3 c =
        transferFunctionSurfaceColor(m_tfPanel->transferFunction(), m_view->isovalue());
    m_view->setSurfaceColor(QColor::fromRgbF(c.r, c.g, c.b));
}

void MainWindow::setSurfaceColorOverride(const std::optional<QColor>& color)
{
    m_surfacesPanel->setSelectedColor(color); // its selectedColorChanged updates the view
}

void MainWindow::chooseSurfaceColor()
{
    const QColor chosen =
        QColorDialog::getColor(m_view->surfaceColor(), this, tr("Surface Colour"));
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
    m_triangleLabel->setText(stats.triangles ? tr("%1 triangles").arg(formatCount(*stats.triangles))
                                             : tr("... triangles"));
    QStringList timing;
    if (stats.gpu.extractMs) timing << tr("pyramid %1 ms").arg(*stats.gpu.extractMs, 0, 'f', 1);
    if (stats.gpu.surfaceMs) timing << tr("surface %1 ms").arg(*stats.gpu.surfaceMs, 0, 'f', 1);
    if (stats.gpu.volumeMs) timing << tr("volume %1 ms").arg(*stats.gpu.volumeMs, 0, 'f', 1);
    m_timingLabel->setText(timing.join(" | "));
    m_fpsLabel->setText(stats.framesPerSecond > 0.0
                            ? tr("%1 fps").arg(stats.framesPerSecond, 0, 'f', 1)
                            : QString());
}

void MainWindow::setBusy(QWidget* progress, bool busy)
{
    progress->setVisible(busy);
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
    auto* box = new QMessageBox(QMessageBox::Critical, title, message, QMessageBox::Ok, this);
    box->setObjectName("errorDialog");
    box->setAttribute(Qt::WA_DeleteOnClose);
    const QString log = logFilePath();
    if (!log.isEmpty()) box->setInformativeText(tr("Details are in the log: %1").arg(log));
    box->open(); // window-modal, never blocks the event loop
    log::get("app")->error("{}: {}", title.toStdString(), message.toStdString());
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

void MainWindow::screenshotWhenReady(const QString& path)
{
    m_screenshots->saveWindowWhenReady(path);
}

} // namespace isoview::app
