// A volume beyond the GPU memory budget (ISOVIEW_GPU_MEMORY_BUDGET_MB, read when the 3D view
// starts) ends in an error dialog that gives the sizes and says what to do, refused from its
// size before its voxels are read (a 1 GiB raw costs no memory), and the volume shown before
// stays: the document, its dimensions and its surface, still rendered. A surface whose
// mesh does not fit in what the volume leaves of the budget is not drawn, and the view says why
// until an isovalue whose surface fits.
#include "app_test_support.h"
#include "extraction/cpu_marching_cubes.h"
#include "main_window.h"
#include "support/shared_data.h"
#include "support/temp_dir.h"
#include "surfaces/isovalue_panel.h"
#include "test_paths.h"
#include "views/viewport_widget.h"

#include <gtest/gtest.h>

#include <QMessageBox>
#include <QSignalSpy>
#include <QTest>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <sys/resource.h>

namespace isoview::app {
namespace {

using test::part;

using test::waitUntil;

// Sets an environment variable for the scope and puts back what was there.
class ScopedEnvironment {
public:
    ScopedEnvironment(const char* name, const QByteArray& value)
        : m_name(name), m_had(qEnvironmentVariableIsSet(name)), m_previous(qgetenv(name))
    {
        qputenv(name, value);
    }
    ~ScopedEnvironment()
    {
        if (m_had)
            qputenv(m_name, m_previous);
        else
            qunsetenv(m_name);
    }
    ScopedEnvironment(const ScopedEnvironment&) = delete;
    ScopedEnvironment& operator=(const ScopedEnvironment&) = delete;

private:
    const char* m_name;
    bool m_had;
    QByteArray m_previous;
};

// Waits until the frame on screen shows the panel's isovalue with its triangle count.
std::optional<std::uint64_t> waitForSurface(MainWindow& w)
{
    const bool shown = waitUntil([&] {
        const FrameStats& stats = w.viewport()->lastFrameStats();
        return stats.renderedIsovalue == part<IsovaluePanel>(w)->isovalue() &&
               stats.triangles.has_value();
    });
    if (!shown) return std::nullopt;
    return w.viewport()->lastFrameStats().triangles;
}

QMessageBox* visibleErrorDialog(const MainWindow& w)
{
    for (QMessageBox* box : w.findChildren<QMessageBox*>("errorDialog")) {
        if (box->isVisible()) return box;
    }
    return nullptr;
}

// Shows the window and opens the 64^3 uint8 neghip (about 0.8 MB on the GPU with its pyramids)
// at `iso`, waiting until it is loaded.
void showWithNeghip(MainWindow& w, double iso)
{
    w.resize(900, 640);
    w.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
    QSignalSpy loaded(&w, &MainWindow::volumeLoaded);
    w.openPath(QString::fromStdString(
                   isoview::test::sharedDataPath("raw/neghip_64x64x64_uint8.raw").string()),
               iso);
    ASSERT_TRUE(waitUntil([&] { return loaded.count() == 1; }));
}

TEST(GpuMemoryBudgetTest, AVolumeBeyondTheBudgetIsRefusedAndThePreviousStaysShown)
{
    // 2 MB: the 64^3 uint8 volume fits, the 128x128x85 uint16 sample (about 5.6 MB) does not.
    const ScopedEnvironment budget("ISOVIEW_GPU_MEMORY_BUDGET_MB", "2");
    MainWindow w;
    ASSERT_NO_FATAL_FAILURE(showWithNeghip(w, 40.0));
    QSignalSpy loaded(&w, &MainWindow::volumeLoaded);
    const std::optional<std::uint64_t> triangles = waitForSurface(w);
    ASSERT_TRUE(triangles.has_value());
    const Volume& shown = *w.document()->volume;
    const float iso =
        float(part<IsovaluePanel>(w)->isovalue()); // uint8: real units are stored ones
    ASSERT_EQ(*triangles, extractIsosurfaceCpu(shown, StoredValue(iso)).triangleCount());
    ASSERT_GT(*triangles, 1000u);
    const std::uint64_t framesBefore = w.viewport()->lastFrameStats().framesRendered;

    QSignalSpy failed(&w, &MainWindow::loadFailed);
    w.openPath(QString::fromStdString(std::string(isoview::test::kSourceDir) +
                                      "/resources/samples/mr_head.nhdr"));
    ASSERT_TRUE(waitUntil([&] { return failed.count() == 1; }));
    QMessageBox* box = nullptr;
    ASSERT_TRUE(waitUntil([&] { return (box = visibleErrorDialog(w)) != nullptr; }));
    const std::string text = box->text().toStdString();
    EXPECT_EQ(box->windowTitle().toStdString(), "Cannot open mr_head.nhdr"); // not read
    EXPECT_NE(text.find("This 128x128x85 uint16 volume needs about 5.6 MB of GPU memory"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("more than the budget of 2.0 MB"), std::string::npos) << text;
    EXPECT_NE(text.find("To view it, open a cropped part of it"), std::string::npos) << text;
    EXPECT_NE(text.find("an 8-bit copy, or raise the budget."), std::string::npos) << text;
    EXPECT_NE(text.find("The GPU memory budget is set by ISOVIEW_GPU_MEMORY_BUDGET_MB=2."),
              std::string::npos)
        << text;
    EXPECT_EQ(failed.first().first().toString().toStdString(), text);
    test::saveScreenshot(*box, "gpu_memory_budget_error");
    box->close();

    // A sparse 1 GiB raw volume is refused from its name's dimensions: the process's peak
    // memory does not grow by it.
    isoview::test::TempDir dir;
    const std::filesystem::path sparse = dir.path() / "big_4096x4096x64_uint8.raw";
    std::ofstream(sparse).flush();
    std::filesystem::resize_file(sparse, std::uintmax_t(1) << 30);
    rusage before{};
    getrusage(RUSAGE_SELF, &before);
    w.openPath(QString::fromStdString(sparse.string()));
    ASSERT_TRUE(waitUntil([&] { return failed.count() == 2; }));
    ASSERT_TRUE(waitUntil([&] { return (box = visibleErrorDialog(w)) != nullptr; }));
    EXPECT_NE(box->text().indexOf("4096x4096x64 uint8 volume needs about"), -1)
        << box->text().toStdString();
    box->close();
    rusage after{};
    getrusage(RUSAGE_SELF, &after);
    EXPECT_LT(after.ru_maxrss - before.ru_maxrss, 256L * 1024) << "KiB: the raw was read";

    // The small volume is still the document and still on screen: a new isovalue renders on it,
    // and going back gives its surface again.
    ASSERT_NE(w.document(), nullptr);
    EXPECT_EQ(w.document()->volume.get(), &shown);
    EXPECT_EQ(w.document()->volume->dims(), glm::uvec3(64, 64, 64));
    EXPECT_EQ(w.viewport()->volume(), &shown);
    EXPECT_EQ(loaded.count(), 0);
    part<IsovaluePanel>(w)->setIsovalue(90.0);
    const std::optional<std::uint64_t> other = waitForSurface(w);
    ASSERT_TRUE(other.has_value());
    EXPECT_EQ(*other,
              extractIsosurfaceCpu(shown, StoredValue(float(part<IsovaluePanel>(w)->isovalue())))
                  .triangleCount());
    part<IsovaluePanel>(w)->setIsovalue(40.0);
    EXPECT_EQ(waitForSurface(w), triangles);
    EXPECT_GT(w.viewport()->lastFrameStats().framesRendered, framesBefore);
}

TEST(GpuMemoryBudgetTest, ASurfaceBeyondWhatTheVolumeLeavesIsNotDrawnAndTheViewSaysWhy)
{
    // 2 MB: the 64^3 uint8 volume takes about 0.8 MB with its pyramids and leaves the rest to
    // the mesh. At 40 the welded mesh needs about 1 MB; at 5 at least 1.57 MB (28,236 vertices
    // of 32 bytes, 168,114 indices of 4), more than the 2 MB less the volume.
    const ScopedEnvironment budget("ISOVIEW_GPU_MEMORY_BUDGET_MB", "2");
    MainWindow w;
    ASSERT_NO_FATAL_FAILURE(showWithNeghip(w, 40.0));
    const std::optional<std::uint64_t> triangles = waitForSurface(w);
    ASSERT_TRUE(triangles.has_value());
    EXPECT_EQ(w.viewport()->emptySurfaceHint(), QString());

    part<IsovaluePanel>(w)->setIsovalue(5.0);
    ASSERT_TRUE(waitUntil([&] { return !w.viewport()->emptySurfaceHint().isEmpty(); }))
        << "the view never said why the surface at 5 is missing";
    const std::string hint = w.viewport()->emptySurfaceHint().toStdString();
    EXPECT_EQ(
        hint.rfind("The surface at isovalue 5 is not drawn: the isosurface mesh buffers (", 0), 0u)
        << hint;
    EXPECT_NE(hint.find("the GPU memory budget leaves them. A crop or another isovalue gives a "
                        "smaller surface."),
              std::string::npos)
        << hint;
    test::saveScreenshot(w, "gpu_memory_budget_surface_not_drawn");

    // A surface that fits is drawn again, its triangles the CPU reference's, and the hint goes.
    part<IsovaluePanel>(w)->setIsovalue(40.0);
    EXPECT_EQ(waitForSurface(w), triangles);
    EXPECT_TRUE(waitUntil([&] { return w.viewport()->emptySurfaceHint().isEmpty(); }));
}

} // namespace
} // namespace isoview::app
