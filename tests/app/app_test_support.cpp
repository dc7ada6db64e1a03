#include "app_test_support.h"

#include "common/app_defaults.h"
#include "io/volume_loader.h"
#include "io/volume_writers.h"
#include "support/shared_data.h"
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
#include <cmath>
#include <cstdint>
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

std::filesystem::path writeCtStandIn(const std::filesystem::path& folder)
{
    const Volume phantom =
        io::loadVolume(isoview::test::sharedDataPath("dicom/ct_philips_head_phantom_5mm"));
    const glm::uvec3 d = phantom.dims();
    constexpr std::uint32_t kSlices = 140;
    std::vector<std::byte> bytes(std::size_t(d.x) * d.y * kSlices * sizeof(std::int16_t));
    auto* out = reinterpret_cast<std::int16_t*>(bytes.data());
    const std::size_t plane = std::size_t(d.x) * d.y;
    for (std::uint32_t k = 0; k < kSlices; ++k) {
        const double at = double(k) * double(d.z - 1) / double(kSlices - 1);
        const auto below = std::uint32_t(at);
        const std::uint32_t above = std::min(below + 1, d.z - 1);
        const float t = float(at - below);
        for (std::size_t i = 0; i < plane; ++i) {
            const float a = phantom.valueAt(below * plane + i);
            const float b = phantom.valueAt(above * plane + i);
            out[k * plane + i] = std::int16_t(std::lround(a + (b - a) * t));
        }
    }
    VolumeGeometry g;
    g.spacing = phantom.geometry().spacing;
    g.spacing.z *= double(d.z - 1) / double(kSlices - 1);
    g.origin = phantom.geometry().origin;
    g.direction = phantom.geometry().direction;
    const Volume ct({d.x, d.y, kSlices}, ScalarType::Int16, std::move(bytes), g, phantom.rescale());
    const std::filesystem::path path = folder / "ct_stand_in_512x512x140.nrrd";
    io::writeNrrd(path, ct);
    return path;
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
