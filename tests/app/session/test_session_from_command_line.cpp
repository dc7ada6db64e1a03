// A session file as the viewer's PATH (`isoview head.isoview --screenshot out.png`, as a file
// association opens it): main.cpp asks for the screenshot, then opens the path; the session's
// two surfaces come back (each the CPU reference's mesh) before the window is saved, and a bad
// session ends the wait with its reason instead of leaving the command line waiting.
#include "app_test_support.h"
#include "extraction/cpu_marching_cubes.h"
#include "loading/volume_document.h"
#include "main_window.h"
#include "session/session_controller.h"
#include "support/temp_dir.h"
#include "surfaces/isovalue_panel.h"
#include "surfaces/surface_list_panel.h"
#include "test_paths.h"
#include "view_layout.h"
#include "views/frame_worker.h"
#include "views/viewport_widget.h"

#include <gtest/gtest.h>

#include <QFileInfo>
#include <QImage>
#include <QSignalSpy>
#include <QTest>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

namespace isoview::app {
namespace {

using test::part;

using test::waitUntil;

std::string samplePath()
{
    return std::string(isoview::test::kSourceDir) + "/resources/samples/mr_head.nhdr";
}

void writeText(const std::filesystem::path& path, const std::string& text)
{
    std::ofstream out(path, std::ios::binary);
    out << text;
    ASSERT_TRUE(out.good()) << path;
}

// What main.cpp does with `isoview PATH --screenshot FILE`, up to opening PATH (then the
// test's spies listen: a bad session fails at once).
std::unique_ptr<MainWindow> windowLikeTheCommandLine(const QString& png)
{
    auto w = std::make_unique<MainWindow>();
    w->resize(1000, 700);
    w->screenshotWhenReady(png);
    w->show();
    EXPECT_TRUE(QTest::qWaitForWindowExposed(w.get()));
    return w;
}

TEST(SessionFromCommandLineTest, ASessionOfTwoSurfacesIsRestoredBeforeTheScreenshot)
{
    isoview::test::TempDir dir;
    const std::filesystem::path session = dir.path() / "head.isoview";
    writeText(session, R"({"format": "isoview-session", "version": 1,
        "volume": {"path": ")" +
                           samplePath() + R"("},
        "isovalue": 40,
        "surfaces": [
            {"name": "Skin", "isovalue": 40, "color": [0.93, 0.78, 0.62], "opacity": 0.35},
            {"name": "Brain", "isovalue": 90, "color": [0.85, 0.45, 0.45]}],
        "selectedSurface": 1,
        "sliceViews": {"layout": "1x3"}})");
    const QString png = QString::fromStdString((dir.path() / "window.png").string());

    auto w = windowLikeTheCommandLine(png);
    SurfaceListPanel* panel = part<SurfaceListPanel>(*w);
    std::size_t surfacesWhenSaved = 0;
    QObject::connect(w.get(), &MainWindow::screenshotDone,
                     [&] { surfacesWhenSaved = panel->surfaces().size(); });
    QSignalSpy done(w.get(), &MainWindow::screenshotDone);
    w->openPath(QString::fromStdString(session.string()));
    ASSERT_TRUE(waitUntil([&] { return done.count() == 1; }, 60000));
    EXPECT_TRUE(done.at(0).at(0).toBool()) << done.at(0).at(1).toString().toStdString();
    EXPECT_EQ(surfacesWhenSaved, 2u) << "the window was saved before the session was applied";
    EXPECT_EQ(QImage(png).size(), w->size());

    const std::vector<Surface>& surfaces = panel->surfaces().surfaces();
    ASSERT_EQ(surfaces.size(), 2u);
    EXPECT_EQ(surfaces[0].name, "Skin");
    EXPECT_EQ(surfaces[0].isovalue, 40.0);
    EXPECT_EQ(surfaces[0].color, glm::vec3(0.93f, 0.78f, 0.62f));
    EXPECT_EQ(surfaces[0].opacity, 0.35f);
    EXPECT_EQ(surfaces[1].name, "Brain");
    EXPECT_EQ(surfaces[1].opacity, 1.0f);
    EXPECT_EQ(panel->surfaces().selectedIndex(), 1u);
    EXPECT_EQ(part<IsovaluePanel>(*w)->isovalue(), 90.0) << "the slider edits the selected surface";
    EXPECT_EQ(part<ViewLayout>(*w)->layout(), ViewLayout::Layout::Row1x3);

    // Both surfaces are on screen: each is the CPU reference's mesh of the sample.
    const Volume& volume = *w->document()->volume;
    for (const Surface& s : surfaces) {
        SCOPED_TRACE(s.name);
        const std::uint64_t expected =
            extractIsosurfaceCpu(volume, volume.rescale().toStored(s.isovalue)).triangleCount();
        CapturedSurface captured;
        EXPECT_TRUE(waitUntil([&] {
            captured = w->viewport()->captureSurface(s.id);
            return captured.isovalue == s.isovalue;
        }));
        EXPECT_GT(expected, 1000u);
        EXPECT_EQ(captured.mesh.triangleCount(), expected);
    }
}

TEST(SessionFromCommandLineTest, ABadSessionEndsTheScreenshotWithItsReason)
{
    isoview::test::TempDir dir;
    const std::filesystem::path session = dir.path() / "broken.isoview";
    writeText(session, R"({"format": "isoview-session", "version": 1, "isovalue": 40})");
    const QString png = QString::fromStdString((dir.path() / "window.png").string());

    auto w = windowLikeTheCommandLine(png);
    QSignalSpy done(w.get(), &MainWindow::screenshotDone);
    w->openPath(QString::fromStdString(session.string()));
    ASSERT_TRUE(done.count() == 1 || done.wait(20000)) << "the command line would wait forever";
    EXPECT_FALSE(done.at(0).at(0).toBool());
    EXPECT_NE(done.at(0).at(1).toString().indexOf("volume"), -1)
        << done.at(0).at(1).toString().toStdString();
    EXPECT_FALSE(QFileInfo::exists(png));
    EXPECT_EQ(w->document(), nullptr) << "nothing was opened";
}

} // namespace
} // namespace isoview::app
