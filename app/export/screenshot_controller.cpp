#include "export/screenshot_controller.h"

#include "common/output_folders.h"
#include "export/png_file.h"
#include "export/screenshot_dialog.h"
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
    const QSize viewSize = m_view->devicePixelSize();
    ScreenshotDialog options(viewSize, m_window);
    if (options.exec() != QDialog::Accepted) return;
    const ScreenshotOptions chosen = options.options();
    const QString start = QDir(outputFolder(OutputKind::Screenshot)).filePath("isoview.png");
    const QString file = QFileDialog::getSaveFileName(m_window, tr("Save Screenshot"), start,
                                                      tr("PNG image (*.png)"));
    if (file.isEmpty()) return;
    if (chosen.size || chosen.transparent) {
        saveRendered(file, chosen.size.value_or(viewSize), chosen.transparent);
        return;
    }
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

void ScreenshotController::saveRendered(const QString& path, QSize size, bool transparent)
{
    emit statusMessage(
        tr("Rendering the screenshot (%1 x %2)...").arg(size.width()).arg(size.height()), 0);
    renderAndSave(path, size, transparent, [this](bool ok, const QString& pathOrError) {
        if (!ok) {
            emit statusMessage(QString(), 1);
            emit failed(tr("Cannot save the screenshot"), pathOrError);
            return;
        }
        rememberOutputFolder(OutputKind::Screenshot, pathOrError);
        emit statusMessage(tr("Saved %1").arg(pathOrError), 5000);
        emit saved(pathOrError);
    });
}

void ScreenshotController::renderAndSave(const QString& path, QSize size, bool transparent,
                                         std::function<void(bool, const QString&)> done)
{
    m_view->renderImageLater(
        size, transparent, this,
        [path, done = std::move(done)](const QImage& image, const QString& error) {
            if (image.isNull()) {
                done(false, error);
                return;
            }
            QString saveError;
            const bool ok = savePng(image, path, &saveError);
            done(ok, ok ? path : saveError);
        });
}

void ScreenshotController::saveWindowWhenReady(const QString& path, std::optional<QSize> size,
                                               bool transparent)
{
    m_pending = path;
    m_pendingSize = size;
    m_pendingTransparent = transparent;
}

void ScreenshotController::onFrame()
{
    // A session's surfaces and crop are applied once its volume is loaded, whose first frames
    // can come without them: wait for a frame that has them.
    if (m_pending.isEmpty() || !m_ready() || !m_view->showsCurrentSurface()) return;
    const QString path = m_pending;
    m_pending.clear();
    if (m_pendingSize || m_pendingTransparent) {
        // Transparent without a size: the view's own, as laid out now that it shows the scene.
        renderAndSave(path, m_pendingSize.value_or(m_view->devicePixelSize()), m_pendingTransparent,
                      [this](bool ok, const QString& pathOrError) { emit done(ok, pathOrError); });
        return;
    }
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
