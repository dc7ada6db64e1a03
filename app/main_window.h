// The viewer's main window: it owns the scene (scene_model.h) and wires the panels, views and
// controllers to it, and owns the actions (menus, shortcuts), recent files and remembered
// settings. Each feature lives in its folder and edits the scene; the window only builds the
// parts, connects them and shows the status bar. Slow work (loading, writing meshes) runs as
// BackgroundTasks with a progress bar and Cancel in the status bar; the current volume stays
// usable meanwhile. Every failure ends in an error dialog that quotes the loader's or writer's
// message and names the log file.
#pragma once

#include "loading/document_source.h"
#include "loading/volume_document.h"
#include "mesh_export/mesh_export.h"
#include "mesh_processing/print_preparation.h"
#include "scene/frame_policy.h"
#include "scene_model.h"

#include <QMainWindow>
#include <QSize>
#include <QStringList>
#include <functional>
#include <memory>
#include <optional>

class QAction;
class QActionGroup;
class QDockWidget;
class QLabel;
class QMenu;

namespace isoview::app {

class CropPanel;
class CropTool;
class IsovaluePanel;
class LogPanel;
class Measurements;
class RecentFiles;
class ScreenshotController;
class SessionController;
class SurfaceExportFlow;
class MovieExportFlow;
class TimeBar;
struct MovieRequest;
class SurfaceListPanel;
class TransferFunctionPanel;
class TransferFunctionStart;
class ViewLayout;
class ViewportWidget;
class VolumeOpener;
class LabelMapOpener;
class LabelsPanel;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Opens a volume (or a session file, by its name) in the background; raw parameters or a
    // DICOM series are asked for when needed. isovalue: real units to start at instead of the
    // suggested one.
    void openPath(const QString& path, std::optional<double> isovalue = std::nullopt,
                  const io::LoadOptions& options = {});
    // Lays a label map over the volume (File > Open Label Map…); without a volume it is opened as
    // the volume first, its isosurface hidden. Ends with labelsLoaded, or an error dialog.
    void openLabelMap(const QString& path);
    // Names and colours the open label map's labels from a table file (an error dialog if not).
    void openLabelTable(const QString& path);
    // Exports the surface on screen in the background, prepared for printing first when steps
    // ask for any (then a report follows). Ends with exportFinished.
    void exportMeshTo(const QString& path, const MeshExportOptions& options,
                      const PrintSteps& steps = {});
    // Writes the 3D view (with overlays) as PNG, atomically. Returns false and fills error.
    bool saveScreenshot(const QString& path, QString* error);
    // Saves a screenshot of the whole window (with a size: of the 3D view alone, rendered off
    // screen at that size, its background transparent if asked) once the first volume's
    // surface is on screen, then emits screenshotDone (for `isoview --screenshot FILE`).
    void screenshotWhenReady(const QString& path, std::optional<QSize> size = std::nullopt,
                             bool transparent = false);
    // Records a movie of the first volume (or session) once it is on screen, in this window
    // shown or not, then emits movieDone (for `isoview --movie FILE`).
    void movieWhenReady(const MovieRequest& request);
    // File > Export Movie... and its recorder.
    MovieExportFlow* movieExport() const { return m_movieExport; }
    // The time bar (play a series' time points), shown while the volume has a series.
    TimeBar* timeBar() const { return m_timeBar; }

    // The scene every panel and view shows and edits.
    SceneModel* scene() const { return m_scene; }
    ViewportWidget* viewport() const { return m_view; }
    const VolumeDocument* document() const { return m_document.get(); }
    bool isLoading() const;

signals:
    void volumeLoaded();
    void labelsLoaded();
    void loadFailed(const QString& message);
    void exportFinished(bool ok, const QString& message);
    void screenshotDone(bool ok, const QString& message);
    void movieDone(bool ok, const QString& pathOrError);

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void createDocks();
    void createControllers();
    void createActions();
    void createMenus();
    void createStatusBar();
    void restoreSettings();
    void saveSettings() const;
    DocumentSource documentSource();

