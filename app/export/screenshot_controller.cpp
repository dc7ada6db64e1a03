#include "export/screenshot_controller.h"

#include "common/output_folders.h"
#include "export/png_file.h"
#include "views/frame_worker.h"
#include "views/viewport_widget.h"

#include <QDir>
#include <QFileDialog>
#include <QStatusBar>
#include <QTimer>
#include <utility>

namespace isoview::app {

ScreenshotController::ScreenshotController(QWidget* window, ViewportWidget* view,
                                           std::function<bool()> ready)
    : QObject(window), m_window(window), m_view(view), m_ready(std::move(ready))
{
    connect(m_view, &ViewportWidget::frameStatsChanged, this, &ScreenshotController::onFrame);
}

void ScreenshotController::saveDialog()
{
    const QString start = QDir(outputFolder(OutputKind::Screenshot)).filePath("isoview.png");
    const QString file = QFileDialog::getSaveFileName(m_window, tr("Save Screenshot"), start,
                                                      tr("PNG image (*.png)"));
    if (file.isEmpty()) return;
    QString error;
    if (!save(file, &error))
        emit failed(tr("Cannot save the screenshot"), error);
    else
        rememberOutputFolder(OutputKind::Screenshot, file);
}

bool ScreenshotController::save(const QString& path, QString* error)
{
    if (!savePng(m_view->grabView(), path, error)) return false;
    emit statusMessage(tr("Saved %1").arg(path), 5000);
    return true;
}

void ScreenshotController::saveWindowWhenReady(const QString& path)
{
    m_pending = path;
}

void ScreenshotController::onFrame()
{
    // A session's surfaces and crop are applied once its volume is loaded, whose first frames
    // can come without them: wait for a frame that has them.
    if (m_pending.isEmpty() || !m_ready() || !m_view->showsCurrentSurface()) return;
    const QString path = m_pending;
    m_pending.clear();
    // One more event-loop turn, so the status bar shows this frame's figures too.
    QTimer::singleShot(50, this, [this, path] {
        m_view->grabView(); // volume rendering at full resolution before the window's grab
        QString error;
        const bool ok = savePng(m_window->grab().toImage(), path, &error);
        emit done(ok, ok ? path : error);
    });
}

void ScreenshotController::abandon(const QString& why)
{
    if (m_pending.isEmpty()) return;
    m_pending.clear();
    emit done(false, why);
}

} // namespace isoview::app
