#include "app_test_support.h"

#include "common/app_defaults.h"
#include "surfaces/surface_list_panel.h"
#include "test_paths.h"

#include <gtest/gtest.h>

#include <QAction>
#include <QApplication>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>
#include <QWidget>
#include <cstdlib>

namespace isoview::app::test {

QString samplePath()
{
    return QString::fromStdString(std::string(isoview::test::kSourceDir) +
                                  "/resources/samples/mr_head.nhdr");
}

void setUpApplicationDefaults()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName("isoview-tests");
    QCoreApplication::setApplicationName("isoview-tests");
    // Settings of this process only: ctest runs test processes in parallel, and one process's
    // window writing its settings on close must not clobber what another test just saved.
    static QTemporaryDir settingsFolder;
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settingsFolder.path());
    QSettings().clear();
}

void saveScreenshot(QWidget& widget, const QString& name)
{
    const char* folder = std::getenv("ISOVIEW_TEST_SCREENSHOTS");
    if (folder == nullptr) return;
    ASSERT_TRUE(widget.grab().save(QString("%1/%2.png").arg(folder, name)));
}

QPalette darkPalette()
{
    QPalette p;
    p.setColor(QPalette::Window, QColor(45, 45, 48));
    p.setColor(QPalette::WindowText, QColor(220, 220, 220));
    p.setColor(QPalette::Base, QColor(30, 30, 32));
    p.setColor(QPalette::AlternateBase, QColor(40, 40, 44));
    p.setColor(QPalette::Text, QColor(220, 220, 220));
    p.setColor(QPalette::Button, QColor(55, 55, 60));
    p.setColor(QPalette::ButtonText, QColor(220, 220, 220));
    p.setColor(QPalette::Mid, QColor(80, 80, 85));
    p.setColor(QPalette::Highlight, QColor(42, 130, 218));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::PlaceholderText, QColor(150, 150, 150));
    return p;
}

bool activate(QWidget& widget, int timeoutMs)
{
    QWidget* window = widget.window();
    QElapsedTimer asked;
    return waitUntil(
        [&] {
            if (window->isActiveWindow()) return true;
            if (!asked.isValid() || asked.elapsed() > 200) {
                window->activateWindow();
                asked.start();
            }
            return false;
        },
        timeoutMs);
}

void onModalDialog(std::function<void(QWidget*)> act)
{
    auto* timer = new QTimer;
    timer->setInterval(10);
    QObject::connect(timer, &QTimer::timeout, [timer, act] {
        if (QWidget* modal = QApplication::activeModalWidget()) {
            timer->stop();
            timer->deleteLater();
            act(modal);
        }
    });
    timer->start();
}

QAction* action(const QObject& window, const char* name)
{
    auto* found = window.findChild<QAction*>(name);
    EXPECT_NE(found, nullptr) << "the window has no action " << name;
    return found;
}

std::optional<QColor> selectedSurfaceColor(const QObject& window)
{
    const std::optional<QColor> c = part<SurfaceListPanel>(window)->selectedColor();
    if (!c) return std::nullopt;
    return QColor::fromRgba(c->rgba());
}

} // namespace isoview::app::test
