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
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>

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

PlyMesh readBinaryPly(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    const std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    PlyMesh ply;
    const std::size_t end = bytes.find("end_header\n");
    if (bytes.rfind("ply\nformat binary_little_endian 1.0\n", 0) != 0 || end == std::string::npos)
        return ply;
    ply.header = bytes.substr(0, end + 11);
    std::size_t vertices = 0, faces = 0, vertexStride = 0;
    std::istringstream lines(ply.header);
    std::string element;
    for (std::string line; std::getline(lines, line);) {
        std::istringstream words(line);
        std::string keyword, type, name;
        words >> keyword;
        if (keyword == "element") {
            std::size_t count = 0;
            words >> element >> count;
            (element == "vertex" ? vertices : faces) = count;
        } else if (keyword == "property" && element == "vertex") {
            words >> type;
            vertexStride += type == "float" ? 4 : 1;
        }
    }
    if (bytes.size() != ply.header.size() + vertices * vertexStride + faces * 13) return ply;
    const char* at = bytes.data() + ply.header.size();
    for (std::size_t v = 0; v < vertices; ++v, at += vertexStride) {
        glm::vec3 p;
        std::memcpy(&p, at, sizeof p);
        ply.mesh.positions.push_back(p);
        ply.mesh.normals.push_back(glm::vec3(0.0f));
        ply.mesh.edgeKeys.push_back(v);
    }
    for (std::size_t f = 0; f < faces; ++f, at += 13) {
        if (*at != 3) return {};
        std::int32_t corners[3];
        std::memcpy(corners, at + 1, sizeof corners);
        for (std::int32_t c : corners)
            ply.mesh.indices.push_back(std::uint32_t(c));
    }
    return ply;
}

} // namespace isoview::app::test
