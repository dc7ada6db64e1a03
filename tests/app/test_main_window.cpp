// The whole window on a real GL context (llvmpipe under Xvfb): opening the bundled sample,
// the isovalue driving the triangle count shown, a 100-step slider drag ending on the last
// value, export read back by an independent reader (VTK), failures that leave nothing behind.
#include "app_test_support.h"
#include "common/number_text.h"
#include "crop/crop_panel.h"
#include "export/screenshot_controller.h"
#include "export/screenshot_dialog.h"
#include "extraction/border_caps.h"
#include "extraction/cpu_marching_cubes.h"
#include "extraction/mesh_metrics.h"
#include "loading/raw_import_dialog.h"
#include "loading/recent_files.h"
#include "loading/series_picker_dialog.h"
#include "main_window.h"
#include "mesh_processing/coincident_vertices.h"
#include "mesh_processing/mesh_components.h"
#include "support/shared_data.h"
#include "support/temp_dir.h"
#include "surfaces/isovalue_panel.h"
#include "test_paths.h"
#include "view_layout.h"
#include "views/slice_view.h"
#include "views/viewport_widget.h"

#include <gtest/gtest.h>

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDockWidget>
#include <QKeySequence>
#include <QLabel>
#include <QMessageBox>
#include <QMimeData>
#include <QMouseEvent>
#include <QPushButton>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QStatusBar>
#include <QStyleOptionSlider>
#include <QTest>
#include <QTimer>
#include <QToolButton>
#include <QTreeWidget>
#include <QUrl>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

