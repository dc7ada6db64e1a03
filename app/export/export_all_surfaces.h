// File > Export All Surfaces and Labels... (Ctrl+Shift+E): every visible surface of the Surfaces
// dock and every shown label of the label map (named from its table),
// either a file each (a folder and a name pattern, "{volume}_{surface}" by default) or one PLY
// with each surface in its colour. The meshes are captured from the GPU on the GUI thread and
// written on a background task with progress and Cancel in the status bar; nothing is written
// over an existing file of the per-surface kind (surface_export_job.h), and a failed or
// cancelled export leaves no file behind.
//
// Thread: GUI only. Owned by the window it serves.
#pragma once

#include "common/background_task.h"
#include "mesh_export/mesh_export.h"

#include <QObject>
#include <QString>

class QAction;
class QLabel;
class QMainWindow;
class QProgressBar;
class QWidget;

namespace isoview::app {

class ViewportWidget;
struct VolumeDocument;

class ExportAllSurfaces : public QObject {
    Q_OBJECT
public:
    // document() gives the open volume (null: none).
    // The surfaces are the view's scene's.
    ExportAllSurfaces(QMainWindow* window, ViewportWidget* view,
                      std::function<const VolumeDocument*()> document);

    QAction* action() const { return m_action; }
    bool isRunning() const { return m_task.isRunning(); }

    // A file each in folder, named by pattern ({volume}, {surface}, {n}) with the format's
    // extension; or (merged) one file at path: a PLY, or a 3MF when options.format is ThreeMf.
    // Refusals (nothing visible, an empty surface, an existing file, a pattern that names two
    // surfaces alike) end in an error dialog and finished(false, message). Ends with finished.
    void exportEach(const QString& folder, const QString& pattern,
                    const MeshExportOptions& options);
    void exportMerged(const QString& path, const MeshExportOptions& options);

signals:
    void finished(bool ok, const QString& message);

private:
    void dialog();
    // The visible surfaces' captures, or an error message.
    bool capture(std::vector<struct NamedSurface>* out, QString* error);
    // The label map's shown labels (when the scene has one), each a surface of its own.
    bool captureLabels(std::vector<struct NamedSurface>* out, QString* error);
    void run(std::function<void(TaskContext&)> work, const QString& done);
    void fail(const QString& message);

    QMainWindow* m_window;
    ViewportWidget* m_view;
    std::function<const VolumeDocument*()> m_document;
    QAction* m_action = nullptr;
    BackgroundTask m_task;
    QWidget* m_progress = nullptr;
    QProgressBar* m_progressBar = nullptr;
};

} // namespace isoview::app