    void openFileDialog();
    void openFolderDialog();
    // A loaded volume goes to the GPU (on the render thread: the window keeps answering), then
    // showDocument makes it the document and the scene's volume; a failed upload ends in an
    // error dialog and loadFailed, the previous document staying.
    void applyDocument(const std::shared_ptr<VolumeDocument>& doc, std::optional<double> isovalue);
    void showDocument(const std::shared_ptr<VolumeDocument>& doc, std::optional<double> isovalue);
    // The volume on screen is a label map: its isosurface hidden, its labels laid over it.
    void showVolumeAsLabels();
    // Asks (once per file, without blocking) whether a volume that looks like a label map is one.
    void offerVolumeAsLabels(const QString& path);
    // Keeps the panels and actions that show scene state in step with it.
    void onSceneChanged(SceneChanges what);
    void chooseSurfaceColor();
    void stepIsovalue(int direction);
    void editCamera(const std::function<void(OrbitCamera&)>& edit);
    void onFrameStats(const FrameStats& stats);
    void showError(const QString& title, const QString& message);
    void showShortcuts();
    void showAbout();
    void updateViewNames();

    SceneModel* m_scene = nullptr;
    ViewportWidget* m_view = nullptr;
    ViewLayout* m_viewLayout = nullptr; // the 3D view beside the slice views
    IsovaluePanel* m_isovaluePanel = nullptr;
    TransferFunctionPanel* m_tfPanel = nullptr;
    LogPanel* m_logPanel = nullptr;
    QDockWidget* m_isovalueDock = nullptr;
    QDockWidget* m_tfDock = nullptr;
    CropPanel* m_cropPanel = nullptr;
    QDockWidget* m_cropDock = nullptr;
    CropTool* m_cropTool = nullptr; // the crop box's handles in the views
    QDockWidget* m_logDock = nullptr;
    TransferFunctionStart* m_tfStart = nullptr;
    SessionController* m_sessionController = nullptr;
    Measurements* m_measurements = nullptr;
    SurfaceListPanel* m_surfacesPanel = nullptr;
    QDockWidget* m_surfacesDock = nullptr;
    LabelsPanel* m_labelsPanel = nullptr;
    QDockWidget* m_labelsDock = nullptr;
    LabelMapOpener* m_labelOpener = nullptr;
    QString m_labelsAfterLoad; // a label map opened as the volume: laid over it once loaded
    std::function<void()> m_afterLabels; // what a session does once its label map is in

    std::shared_ptr<VolumeDocument> m_document;
    bool m_uploadingDocument = false; // a loaded volume is on its way to the GPU
    VolumeOpener* m_opener = nullptr;
    RecentFiles* m_recentFiles = nullptr;
    QString m_lastFolder;
    ScreenshotController* m_screenshots = nullptr; // File > Save Screenshot, --screenshot
    SurfaceExportFlow* m_surfaceExport = nullptr;  // File > Export Surface
    MovieExportFlow* m_movieExport = nullptr;      // File > Export Movie, --movie
    TimeBar* m_timeBar = nullptr;                  // a series' time points: play, step

    // Status bar.
    QLabel* m_volumeLabel = nullptr;
    QLabel* m_triangleLabel = nullptr;
    QLabel* m_timingLabel = nullptr;
    QLabel* m_fpsLabel = nullptr;
    QLabel* m_rendererLabel = nullptr;
    QLabel* m_geometryLabel = nullptr; // uneven or tilted stacks (stack_geometry_note.h)

    // Actions.
    QAction* m_openAction = nullptr;
    QAction* m_openFolderAction = nullptr;
    QAction* m_exportAction = nullptr;
    QAction* m_screenshotAction = nullptr;
    QAction* m_quitAction = nullptr;
    QActionGroup* m_modeGroup = nullptr;
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
