#include "export/surface_export_flow.h"

#include "common/number_text.h"
#include "common/output_folders.h"
#include "common/status_progress.h"
#include "core/error.h"
#include "export/export_report.h"
#include "export/mesh_export_dialog.h"
#include "export/surface_export_job.h"
#include "loading/volume_document.h"
#include "views/frame_worker.h"
#include "views/viewport_widget.h"

#include <QApplication>
#include <QFileInfo>
#include <QLabel>
#include <QLocale>
#include <QMainWindow>
#include <QProgressBar>
#include <QStatusBar>
#include <QToolButton>
#include <memory>
#include <optional>

namespace isoview::app {

SurfaceExportFlow::SurfaceExportFlow(QMainWindow* window, ViewportWidget* view,
                                     std::function<const VolumeDocument*()> document)
    : QObject(window), m_window(window), m_view(view), m_document(std::move(document))
{
    QToolButton* cancelButton = nullptr;
    m_progress = makeProgressWidget(window, &m_progressLabel, &m_progressBar, &cancelButton);
    m_progress->setObjectName("exportProgress");
    connect(cancelButton, &QToolButton::clicked, &m_task, &BackgroundTask::cancel);
}

void SurfaceExportFlow::fail(const QString& message)
{
    emit failed(tr("Export failed"), message);
    emit finished(false, message);
}

void SurfaceExportFlow::dialog()
{
    const VolumeDocument* document = m_document();
    if (!document) return;
    const QString folder = outputFolder(OutputKind::Surface);
    const QString base =
        QFileInfo(document->path).completeBaseName() +
        QStringLiteral("_iso%1").arg(formatValue(m_view->scene().scene().liveIsovalue()));
    const std::uint64_t triangles = m_view->lastFrameStats().triangles.value_or(0);
    const auto choice =
        MeshExportDialog::ask(folder, base, m_view->anatomical(), triangles, m_window);
    if (!choice) return;
    rememberOutputFolder(OutputKind::Surface, choice->path);
    MeshExportOptions options = choice->options;
    if (choice->vertexColor) {
        const Scene& scene = m_view->scene().scene();
        const glm::vec3 draw = surfaceDrawColor(scene.surfaces.selected(), scene.transferFunction);
        const QColor c = QColor::fromRgbF(draw.r, draw.g, draw.b);
        options.vertexColor = glm::u8vec3(c.red(), c.green(), c.blue());
    }
    exportTo(choice->path, options, choice->steps);
}

void SurfaceExportFlow::exportTo(const QString& path, const MeshExportOptions& options,
                                 const PrintSteps& steps)
{
    const VolumeDocument* document = m_document();
    if (!document || m_task.isRunning()) {
        emit finished(false, tr("nothing to export, or an export is running"));
        return;
    }
    // The surface on screen: captured from the GPU now, written in the background.
    auto surface = std::make_shared<CapturedSurface>();
    try {
        QApplication::setOverrideCursor(Qt::WaitCursor);
        *surface = m_view->captureSurface();
        QApplication::restoreOverrideCursor();
    } catch (const Error& e) {
        QApplication::restoreOverrideCursor();
        fail(QString::fromUtf8(e.what()));
        return;
    }
    if (surface->mesh.triangleCount() == 0) {
        fail(tr("The surface is empty at this isovalue: nothing to export."));
        return;
    }
    const std::shared_ptr<const Volume> volume = document->volume;
    const bool prepare = steps.any();
    try {
        checkSurfaceExport(steps, options, volume->geometry());
    } catch (const Error& e) {
        fail(QString::fromUtf8(e.what()));
        return;
    }
    m_task.disconnect(this);
    connect(&m_task, &BackgroundTask::progressChanged, this,
            [this](const QString& stage, qint64 done, qint64 total) {
                m_progressLabel->setText(stage == "writing" ? tr("Exporting")
                                                            : tr("Preparing (%1)").arg(stage));
                showProgress(m_progressBar, done, total);
            });
    auto report = std::make_shared<std::optional<PrintReport>>();
    const qulonglong triangles = surface->mesh.triangleCount();
    // The job drops zero-area triangles before writing: the file's count is read after it.
    connect(&m_task, &BackgroundTask::succeeded, this, [this, path, triangles, report, surface] {
        m_progress->hide();
        if (*report) {
            m_window->statusBar()->showMessage(
                tr("Exported %1 triangles (%2 before preparation) to %3")
                    .arg(formatCount((*report)->trianglesAfter), formatCount(triangles), path),
                8000);
            showExportReport(m_window, **report, path);
        } else {
            m_window->statusBar()->showMessage(
                tr("Exported %1 triangles to %2")
                    .arg(formatCount(surface->mesh.triangleCount()), path),
                8000);
        }
        emit finished(true, path);
    });
    connect(&m_task, &BackgroundTask::failed, this, [this](const QString& message) {
        m_progress->hide();
        emit failed(tr("Export failed"), message);
        emit finished(false, message);
    });
    connect(&m_task, &BackgroundTask::cancelled, this, [this] {
        m_progress->hide();
        m_window->statusBar()->showMessage(tr("Export cancelled; no file was written"), 6000);
        emit finished(false, tr("cancelled"));
    });
    m_progressLabel->setText(prepare ? tr("Preparing") : tr("Exporting"));
    m_progressBar->setRange(0, 1000);
    m_progressBar->setValue(0);
    m_progress->show();
    m_task.start([surface, volume, options, steps, path, report](TaskContext& context) {
        *report =
            writeCapturedSurface(*surface, *volume, options, steps, path.toStdString(), context);
    });
}

} // namespace isoview::app
