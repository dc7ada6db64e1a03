// File > Export All Surfaces and Labels... (Ctrl+Shift+E): every visible surface of the Surfaces
// dock and every shown label of the label map (named from its table),
// either a file each (a folder and a name pattern, "{volume}_{surface}" by default) or one PLY
// with each surface in its colour, or one 3MF. Print preparation (the steps File > Export
// Surface offers) applies to each surface and label (export_all_preparation.h). The meshes are
// captured from the GPU on the GUI thread, prepared and written on a background task with
// progress (per surface and stage) and Cancel in the status bar; nothing is written over an
// existing file of the per-surface kind (surface_export_job.h), and a failed or cancelled
// export leaves no file behind. The status bar and the log say what preparation did.
//
// Thread: GUI only. Owned by the window it serves.
#pragma once

#include "common/background_task.h"
#include "mesh_export/mesh_export.h"
#include "mesh_processing/print_preparation.h"

#include <QObject>
#include <QString>
#include <functional>
#include <memory>

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
    // Each surface prepared with steps first when any is set (recorded in each file's header).
    // Refusals (nothing visible, an empty surface, an existing file, a pattern that names two
    // surfaces alike, bad steps) end in an error dialog and finished(false, message). Ends with
    // finished; its message on success is the status bar's, preparation's summary included.
    void exportEach(const QString& folder, const QString& pattern, const MeshExportOptions& options,
                    const PrintSteps& steps = {});
    void exportMerged(const QString& path, const MeshExportOptions& options,
                      const PrintSteps& steps = {});

signals:
    void finished(bool ok, const QString& message);

private:
    void dialog();
    // The visible surfaces' captures, or an error message.
    bool capture(std::vector<struct NamedSurface>* out, QString* error);
    // The label map's shown labels (when the scene has one), each a surface of its own.
    bool captureLabels(std::vector<struct NamedSurface>* out, QString* error);
    // The label map the captured labels belong to (null without one).
    std::shared_ptr<const Volume> labelMap() const;
    // done: the status bar's message once the work succeeded.
    void run(std::function<void(TaskContext&)> work, std::function<QString()> done);
    void fail(const QString& message);

    QMainWindow* m_window;
    ViewportWidget* m_view;
    std::function<const VolumeDocument*()> m_document;
    QAction* m_action = nullptr;
    BackgroundTask m_task;
    QWidget* m_progress = nullptr;
    QLabel* m_progressLabel = nullptr;
    QProgressBar* m_progressBar = nullptr;
};

} // namespace isoview::app