namespace isoview::app {
namespace {

using test::part;
using test::PlyMesh;
using test::readBinaryPly;

using test::samplePath;
using test::waitUntil;

// The triangle count the status bar shows, when it shows one.
std::optional<std::uint64_t> shownTriangles(const MainWindow& w)
{
    const auto* label = w.findChild<QLabel*>("triangleLabel");
    if (!label) return std::nullopt;
    QString digits;
    for (QChar c : label->text()) {
        if (c.isDigit())
            digits += c;
        else if (c == ' ' && !digits.isEmpty())
            break;
    }
    bool ok = false;
    const qulonglong n = digits.toULongLong(&ok);
    if (!ok || !label->text().contains("triangles")) return std::nullopt;
    return n;
}

// Waits until the surface on screen is the one for the panel's isovalue and its count shows.
bool waitForSurface(MainWindow& w, int timeoutMs = 30000)
{
    return waitUntil(
        [&] {
            const std::optional<double> shown = w.viewport()->renderedIsovalue();
            return shown && *shown == part<IsovaluePanel>(w)->isovalue() && shownTriangles(w);
        },
        timeoutMs);
}

// A shown window with the volume at path open and its surface at iso on screen.
std::unique_ptr<MainWindow> openVolume(const QString& path, double iso)
{
    auto w = std::make_unique<MainWindow>();
    w->resize(900, 640);
    w->show();
    EXPECT_TRUE(QTest::qWaitForWindowExposed(w.get()));
    QSignalSpy loaded(w.get(), &MainWindow::volumeLoaded);
    w->openPath(path, iso);
    EXPECT_TRUE(waitUntil([&] { return loaded.count() == 1; }));
    EXPECT_TRUE(waitForSurface(*w));
    return w;
}

std::unique_ptr<MainWindow> openSample(double iso = 40.0)
{
    return openVolume(samplePath(), iso);
}

std::uint64_t cpuTriangles(const Volume& v, double real)
{
    return extractIsosurfaceCpu(v, v.rescale().toStored(real)).triangleCount();
}

// Reads a PLY with VTK (tests/tools/read_ply_vtk.py): returns "points N\ncells M".
std::string readWithVtk(const std::filesystem::path& ply)
{
    const std::string command = std::string(isoview::test::kPythonExecutable) + " " +
                                isoview::test::kSourceDir + "/tests/tools/read_ply_vtk.py '" +
                                ply.string() + "' 2>&1";
    std::string out;
    if (FILE* pipe = popen(command.c_str(), "r")) {
        char buffer[256];
        while (fgets(buffer, sizeof buffer, pipe))
            out += buffer;
        pclose(pipe);
    }
    return out;
}

QMessageBox* visibleErrorDialog(const MainWindow& w)
{
    for (QMessageBox* box : w.findChildren<QMessageBox*>("errorDialog")) {
        if (box->isVisible()) return box;
    }
    return nullptr;
}

TEST(MainWindowTest, OpensTheSampleWithItsSurfaceShown)
{
    auto w = openSample();
    ASSERT_NE(w->document(), nullptr);
    EXPECT_EQ(w->document()->volume->dims(), glm::uvec3(128, 128, 85));
    // Exactly the CPU reference's triangles at the same isovalue.
    EXPECT_EQ(*shownTriangles(*w), cpuTriangles(*w->document()->volume, 40.0));
    EXPECT_TRUE(w->findChild<QLabel*>("rendererLabel")->text().contains("OpenGL"));
    EXPECT_TRUE(w->findChild<QLabel*>("volumeLabel")->text().contains("128 x 128 x 85"));
    EXPECT_TRUE(w->windowTitle().contains("mr_head.nhdr"));
    // GPU timings of the pyramid build and the surface pass arrive a little after the frame.
    EXPECT_TRUE(waitUntil(
        [&] {
            const QString t = w->findChild<QLabel*>("timingLabel")->text();
            return t.contains("pyramid") && t.contains("surface") && t.contains("ms");
        },
        10000))
        << w->findChild<QLabel*>("timingLabel")->text().toStdString();
}

TEST(MainWindowTest, TheCropBoxCutsTheSurfaceShownAndResetRestoresIt)
{
    auto w = openSample();
    const Volume& v = *w->document()->volume;
    const std::uint64_t whole = *shownTriangles(*w);
    auto* crop = w->findChild<CropPanel*>("cropPanel");
    ASSERT_NE(crop, nullptr);
    EXPECT_EQ(crop->box(), VoxelBox::whole(v.dims()));
    // Through the spin boxes, as a user types: the K range, then the I range.
    crop->spinBox(2, false)->setValue(20);
    crop->spinBox(2, true)->setValue(60);
    crop->spinBox(0, true)->setValue(100);
    crop->spinBox(0, false)->setValue(10);
    const VoxelBox box{{10, 0, 20}, {100, 127, 60}};
    EXPECT_EQ(crop->box(), box);
    const std::uint64_t expected =
        extractIsosurfaceCpu(v, v.rescale().toStored(40.0), box).triangleCount();
    ASSERT_TRUE(waitUntil([&] { return shownTriangles(*w) == expected; }))
        << "shown " << shownTriangles(*w).value_or(0) << ", expected " << expected;
    EXPECT_LT(expected, whole);
    w->findChild<QDockWidget*>("cropDock")->show();
    test::saveScreenshot(*w, "crop_box");
    // The lower end dragged past the upper one carries it along.
    crop->spinBox(1, false)->setValue(127);
    EXPECT_EQ(crop->box().last.y, 127u);
    EXPECT_EQ(crop->box().first.y, 127u);
    crop->resetButton()->click();
    EXPECT_EQ(crop->box(), VoxelBox::whole(v.dims()));
    ASSERT_TRUE(waitUntil([&] { return shownTriangles(*w) == whole; }));
}

TEST(MainWindowTest, SettingTheIsovalueChangesTheTriangleCountShown)
{
    auto w = openSample();
    const std::uint64_t before = *shownTriangles(*w);
    part<IsovaluePanel>(*w)->setIsovalue(300.0);
    ASSERT_TRUE(waitForSurface(*w));
    const std::uint64_t after = *shownTriangles(*w);
    EXPECT_NE(after, before);
    EXPECT_EQ(after, cpuTriangles(*w->document()->volume, 300.0));
}

TEST(MainWindowTest, SliderDragOfHundredStepsEndsOnTheLastValue)
{
    auto w = openSample();
    auto* slider = part<IsovaluePanel>(*w)->findChild<QSlider*>();
    ASSERT_NE(slider, nullptr);
    QStyleOptionSlider option;
    option.initFrom(slider);
    option.orientation = slider->orientation();
    option.minimum = slider->minimum();
    option.maximum = slider->maximum();
    option.sliderPosition = slider->sliderPosition();
    option.sliderValue = slider->value();
    const QRect handle = slider->style()->subControlRect(QStyle::CC_Slider, &option,
                                                         QStyle::SC_SliderHandle, slider);
    ASSERT_TRUE(handle.isValid());
    const QPoint start = handle.center();
    auto send = [&](QEvent::Type type, QPoint at, Qt::MouseButtons buttons) {
        QMouseEvent event(type, QPointF(at), slider->mapToGlobal(QPointF(at)),
                          type == QEvent::MouseMove ? Qt::NoButton : Qt::LeftButton, buttons,
                          Qt::NoModifier);
        QApplication::sendEvent(slider, &event);
    };
    QSignalSpy changes(part<IsovaluePanel>(*w), &IsovaluePanel::isovalueChanged);
    send(QEvent::MouseButtonPress, start, Qt::LeftButton);
    QPoint at = start;
    for (int i = 1; i <= 100; ++i) {
        at = start + QPoint(i * 3, 0); // 300 px to the right, 3 px per step
        send(QEvent::MouseMove, at, Qt::LeftButton);
        QCoreApplication::processEvents(); // frames render between moves, as in a real drag
    }
    send(QEvent::MouseButtonRelease, at, Qt::NoButton);
    EXPECT_GE(changes.count(), 50); // the drag really moved the value, step after step
    const double last = changes.last().at(0).toDouble();
    EXPECT_EQ(part<IsovaluePanel>(*w)->isovalue(), last);
    ASSERT_TRUE(waitForSurface(*w));
    EXPECT_EQ(*w->viewport()->renderedIsovalue(), last);
    EXPECT_EQ(*shownTriangles(*w), cpuTriangles(*w->document()->volume, last));
}

TEST(MainWindowTest, ExportWritesAPlyThatVtkReadsWithTheCountShown)
{
    auto w = openSample();
    isoview::test::TempDir dir;
    const std::filesystem::path file = dir.path() / "head.ply";
    QSignalSpy done(w.get(), &MainWindow::exportFinished);
    w->exportMeshTo(QString::fromStdString(file.string()), {});
    ASSERT_TRUE(waitUntil([&] { return done.count() == 1; }));
    EXPECT_TRUE(done.first().at(0).toBool()) << done.first().at(1).toString().toStdString();
    // The file holds the surface shown less its zero-area triangles, and the status bar says so.
    IsoMesh written = extractIsosurfaceCpu(*w->document()->volume,
                                           w->document()->volume->rescale().toStored(40.0));
    const std::size_t dropped = weldCoincidentVertices(written);
    EXPECT_GT(dropped, 0u); // the sample holds voxels of exactly 40
    EXPECT_EQ(*shownTriangles(*w), written.triangleCount() + dropped);
    const std::string vtk = readWithVtk(file);
    EXPECT_NE(vtk.find("cells " + std::to_string(written.triangleCount())), std::string::npos)
        << vtk;
    EXPECT_TRUE(w->statusBar()->currentMessage().contains(
        QString("Exported %1 triangles").arg(formatCount(written.triangleCount()))))
        << w->statusBar()->currentMessage().toStdString();
}

TEST(MainWindowTest, ExportPreparedForPrintingIsClosedDecimatedAndReported)
{
    auto w = openSample();
    const Volume& v = *w->document()->volume;
    isoview::test::TempDir dir;
    const std::filesystem::path file = dir.path() / "head_print.ply";
    QSignalSpy done(w.get(), &MainWindow::exportFinished);
    w->exportMeshTo(QString::fromStdString(file.string()), {},
                    {.closeBorders = true,
                     .keepLargest = true,
                     .smoothIterations = 5,
                     .decimateFraction = 0.25});
    ASSERT_TRUE(waitUntil([&] { return done.count() == 1; }, 300000));
    ASSERT_TRUE(done.first().at(0).toBool()) << done.first().at(1).toString().toStdString();

    const PlyMesh ply = readBinaryPly(file);
    ASSERT_FALSE(ply.header.empty()) << "not a binary PLY of the expected layout";
    EXPECT_NE(ply.header.find("comment isoview processing: close-borders keep-largest smooth=5 "
                              "decimate=0.25\n"),
              std::string::npos)
        << ply.header;
    // A quarter of the largest piece of the closed surface (the same one the CPU extracts).
    const float iso = v.rescale().toStored(40.0).classified();
    const IsoMesh closed = closeAtBorders(extractIsosurfaceCpu(v, StoredValue(iso)), v,
                                          StoredValue(iso), VoxelBox::whole(v.dims()));
    const std::size_t largest =
        filterComponents(closed, {.keepLargest = true}).mesh.triangleCount();
    const double fraction = double(ply.mesh.triangleCount()) / double(largest);
    EXPECT_GT(fraction, 0.2) << ply.mesh.triangleCount() << " of " << largest;
    EXPECT_LT(fraction, 0.3) << ply.mesh.triangleCount() << " of " << largest;
    EXPECT_LT(ply.mesh.triangleCount(), closed.triangleCount() * 3 / 10);

    // Watertight and wound outward, as read back from the file.
    const MeshTopology topology = analyzeTopology(ply.mesh);
    EXPECT_EQ(topology.boundaryEdges, 0u);
    EXPECT_EQ(topology.nonManifoldEdges, 0u);
    EXPECT_EQ(topology.inconsistentlyOrientedEdges, 0u);
    EXPECT_GT(enclosedVolume(ply.mesh), 0.0);

    // The report, beside the window and not in its way.
    QMessageBox* report = nullptr;
    ASSERT_TRUE(waitUntil([&] {
        report = w->findChild<QMessageBox*>("exportReport");
        return report && report->isVisible();
    }));
    EXPECT_FALSE(report->isModal());
    EXPECT_TRUE(report->text().contains("Watertight: yes")) << report->text().toStdString();
    EXPECT_TRUE(report->text().contains(QLocale().toString(qulonglong(ply.mesh.triangleCount()))))
        << report->text().toStdString();
    EXPECT_TRUE(report->text().contains("mL")) << report->text().toStdString();
    test::saveScreenshot(*report, "export_report");
    report->close();
}

TEST(MainWindowTest, CancellingThePreparationLeavesNoFile)
{
    auto w = openSample();
    isoview::test::TempDir dir;
    const std::filesystem::path file = dir.path() / "cancelled.stl";
    QSignalSpy done(w.get(), &MainWindow::exportFinished);
    w->exportMeshTo(QString::fromStdString(file.string()), {.format = MeshFormat::Stl},
                    {.closeBorders = true, .smoothIterations = 200, .decimateFraction = 0.1});
    auto* progress = w->findChild<QWidget*>("exportProgress");
    ASSERT_NE(progress, nullptr);
    EXPECT_TRUE(progress->isVisible());
    progress->findChild<QToolButton*>()->click(); // the status bar's Cancel
    ASSERT_TRUE(waitUntil([&] { return done.count() == 1; }, 300000));
    EXPECT_FALSE(done.first().at(0).toBool());
    EXPECT_EQ(done.first().at(1).toString(), "cancelled");
    EXPECT_FALSE(progress->isVisible());
    EXPECT_TRUE(dir.entries().empty());
}

TEST(MainWindowTest, FailedExportShowsAnErrorAndLeavesNoFile)
{
    auto w = openSample();
    isoview::test::TempDir dir;
    // A folder nobody may write to. Root ignores permission bits, so as root (CI containers)
    // it is /proc, where not even root can create files.
    std::filesystem::path locked = dir.path() / "locked";
    std::filesystem::create_directory(locked);
    std::filesystem::permissions(locked, std::filesystem::perms::owner_read |
                                             std::filesystem::perms::owner_exec);
    if (geteuid() == 0) locked = "/proc";
    const std::filesystem::path file = locked / "isoview_head.stl";
    QSignalSpy done(w.get(), &MainWindow::exportFinished);
    w->exportMeshTo(QString::fromStdString(file.string()), {.format = MeshFormat::Stl});
    ASSERT_TRUE(waitUntil([&] { return done.count() == 1; }));
    EXPECT_FALSE(done.first().at(0).toBool());
    QMessageBox* box = nullptr;
    ASSERT_TRUE(waitUntil([&] { return (box = visibleErrorDialog(*w)) != nullptr; }));
    EXPECT_TRUE(box->text().contains("isoview_head.stl")) << box->text().toStdString();
    box->close();
    EXPECT_FALSE(std::filesystem::exists(file));
    for (const auto& entry : std::filesystem::directory_iterator(locked)) {
        EXPECT_EQ(entry.path().filename().string().find("isoview_head"), std::string::npos)
            << "left behind: " << entry.path();
    }
    std::filesystem::permissions(dir.path() / "locked", std::filesystem::perms::owner_all);
}

TEST(MainWindowTest, ACorruptFileShowsAnErrorAndKeepsThePreviousVolume)
{
    auto w = openSample();
    const std::uint64_t triangles = *shownTriangles(*w);
    isoview::test::TempDir dir;
    const std::filesystem::path bad = dir.path() / "truncated_64x64x64_uint8.raw";
    std::FILE* f = std::fopen(bad.c_str(), "wb");
    ASSERT_NE(f, nullptr);
    std::fputs("far too short", f);
    std::fclose(f);
    QSignalSpy failed(w.get(), &MainWindow::loadFailed);
    w->openPath(QString::fromStdString(bad.string()));
    ASSERT_TRUE(waitUntil([&] { return failed.count() == 1; }));
    QMessageBox* box = nullptr;
    ASSERT_TRUE(waitUntil([&] { return (box = visibleErrorDialog(*w)) != nullptr; }));
    EXPECT_TRUE(box->text().contains("bytes")) << box->text().toStdString();
    box->close();
    EXPECT_EQ(w->document()->volume->dims(), glm::uvec3(128, 128, 85));
    part<IsovaluePanel>(*w)->setIsovalue(41.0);
    part<IsovaluePanel>(*w)->setIsovalue(40.0);
    ASSERT_TRUE(waitForSurface(*w));
    EXPECT_EQ(*shownTriangles(*w), triangles);
}

TEST(MainWindowTest, ScreenshotIsAPngOfTheViewAndNotBlank)
{
    auto w = openSample();
    isoview::test::TempDir dir;
    const QString file = QString::fromStdString((dir.path() / "view.png").string());
    QString error;
    ASSERT_TRUE(w->saveScreenshot(file, &error)) << error.toStdString();
    QImage image(file);
    ASSERT_FALSE(image.isNull());
    EXPECT_EQ(image.size(), w->viewport()->size() * w->viewport()->devicePixelRatioF());
    // The surface covers a good part of the view: many pixels differ from the corner colour.
    const QRgb corner = image.pixel(0, 0);
    int differing = 0;
    for (int y = 0; y < image.height(); y += 4)
        for (int x = 0; x < image.width(); x += 4)
            differing += image.pixel(x, y) != corner;
    EXPECT_GT(differing, image.width() * image.height() / 16 / 10);
}

// File > Save Screenshot at a chosen size: the dialog's presets give their sizes and the
// choice is remembered; the picture renders off screen at that size (not the view's), its
// background transparent when asked, and is saved without the window waiting for it.
TEST(MainWindowTest, AScreenshotAtAChosenSizeIsRenderedOffScreenWithATransparentBackground)
{
    {
        ScreenshotDialog dialog(QSize(441, 387));
        auto* preset = dialog.findChild<QComboBox*>("screenshotSize");
        ASSERT_NE(preset, nullptr);
        preset->setCurrentIndex(2); // 4K UHD
        dialog.findChild<QCheckBox*>("screenshotTransparent")->setChecked(true);
        EXPECT_EQ(dialog.options().size, QSize(3840, 2160));
        EXPECT_TRUE(dialog.options().transparent);
        dialog.accept();
    }
    {
        ScreenshotDialog again(QSize(441, 387));
        EXPECT_EQ(again.options().size, QSize(3840, 2160));                // remembered
        again.findChild<QComboBox*>("screenshotSize")->setCurrentIndex(0); // as shown
        again.findChild<QCheckBox*>("screenshotTransparent")->setChecked(false);
        EXPECT_EQ(again.options().size, std::nullopt);
        again.accept(); // leave the next tests the default
    }

    auto w = openSample();
    isoview::test::TempDir dir;
    const QString file = QString::fromStdString((dir.path() / "wide.png").string());
    auto* shots = part<ScreenshotController>(*w);
    QSignalSpy saved(shots, &ScreenshotController::saved);
    QSignalSpy failed(shots, &ScreenshotController::failed);
    shots->saveRendered(file, QSize(640, 200), true);
    ASSERT_TRUE(waitUntil([&] { return saved.count() + failed.count() > 0; }));
    ASSERT_EQ(saved.count(), 1) << failed.value(0).value(1).toString().toStdString();
    const QImage image(file);
    ASSERT_EQ(image.size(), QSize(640, 200));
    ASSERT_TRUE(image.hasAlphaChannel());
    EXPECT_EQ(qAlpha(image.pixel(0, 0)), 0);       // background: none
    EXPECT_EQ(qAlpha(image.pixel(320, 100)), 255); // the head's surface in the middle
}

// Outputs never destroy: an export over the open volume's own data file is refused with a
// dialog, and the file is unchanged. The sample is copied first, so a regression could only
// harm the copy.
TEST(MainWindowTest, ExportOverTheOpenVolumesFileIsRefusedAndChangesNothing)
{
    isoview::test::TempDir dir;
    const std::filesystem::path samples =
        std::string(isoview::test::kSourceDir) + "/resources/samples";
    for (const char* name : {"mr_head.nhdr", "mr_head_128x128x85_uint16.raw"}) {
        std::filesystem::copy_file(samples / name, dir.path() / name);
    }
    const std::filesystem::path data = dir.path() / "mr_head_128x128x85_uint16.raw";
    const auto bytes = [](const std::filesystem::path& p) {
        std::ifstream in(p, std::ios::binary);
        return std::string(std::istreambuf_iterator<char>(in), {});
    };
    const std::string before = bytes(data);

    auto w = openVolume(QString::fromStdString((dir.path() / "mr_head.nhdr").string()), 40.0);
    ASSERT_TRUE(waitForSurface(*w));

    QSignalSpy done(w.get(), &MainWindow::exportFinished);
    w->exportMeshTo(QString::fromStdString(data.string()), {.format = MeshFormat::Ply});
    ASSERT_TRUE(waitUntil([&] { return done.count() == 1; }));
    EXPECT_FALSE(done.first().at(0).toBool());
    QMessageBox* box = nullptr;
    ASSERT_TRUE(waitUntil([&] { return (box = visibleErrorDialog(*w)) != nullptr; }));
    EXPECT_TRUE(box->text().contains("the open volume was read from")) << box->text().toStdString();
    box->close();
    EXPECT_TRUE(bytes(data) == before);

    QString error;
    EXPECT_FALSE(w->saveScreenshot(QString::fromStdString(data.string()), &error));
    EXPECT_TRUE(error.contains("the open volume was read from")) << error.toStdString();
    EXPECT_TRUE(bytes(data) == before);
}

TEST(MainWindowTest, AScreenshotIntoAFifoIsRefusedAndTheFifoStays)
{
    auto w = openSample();
    isoview::test::TempDir dir;
    const std::filesystem::path fifo = dir.path() / "view.png";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    QString error;
    EXPECT_FALSE(w->saveScreenshot(QString::fromStdString(fifo.string()), &error));
    EXPECT_TRUE(error.contains("is a FIFO (named pipe)")) << error.toStdString();
    EXPECT_TRUE(std::filesystem::is_fifo(fifo));
}

TEST(MainWindowTest, OpenedFilesAreRememberedAsRecent)
{
    auto w = openSample();
    ASSERT_FALSE(part<RecentFiles>(*w)->paths().isEmpty());
    EXPECT_EQ(part<RecentFiles>(*w)->paths().first(), samplePath());
}

TEST(MainWindowTest, DroppingAFileOpensIt)
{
    auto w = openSample();
    const QString neghip = QString::fromStdString(std::string(isoview::test::kSharedDataDir) +
                                                  "/raw/neghip_64x64x64_uint8.raw");
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(neghip)});
    QSignalSpy loaded(w.get(), &MainWindow::volumeLoaded);
    QDragEnterEvent enter(QPoint(20, 20), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(w.get(), &enter);
    EXPECT_TRUE(enter.isAccepted());
    QDropEvent drop(QPointF(20, 20), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(w.get(), &drop);
    ASSERT_TRUE(waitUntil([&] { return loaded.count() == 1; }));
    EXPECT_EQ(w->document()->volume->dims(), glm::uvec3(64, 64, 64));
    ASSERT_TRUE(waitForSurface(*w));
    EXPECT_EQ(*shownTriangles(*w),
              cpuTriangles(*w->document()->volume, part<IsovaluePanel>(*w)->isovalue()));
    EXPECT_EQ(part<RecentFiles>(*w)->paths().first(), neghip);
}

TEST(MainWindowTest, AFolderOfTwoSeriesAsksWhichAndLoadsThatOne)
{
    auto w = openSample();
    isoview::test::TempDir dir;
    for (const char* folder :
         {"dicom/ct_philips_head_phantom_5mm", "dicom/mr_philips_mprage_sag"}) {
        for (const auto& entry :
             std::filesystem::directory_iterator(isoview::test::sharedDataPath(folder))) {
            std::filesystem::create_symlink(
                entry.path(), dir.path() / (std::filesystem::path(folder).filename().string() +
                                            "_" + entry.path().filename().string()));
        }
    }
    bool asked = false;
    test::onModalDialog([&](QWidget* modal) {
        auto* picker = qobject_cast<SeriesPickerDialog*>(modal);
        ASSERT_NE(picker, nullptr);
        asked = true;
        auto* table = picker->findChild<QTreeWidget*>("seriesTable");
        for (int i = 0; i < table->topLevelItemCount(); ++i) {
            QTreeWidgetItem* item = table->topLevelItem(i);
            if (item->text(SeriesPickerDialog::kDescription) == "STD BRAIN 5MM")
                table->setCurrentItem(item);
        }
        picker->accept();
    });
    QSignalSpy loaded(w.get(), &MainWindow::volumeLoaded);
    w->openPath(QString::fromStdString(dir.path().string()));
    ASSERT_TRUE(waitUntil([&] { return loaded.count() == 1; }, 60000));
    EXPECT_TRUE(asked);
    EXPECT_EQ(w->document()->volume->dims(), glm::uvec3(512, 512, 28));
    EXPECT_EQ(w->document()->format, io::VolumeFormat::Dicom);
    EXPECT_TRUE(w->document()->options.seriesIndex.has_value());

    // With --screenshot nobody can answer: the default series (the largest, as isoview-cli
    // takes it) loads without a dialog and the window is saved, instead of waiting for ever.
    MainWindow quiet;
    quiet.show();
    QWidget* dialogSeen = nullptr;
    QTimer watch;
    watch.setInterval(10);
    QObject::connect(&watch, &QTimer::timeout, [&] {
        if (QWidget* modal = QApplication::activeModalWidget()) {
            dialogSeen = modal;
            modal->close();
        }
    });
    watch.start();
    isoview::test::TempDir out;
    QSignalSpy done(&quiet, &MainWindow::screenshotDone);
    quiet.screenshotWhenReady(QString::fromStdString((out.path() / "quiet.png").string()));
    quiet.openPath(QString::fromStdString(dir.path().string()));
    ASSERT_TRUE(waitUntil([&] { return done.count() == 1; }, 60000));
    watch.stop();
    EXPECT_EQ(dialogSeen, nullptr) << "a dialog opened under --screenshot";
    EXPECT_TRUE(done.at(0).at(0).toBool()) << done.at(0).at(1).toString().toStdString();
    ASSERT_NE(quiet.document(), nullptr);
    EXPECT_EQ(quiet.document()->options.seriesIndex, io::openSource(dir.path()).defaultSeries);
}

// A 4-D NIfTI file and a DICOM series of two time points offer their volumes the way a folder
// of two series does, each entry named by its volumeLabel, and load the one chosen.
// Several volumes on one grid in one file or series (a 4-D NIfTI, a MOSAIC series' time points)
// open as one series, with no question: at the volume asked for (--series, a session), else the
// first. (Series of several grids still ask: SeriesPickerDialog's tests.)
TEST(MainWindowTest, SeveralVolumesOnOneGridOpenAsOneSeriesWithoutAsking)
{
    auto w = openSample();
    for (const char* source : {"nifti/sag_asc_36sl_19.nii", "dicom/mosaic/sag_asc_36sl"}) {
        SCOPED_TRACE(source);
        const QString path = QString::fromStdString(isoview::test::sharedDataPath(source).string());
        for (const std::optional<std::size_t> asked :
             {std::optional<std::size_t>(), std::optional<std::size_t>(1)}) {
            QSignalSpy loaded(w.get(), &MainWindow::volumeLoaded);
            io::LoadOptions options;
            options.seriesIndex = asked;
            w->openPath(path, std::nullopt, options);
            ASSERT_TRUE(waitUntil([&] { return loaded.count() == 1; }, 60000));
            const VolumeDocument* doc = w->document();
            ASSERT_NE(doc->series, nullptr);
            EXPECT_EQ(doc->series->size(), 2u);
            EXPECT_EQ(doc->timePoint, asked.value_or(0));
            EXPECT_EQ(doc->volume, doc->series->volume(doc->timePoint));
            EXPECT_TRUE(doc->series->label(1).starts_with("volume 2 of 2"))
                << doc->series->label(1);
            EXPECT_EQ(doc->volume->dims(), glm::uvec3(64, 64, 36));
            EXPECT_EQ(w->scene()->scene().timePoint, asked.value_or(0));
        }
        // The NIfTI's title is its file's name, not its description ("TE=30;Time=…").
        if (std::string(source).starts_with("nifti")) {
            EXPECT_EQ(w->windowTitle(), QString("sag_asc_36sl_19.nii - isoview"));
        }
    }
}

TEST(MainWindowTest, AnUnnamedRawFileAsksForItsLayoutBeforeReading)
{
    auto w = openSample();
    isoview::test::TempDir dir;
    const std::filesystem::path blob = dir.path() / "neghip.dat";
    std::filesystem::copy_file(isoview::test::sharedDataPath("raw/neghip_64x64x64_uint8.raw"),
                               blob);
    bool asked = false;
    test::onModalDialog([&](QWidget* modal) {
        auto* dialog = qobject_cast<RawImportDialog*>(modal);
        ASSERT_NE(dialog, nullptr);
        asked = true;
        io::RawVolumeParameters p;
        p.dims = {64, 64, 64};
        p.type = ScalarType::UInt8;
        dialog->setParameters(p);
        dialog->accept();
    });
    QSignalSpy loaded(w.get(), &MainWindow::volumeLoaded);
    w->openPath(QString::fromStdString(blob.string()));
    ASSERT_TRUE(waitUntil([&] { return loaded.count() == 1; }));
    EXPECT_TRUE(asked);
    EXPECT_EQ(w->document()->volume->dims(), glm::uvec3(64, 64, 64));
    EXPECT_EQ(w->document()->format, io::VolumeFormat::Raw);
    ASSERT_TRUE(w->document()->options.raw.has_value());
    EXPECT_EQ(w->document()->options.raw->dims, glm::uvec3(64, 64, 64));
    // Raw data has no patient orientation: its views are the index planes, not "Axial" & co.
    const std::pair<SliceOrientation, const char*> planes[] = {{SliceOrientation::Axial, "XY"},
                                                               {SliceOrientation::Coronal, "XZ"},
                                                               {SliceOrientation::Sagittal, "YZ"}};
    for (const auto& [orientation, name] : planes) {
        const SliceView* v = part<ViewLayout>(*w)->sliceView(orientation);
        EXPECT_EQ(v->title(), QString(name));
        bool shown = false;
        for (const SliceHeaderItem& item : v->headerLayout())
            shown = shown || item.text.startsWith(name);
        EXPECT_TRUE(shown) << name << " in the header";
    }
    // The sample, in patient space, has the anatomical names.
    QSignalSpy sample(w.get(), &MainWindow::volumeLoaded);
    w->openPath(samplePath(), 40.0);
    ASSERT_TRUE(waitUntil([&] { return sample.count() == 1; }));
    EXPECT_EQ(part<ViewLayout>(*w)->sliceView(SliceOrientation::Coronal)->title(),
              QString("Coronal"));
}

TEST(MainWindowTest, AFolderOfRawSlicesAsksForTheirLayoutWithAGuess)
{
    auto w = openSample();
    const std::filesystem::path folder =
        isoview::test::sharedDataPath("raw/CThead_256x256x113_int16_be");
    bool asked = false;
    test::onModalDialog([&](QWidget* modal) {
        auto* dialog = qobject_cast<RawImportDialog*>(modal);
        ASSERT_NE(dialog, nullptr);
        asked = true;
        EXPECT_TRUE(dialog->isFolderMode());
        EXPECT_EQ(dialog->sliceFileCount(), 113u);
        EXPECT_EQ(dialog->parameters().dims, glm::uvec3(256, 256, 113)); // from the name
        EXPECT_FALSE(dialog->previewImage().isNull());
        io::RawVolumeParameters p = dialog->parameters();
        p.type = ScalarType::Int16;
        p.bigEndian = true;
        dialog->setParameters(p);
        dialog->accept();
    });
    QSignalSpy loaded(w.get(), &MainWindow::volumeLoaded);
    w->openPath(QString::fromStdString(folder.string()));
    ASSERT_TRUE(waitUntil([&] { return loaded.count() == 1; }));
    EXPECT_TRUE(asked);
    EXPECT_EQ(w->document()->volume->dims(), glm::uvec3(256, 256, 113));
    EXPECT_EQ(w->document()->volume->storedRange().max, 3272.0); // big-endian read right
    EXPECT_EQ(w->document()->format, io::VolumeFormat::RawSliceFolder);
}

TEST(MainWindowTest, ASeriesWithAnUnreadableSliceOpensTheRestAndSaysSo)
{
    // Six slices of the phantom, the fourth (I40) cut short in its pixel data: the viewer is
    // lenient, shows the other five and points at the log panel for the note naming I40.
    isoview::test::TempDir dir;
    const std::filesystem::path series =
        isoview::test::sharedDataPath("dicom/ct_philips_head_phantom_5mm");
    for (const char* name : {"I10", "I20", "I30", "I40", "I50", "I60"}) {
        std::filesystem::copy_file(series / name, dir.path() / name);
    }
    std::filesystem::resize_file(dir.path() / "I40", 200000);
    auto w = openVolume(QString::fromStdString(dir.path().string()), 300.0);
    EXPECT_EQ(w->document()->volume->dims(), glm::uvec3(512, 512, 5));
    EXPECT_TRUE(w->statusBar()->currentMessage().contains("loader note"))
        << w->statusBar()->currentMessage().toStdString();
    bool named = false;
    for (const std::string& note : w->document()->volume->metadata().warnings) {
        named = named || (note.find("1 of 6 slices could not be read") == 0 &&
                          note.find("I40' is truncated at byte 200000") != std::string::npos);
    }
    EXPECT_TRUE(named);
}

TEST(MainWindowTest, SettingsAreRememberedByTheNextWindow)
{
    {
        auto w = openSample();
        for (QAction* a : w->findChildren<QAction*>()) {
            // Key 4: the maximum intensity projection.
            if (a->shortcut() == QKeySequence(Qt::Key_4)) a->trigger();
            if (a->text() == "&Orthographic Projection") a->setChecked(true);
        }
        EXPECT_EQ(w->scene()->scene().renderMode, RenderMode::MaximumIntensity);
        w->close(); // saves the settings
    }
    MainWindow next;
    EXPECT_EQ(next.scene()->scene().renderMode, RenderMode::MaximumIntensity);
    EXPECT_EQ(next.scene()->scene().camera.projection(), Projection::Orthographic);
    ASSERT_FALSE(part<RecentFiles>(next)->paths().isEmpty());
    EXPECT_EQ(part<RecentFiles>(next)->paths().first(), samplePath());
    for (QAction* a : next.findChildren<QAction*>()) {
        if (a->text() == "&Surface") a->trigger(); // leave the next tests the default mode
        if (a->text() == "&Orthographic Projection") a->setChecked(false);
    }
    next.close();
}

} // namespace
} // namespace isoview::app
