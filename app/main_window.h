// The viewer's main window: it wires the 3D view, the isovalue panel, the transfer-function
// editor, the log panel and the status bar to the engine and the loaders, and owns the
// actions (menus, shortcuts), recent files and remembered settings. Slow work (loading,
// writing meshes) runs as BackgroundTasks with a progress bar and Cancel in the status bar;
// the current volume stays usable meanwhile. Every failure ends in an error dialog that
// quotes the loader's or writer's message and names the log file.
#pragma once

#include "common/background_task.h"
#include "loading/volume_document.h"
#include "mesh_export/mesh_export.h"
#include "mesh_processing/print_preparation.h"
#include "views/viewport_widget.h"

#include <QMainWindow>
#include <QStringList>
#include <memory>
#include <optional>

class QAction;
class QActionGroup;
class QDockWidget;
class QLabel;
class QMenu;
class QProgressBar;
class QToolButton;

namespace isoview::app {

class IsovaluePanel;
class LogPanel;
class TransferFunctionPanel;
class ViewLayout;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Opens a volume in the background: the source is opened (scanned) once, then raw
    // parameters or a DICOM series are asked for when needed, and the volume is loaded from that
    // same source. isovalue: real units to start at instead of the suggested one.
    void openPath(const QString& path, std::optional<double> isovalue = std::nullopt,
                  const io::LoadOptions& options = {});
    // Exports the surface on screen in the background, prepared for printing first when steps
    // ask for any (then a report follows). Ends with exportFinished.
    void exportMeshTo(const QString& path, const MeshExportOptions& options,
                      const PrintSteps& steps = {});
    // Writes the 3D view (with overlays) as PNG, atomically. Returns false and fills error.
    bool saveScreenshot(const QString& path, QString* error);
    // Saves a screenshot of the whole window once the first volume's surface is on screen,
    // then emits screenshotDone (for `isoview --screenshot FILE`).
    void screenshotWhenReady(const QString& path);

    ViewportWidget* viewport() const { return m_view; }
    ViewLayout* viewLayout() const { return m_viewLayout; }
    IsovaluePanel* isovaluePanel() const { return m_isovaluePanel; }
    TransferFunctionPanel* transferFunctionPanel() const { return m_tfPanel; }
    const VolumeDocument* document() const { return m_document.get(); }
    bool isLoading() const { return m_loadTask.isRunning(); }
    QStringList recentFiles() const;
    // What File > Save/Open Session reads and restores (session_controller.h).
    class SessionController* sessionController() const { return m_sessionController; }
    class CropPanel* cropPanel() const { return m_cropPanel; }
    QActionGroup* renderModeGroup() const { return m_modeGroup; }
    QAction* orthographicAction() const { return m_orthographicAction; }
    QAction* orientationMarkerAction() const { return m_markerAction; }
    std::optional<QColor> surfaceColorOverride() const { return m_surfaceColorOverride; }
    // nullopt: the transfer function's colour at the isovalue (Surface > Colour from TF).
    void setSurfaceColorOverride(const std::optional<QColor>& color);
    // The Measurements dock, the distance tool and its actions (measurements.h).
    class Measurements* measurements() const { return m_measurements; }
    // The Surfaces dock: the isosurfaces, the selected one edited by the isovalue panel.
    class SurfaceListPanel* surfaceListPanel() const { return m_surfacesPanel; }

signals:
    void volumeLoaded();
    void loadFailed(const QString& message);
    void exportFinished(bool ok, const QString& message);
    void screenshotDone(bool ok, const QString& message);

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void createActions();
    void createMenus();
    void createDocks();
    void createStatusBar();
    void restoreSettings();
    void saveSettings() const;

    void openFileDialog();
    void openFolderDialog();
    // Opens path in the background unless source is given (an answer to the raw or series
    // question about it), then loads or asks.
    void startLoad(const QString& path, std::optional<double> isovalue,
                   const io::LoadOptions& options,
                   const std::shared_ptr<const io::VolumeSource>& source);
    void applyDocument(const std::shared_ptr<VolumeDocument>& doc, std::optional<double> isovalue);
    void onIsovalueChanged(double real);
    void onTransferFunctionChanged();
    void updateSurfaceColor();
    void chooseSurfaceColor();
    void stepIsovalue(int direction);
    void onFrameStats(const FrameStats& stats);
    void showError(const QString& title, const QString& message);
    void showShortcuts();
    void showAbout();
    void updateViewNames();
    void setBusy(QWidget* progress, bool busy);

    ViewportWidget* m_view = nullptr;
    ViewLayout* m_viewLayout = nullptr; // the 3D view beside the slice views
    IsovaluePanel* m_isovaluePanel = nullptr;
    TransferFunctionPanel* m_tfPanel = nullptr;
    LogPanel* m_logPanel = nullptr;
    QDockWidget* m_isovalueDock = nullptr;
    QDockWidget* m_tfDock = nullptr;
    class CropPanel* m_cropPanel = nullptr;
    QDockWidget* m_cropDock = nullptr;
    class CropTool* m_cropTool = nullptr; // the crop box's handles in the views
    QDockWidget* m_logDock = nullptr;
    class TransferFunctionStart* m_tfStart = nullptr;
    class SessionController* m_sessionController = nullptr;
    class Measurements* m_measurements = nullptr;
    class SurfaceListPanel* m_surfacesPanel = nullptr;
    QDockWidget* m_surfacesDock = nullptr;

    std::shared_ptr<VolumeDocument> m_document;
    BackgroundTask m_loadTask;
    std::optional<QColor> m_surfaceColorOverride;
    class RecentFiles* m_recentFiles = nullptr;
    QString m_lastFolder;
    class ScreenshotController* m_screenshots = nullptr; // File > Save Screenshot, --screenshot
    class SurfaceExportFlow* m_surfaceExport = nullptr;  // File > Export Surface

    // Status bar.
    QLabel* m_volumeLabel = nullptr;
    QLabel* m_triangleLabel = nullptr;
    QLabel* m_timingLabel = nullptr;
    QLabel* m_fpsLabel = nullptr;
    QLabel* m_rendererLabel = nullptr;
    QLabel* m_geometryLabel = nullptr; // uneven or tilted stacks (stack_geometry_note.h)
    QWidget* m_loadProgress = nullptr;
    QLabel* m_loadProgressLabel = nullptr;
    QProgressBar* m_loadProgressBar = nullptr;

    // Actions.
    QAction* m_openAction = nullptr;
    QAction* m_openFolderAction = nullptr;
    QAction* m_exportAction = nullptr;
    QAction* m_screenshotAction = nullptr;
    QAction* m_quitAction = nullptr;
    QActionGroup* m_modeGroup = nullptr;
    QAction* m_surfaceModeAction = nullptr;
    QAction* m_volumeModeAction = nullptr;
    QAction* m_bothModeAction = nullptr;
    QAction* m_orthographicAction = nullptr;
    QAction* m_resetViewAction = nullptr;
    QAction* m_fitViewAction = nullptr;
    QAction* m_markerAction = nullptr;
    QList<QAction*> m_standardViewActions;
    QAction* m_surfaceColorAction = nullptr;
    QAction* m_tfColorAction = nullptr;
    QAction* m_isoUpAction = nullptr;
    QAction* m_isoDownAction = nullptr;
    QMenu* m_viewMenu = nullptr;
};

} // namespace isoview::app
