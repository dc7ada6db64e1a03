// File > Export Surface... (Ctrl+E): the surface on screen, asked for in MeshExportDialog
// (format, space, vertex colour, print preparation; starting in the last surface folder),
// captured from the GPU on the GUI thread and written, prepared for printing first when asked,
// on a background task with progress and Cancel in the status bar; a prepared export ends with
// its report. A failed or cancelled export leaves no file (surface_export_job.h).
//
// Thread: GUI only. Owned by the window it serves.
#pragma once

#include "common/background_task.h"
#include "mesh_export/mesh_export.h"
#include "mesh_processing/print_preparation.h"

#include <QObject>
#include <QString>
#include <functional>

class QLabel;
class QMainWindow;
class QProgressBar;
class QWidget;

namespace isoview::app {

class ViewportWidget;
struct VolumeDocument;

class SurfaceExportFlow : public QObject {
    Q_OBJECT
public:
    // document() gives the open volume (null: none).
    SurfaceExportFlow(QMainWindow* window, ViewportWidget* view,
                      std::function<const VolumeDocument*()> document);

    // The progress (label, bar, Cancel) for the window's status bar; shown while exporting.
    QWidget* progressWidget() const { return m_progress; }

    // Asks for the file and options, then exports.
    void dialog();
    // Exports the surface on screen to path in the background, prepared for printing first
    // when steps ask for any. Ends with finished; failures also with failed first.
    void exportTo(const QString& path, const MeshExportOptions& options, const PrintSteps& steps);
    void cancel() { m_task.cancel(); }

signals:
    void finished(bool ok, const QString& message);
    // For the window's error dialog.
    void failed(const QString& title, const QString& message);

private:
    void fail(const QString& message);

    QMainWindow* m_window;
    ViewportWidget* m_view;
    std::function<const VolumeDocument*()> m_document;
    BackgroundTask m_task;
    QWidget* m_progress = nullptr;
    QLabel* m_progressLabel = nullptr;
    QProgressBar* m_progressBar = nullptr;
};

} // namespace isoview::app
