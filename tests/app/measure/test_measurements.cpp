// Measurements in the whole window (llvmpipe under Xvfb), on a synthetic sphere of radius
// 20 mm in 0.7 x 0.9 x 1.3 mm LPS voxels written as NRRD and opened as a user does: the panel
// shows its area and volume within 1 % of 4 pi r^2 and 4/3 pi r^3, follows the isovalue and
// the crop (closed at its face);
// two clicks on known surface points give their distance within half a voxel, drawn over the
// view; Esc clears it; a slice view's patient-space points go through the same API; on a real CT
// the figures are those print preparation reports for the same surface closed at the border;
// on a 512 x 512 x 140 CT stand-in, selecting surfaces in volume rendering with the dock open
// never blocks the GUI thread over 100 ms.
#include "app_test_support.h"
#include "common/gui_block_watcher.h"
#include "crop/crop_panel.h"
#include "extraction/mesh_metrics.h"
#include "main_window.h"
#include "measure/distance_tool.h"
#include "measure/measurement_panel.h"
#include "measure/measurements.h"
#include "measure/surface_measurer.h"
#include "mesh_processing/print_preparation.h"
#include "support/shared_data.h"
#include "support/synthetic_volumes.h"
#include "support/temp_dir.h"
#include "surfaces/isovalue_panel.h"
#include "view_layout.h"
#include "views/frame_worker.h"
#include "views/viewport_widget.h"

#include <gtest/gtest.h>

#include <QAction>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QLabel>
#include <QLocale>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTest>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <numbers>
#include <string>

namespace isoview::app {
namespace {

using test::part;

using test::waitUntil;

constexpr double kPi = std::numbers::pi;
constexpr double kRadiusMm = 20.0;
const glm::dvec3 kSpacing(0.7, 0.9, 1.3);
const glm::dvec3 kOrigin(-12.0, 30.0, 5.0);
const glm::uvec3 kDims(64, 52, 36);

glm::dvec3 sphereCenter()
{
    return kOrigin + kSpacing * glm::dvec3(kDims - glm::uvec3(1)) / 2.0;
}

// The sphere as a float NRRD in LPS with its data attached.
std::filesystem::path writeSphere(const std::filesystem::path& folder)
{
    VolumeGeometry g;
    g.spacing = kSpacing;
    g.origin = kOrigin;
    const Volume v =
        isoview::test::makeSphere(kDims, glm::vec3(sphereCenter()), float(kRadiusMm), g);
    const std::filesystem::path path = folder / "sphere.nrrd";
    std::ofstream out(path, std::ios::binary);
    out << "NRRD0004\ntype: float\ndimension: 3\nsizes: " << kDims.x << ' ' << kDims.y << ' '
        << kDims.z << "\nspace: left-posterior-superior\nspace directions: (" << kSpacing.x
        << ",0,0) (0," << kSpacing.y << ",0) (0,0," << kSpacing.z << ")\nspace origin: ("
        << kOrigin.x << ',' << kOrigin.y << ',' << kOrigin.z
        << ")\nendian: little\nencoding: raw\n\n";
    out.write(reinterpret_cast<const char*>(v.bytes()), std::streamsize(v.byteCount()));
    return path;
}

// The number at the start of a panel text ("5,022.7 mm²").
double leadingNumber(const QString& text)
{
    const QString number = text.section(QLatin1Char(' '), 0, 0);
    bool ok = false;
    const double value = QLocale().toDouble(number, &ok);
    EXPECT_TRUE(ok) << text.toStdString();
    return value;
}

struct Window {
    Window()
    {
        w.resize(1000, 700);
        w.show();
        EXPECT_TRUE(QTest::qWaitForWindowExposed(&w));
        QSignalSpy loaded(&w, &MainWindow::volumeLoaded);
        w.openPath(QString::fromStdString(writeSphere(dir.path()).string()), 0.0);
        EXPECT_TRUE(waitUntil([&] { return loaded.count() == 1; }));
        EXPECT_TRUE(waitUntil([&] { return w.viewport()->renderedIsovalue() == 0.0; }));
    }
    Measurements& m() { return *part<Measurements>(w); }
    // Waits for the figures of the surface at isovalue `iso`.
    std::shared_ptr<const MeasuredSurface> measuredAt(double iso)
    {
        EXPECT_TRUE(waitUntil([&] {
            const auto current = m().measurer()->current();
            return current && current->isovalue == iso;
        }));
        return m().measurer()->current();
    }

    isoview::test::TempDir dir;
    MainWindow w;
};

TEST(MeasurementsTest, PanelShowsTheSphereAreaAndVolumeWithinOnePercent)
{
    Window win;
    EXPECT_FALSE(win.m().measurer()->isEnabled()); // nothing measured while nobody looks
    // View > Measurements shows the dock (a tab beside the transfer function) in front.
    win.m().dock()->toggleViewAction()->trigger();
    EXPECT_TRUE(waitUntil([&] { return win.m().panel()->isVisible(); }));
    EXPECT_TRUE(win.m().measurer()->isEnabled());
    const auto measured = win.measuredAt(0.0);
    ASSERT_TRUE(measured);
    const double area = 4.0 * kPi * kRadiusMm * kRadiusMm;
    const double ml = 4.0 / 3.0 * kPi * std::pow(kRadiusMm, 3) / 1000.0;
    EXPECT_NEAR(measured->figures.areaMm2, area, 0.01 * area);
    EXPECT_NEAR(measured->figures.volumeMl, ml, 0.01 * ml);
    EXPECT_FALSE(measured->figures.openAtBorder);
    // As the panel shows them (rounded to 0.1 mm² and 0.01 mL).
    MeasurementPanel* panel = win.m().panel();
    EXPECT_TRUE(panel->areaText().endsWith(QStringLiteral("mm²")));
    EXPECT_TRUE(panel->volumeText().endsWith(QStringLiteral("mL")));
    EXPECT_NEAR(leadingNumber(panel->areaText()), area, 0.01 * area);
    EXPECT_NEAR(leadingNumber(panel->volumeText()), ml, 0.01 * ml);
    test::saveScreenshot(win.w, "measurements_sphere");

    // A new isovalue is a new surface: the 15 mm sphere (the field is radius - distance).
    part<IsovaluePanel>(win.w)->setIsovalue(5.0);
    const auto smaller = win.measuredAt(5.0);
    ASSERT_TRUE(smaller);
    const double area15 = 4.0 * kPi * 15.0 * 15.0;
    EXPECT_NEAR(smaller->figures.areaMm2, area15, 0.01 * area15);
    EXPECT_NEAR(leadingNumber(panel->areaText()), area15, 0.01 * area15);
}

// The crop cuts the sphere at voxel plane x = 31, 0.35 mm before its centre: the panel shows the
// area of the spherical zone left and the volume of the part of the ball closed at the cut.
TEST(MeasurementsTest, TheCropIsMeasuredClosedAtItsFace)
{
    Window win;
    win.m().dock()->show();
    ASSERT_TRUE(win.measuredAt(0.0));
    QSpinBox* lastX = part<CropPanel>(win.w)->spinBox(0, true);
    lastX->setValue(31);
    ASSERT_TRUE(waitUntil([&] {
        const auto current = win.m().measurer()->current();
        return current && current->figures.openAtBorder;
    }));
    const SurfaceMeasurements f = win.m().measurer()->current()->figures;
    const double d = sphereCenter().x - (kOrigin.x + 31.0 * kSpacing.x); // 0.35 mm
    const double r = kRadiusMm;
    const double area = 2.0 * kPi * r * (r - d);
    const double ml =
        (2.0 / 3.0 * kPi * r * r * r - (kPi * r * r * d - kPi * d * d * d / 3.0)) / 1000.0;
    EXPECT_NEAR(f.areaMm2, area, 0.01 * area);
    EXPECT_NEAR(f.volumeMl, ml, 0.01 * ml);
    EXPECT_NEAR(leadingNumber(win.m().panel()->volumeText()), ml, 0.01 * ml);
    EXPECT_TRUE(win.m()
                    .panel()
                    ->findChild<QLabel*>("measurementNote")
                    ->text()
                    .contains(QStringLiteral("border")));
}

// The widget pixel where a physical point appears (rounded to the pixel a click can hit).
QPoint pixelOf(ViewportWidget& view, const glm::dvec3& p)
{
    const glm::dvec4 clip =
        glm::dmat4(view.projectionMatrix()) * glm::dmat4(view.viewMatrix()) * glm::dvec4(p, 1.0);
    return QPoint(int(std::lround((clip.x / clip.w + 1.0) * 0.5 * view.width())),
                  int(std::lround((1.0 - clip.y / clip.w) * 0.5 * view.height())));
}

TEST(MeasurementsTest, TwoClicksOnTheSurfaceGiveTheirDistance)
{
    Window win;
    ViewportWidget* view = win.w.viewport();
    // The camera on the -y (anterior) side.
    win.w.scene()->editCamera([](OrbitCamera& c) { c.setStandardView(StandardView::Anterior); });
    QAction* tool = win.m().distanceAction();
    EXPECT_EQ(tool->shortcut(), QKeySequence(Qt::Key_D));
    tool->trigger();
    EXPECT_TRUE(win.m().distanceTool()->isActive());
    EXPECT_TRUE(waitUntil([&] { return win.m().panel()->isVisible(); })); // its readout
    ASSERT_TRUE(win.measuredAt(0.0));

    // The anterior pole and a point 50 degrees to the patient's left of it, both facing the
    // camera.
    const glm::dvec3 c = sphereCenter();
    const double a = 50.0 * kPi / 180.0;
    const glm::dvec3 pole = c + kRadiusMm * glm::dvec3(0.0, -1.0, 0.0);
    const glm::dvec3 side = c + kRadiusMm * glm::dvec3(std::sin(a), -std::cos(a), 0.0);
    QTest::mouseClick(view, Qt::LeftButton, Qt::NoModifier, pixelOf(*view, pole));
    ASSERT_EQ(win.m().distanceTool()->points().size(), 1u);
    QTest::mouseClick(view, Qt::LeftButton, Qt::NoModifier, pixelOf(*view, side));
    const auto& points = win.m().distanceTool()->points();
    ASSERT_EQ(points.size(), 2u);
    // Each within half a voxel of the point aimed at (the click lands on a whole pixel, a
    // fraction of a millimetre here), and so the distance.
    const double halfVoxel = 0.5 * kSpacing.x;
    EXPECT_LT(glm::length(points[0] - pole), halfVoxel);
    EXPECT_LT(glm::length(points[1] - side), halfVoxel);
    EXPECT_NEAR(glm::length(points[0] - c), kRadiusMm, 0.1); // on the surface
    EXPECT_NEAR(glm::length(points[1] - c), kRadiusMm, 0.1);
    const double expected = glm::length(side - pole);
    ASSERT_TRUE(win.m().distanceTool()->distanceMm());
    EXPECT_NEAR(*win.m().distanceTool()->distanceMm(), expected, halfVoxel);
    EXPECT_NEAR(leadingNumber(win.m().panel()->distanceText()), expected, halfVoxel);
    test::saveScreenshot(win.w, "measurements_distance");
    // The overlay draws the line over the view: a screenshot of the view has its yellow.
    const QImage shot = view->grabView().convertToFormat(QImage::Format_RGB32);
    const QPoint mid = (pixelOf(*view, pole) + pixelOf(*view, side)) / 2;
    const QColor atMid = shot.pixelColor(mid * shot.devicePixelRatio());
    EXPECT_GT(atMid.red(), 200);
    EXPECT_GT(atMid.green(), 160);
    EXPECT_LT(atMid.blue(), 120);

    // A drag orbits instead of picking.
    QTest::mousePress(view, Qt::LeftButton, Qt::NoModifier, QPoint(100, 100));
    QMouseEvent move(QEvent::MouseMove, QPointF(160, 130), view->mapToGlobal(QPointF(160, 130)),
                     Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(view, &move);
    QTest::mouseRelease(view, Qt::LeftButton, Qt::NoModifier, QPoint(160, 130));
    EXPECT_EQ(win.m().distanceTool()->points().size(), 2u);

    // A click beside the sphere picks nothing and says so.
    QSignalSpy missed(win.m().distanceTool(), &DistanceTool::missed);
    QTest::mouseClick(view, Qt::LeftButton, Qt::NoModifier, QPoint(5, 5));
    EXPECT_EQ(missed.count(), 1);
    EXPECT_EQ(win.m().distanceTool()->points().size(), 2u);

    // Esc in the view clears the measurement.
    view->setFocus();
    QTest::keyClick(view, Qt::Key_Escape);
    EXPECT_TRUE(win.m().distanceTool()->points().empty());
    EXPECT_EQ(win.m().panel()->distanceText(), QStringLiteral("-"));
    tool->trigger();
    EXPECT_FALSE(win.m().distanceTool()->isActive());
}

// What a slice view does: patient-space points, no picking.
TEST(MeasurementsTest, PointsFromAnotherViewAreMeasuredToo)
{
    Window win;
    DistanceTool* tool = win.m().distanceTool();
    QSignalSpy changed(tool, &DistanceTool::changed);
    tool->addPoint({0.0, 0.0, 0.0});
    EXPECT_FALSE(tool->distanceMm());
    tool->addPoint({3.0, 4.0, 12.0});
    ASSERT_TRUE(tool->distanceMm());
    EXPECT_DOUBLE_EQ(*tool->distanceMm(), 13.0);
    EXPECT_EQ(changed.count(), 2);
    EXPECT_NEAR(leadingNumber(win.m().panel()->distanceText()), 13.0, 1e-9);
    // A third point starts a new measurement.
    tool->addPoint({1.0, 1.0, 1.0});
    EXPECT_EQ(tool->points().size(), 1u);
    tool->setPoints({0, 0, 0}, {0, 0, 2});
    EXPECT_DOUBLE_EQ(*tool->distanceMm(), 2.0);
}

// A real CT (the skull phantom, 512 x 512 x 28, 0.45 x 0.45 x 5 mm) at 200 HU: the panel's
// figures are those print preparation reports for the same surface closed at the border (the
// export dialog's "volume before"), and two clicks on the skull measure their distance.
TEST(MeasurementsTest, ACtSkullIsMeasuredAsItsPrintReadyExportWouldBe)
{
    isoview::test::TempDir unused;
    MainWindow w;
    w.resize(1200, 800);
    w.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
    QSignalSpy loaded(&w, &MainWindow::volumeLoaded);
    w.openPath(QString::fromStdString(
                   isoview::test::sharedDataPath("dicom/ct_philips_head_phantom_5mm").string()),
               200.0);
    ASSERT_TRUE(waitUntil([&] { return loaded.count() == 1; }, 60000));
    ASSERT_TRUE(waitUntil([&] { return w.viewport()->renderedIsovalue() == 200.0; }, 60000));
    Measurements& m = *part<Measurements>(w);
    m.dock()->show();
    ASSERT_TRUE(waitUntil(
        [&] {
            const auto current = m.measurer()->current();
            return current && current->isovalue == 200.0;
        },
        60000));
    const SurfaceMeasurements figures = m.measurer()->current()->figures;

    QElapsedTimer clock;
    clock.start();
    const CapturedSurface surface = w.viewport()->captureSurface();
    // What the measurer's capture costs the GUI thread (the rest runs in the background).
    std::printf("capture of %zu triangles on the GUI thread: %lld ms\n",
                surface.mesh.triangleCount(), static_cast<long long>(clock.elapsed()));
    const Volume& volume = *w.document()->volume;
    PrintSteps close;
    close.closeBorders = true;
    const PrintReport report = prepareMesh(surface.mesh, volume, 200.0, surface.crop, close).report;
    EXPECT_EQ(figures.triangles, report.trianglesBefore);
    EXPECT_EQ(figures.capTriangles, report.capTriangles);
    EXPECT_TRUE(figures.openAtBorder); // the phantom runs through the top and bottom slices
    EXPECT_NEAR(figures.volumeMl, report.volumeBeforeMl, 1e-6 * report.volumeBeforeMl);
    EXPECT_NEAR(figures.areaMm2, surfaceArea(surface.mesh, volume.geometry().indexToPhysical()),
                1e-6 * figures.areaMm2);
    EXPECT_GT(figures.volumeMl, 10.0);

    // Two clicks on the skull seen from the front.
    ViewportWidget* view = w.viewport();
    w.scene()->editCamera([](OrbitCamera& c) { c.setStandardView(StandardView::Anterior); });
    m.distanceAction()->trigger();
    const QPoint centre(view->width() / 2, view->height() / 2);
    QTest::mouseClick(view, Qt::LeftButton, Qt::NoModifier, centre - QPoint(view->width() / 8, 0));
    QTest::mouseClick(view, Qt::LeftButton, Qt::NoModifier, centre + QPoint(view->width() / 8, 0));
    const auto& points = m.distanceTool()->points();
    ASSERT_EQ(points.size(), 2u);
    ASSERT_TRUE(m.distanceTool()->distanceMm());
    EXPECT_NEAR(*m.distanceTool()->distanceMm(), glm::length(points[1] - points[0]), 1e-12);
    EXPECT_GT(*m.distanceTool()->distanceMm(), 10.0);
    ASSERT_TRUE(waitUntil([&] { return view->renderedIsovalue() == 200.0; }));
    QTest::qWait(300);
    test::saveScreenshot(w, "measurements_ct_skull");
}

// Issue 26: on a 512 x 512 x 140 CT, switching the selected surface in volume rendering with the
// Measurements dock open froze the window for seconds (its capture waited on the GUI thread for
// the render thread's volume frame). A 5 ms timer on the GUI thread records the longest gap in
// its event loop while the selection changes, each surface is captured and measured: at most
// 100 ms (less the waits for a core that other programs on the machine cause; llvmpipe's frames
// run on the render thread and do not count).
TEST(MeasurementsTest, SelectingSurfacesInVolumeRenderingNeverBlocksTheWindow)
{
    isoview::test::TempDir dir;
    const QString ct = QString::fromStdString(test::writeCtStandIn(dir.path()).string());
    MainWindow w;
    // Small: llvmpipe's full-resolution volume frames of this CT take seconds a megapixel, and
    // closing the window waits for the one in flight.
    w.resize(720, 520);
    // The 3D view alone: reslicing the three slice views of this CT and drawing their contours
    // still takes 100-200 ms of one GUI turn in the 2x2 layout under load (their own matter, not
    // the render thread's; each view's paint is 18-28 ms since its contours became polylines).
    part<ViewLayout>(w)->setLayout(ViewLayout::Layout::ThreeDOnly);
    w.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
    QSignalSpy loaded(&w, &MainWindow::volumeLoaded);
    w.openPath(ct, 600.0);
    ASSERT_TRUE(waitUntil([&] { return loaded.count() == 1; }, 20000));

    GuiBlockWatcher watcher;
    watcher.start();
    QElapsedTimer clock;
    clock.start();
    SceneModel& scene = *w.scene();
    scene.setRenderMode(RenderMode::Volume);
    Measurements& m = *part<Measurements>(w);
    m.dock()->show();
    const std::uint32_t first = scene.scene().surfaces.selected().id;
    const std::uint32_t lower = scene.addSurface(500.0);
    const std::uint32_t higher = scene.addSurface(700.0);
    // Each selection waits for its frame, and then a little (its capture or measurement is on its
    // way when the next one comes); the last is measured to its end.
    for (const std::uint32_t id : {lower, first, higher}) {
        scene.selectSurface(id);
        const double iso = scene.scene().surfaces.selected().isovalue;
        ASSERT_TRUE(waitUntil([&] { return w.viewport()->renderedIsovalue() == iso; }, 20000));
        EXPECT_EQ(m.panel()->areaText(), QStringLiteral("measuring…"));
        QTest::qWait(300);
    }
    ASSERT_TRUE(waitUntil(
        [&] {
            const auto current = m.measurer()->current();
            return current && current->isovalue == 700.0;
        },
        20000));
    EXPECT_TRUE(m.panel()->areaText().endsWith(QStringLiteral("mm²")));
    watcher.stop();
    std::printf("3 surfaces selected in volume rendering, the last measured: %lld ms; longest GUI "
                "thread gap %.1f ms, %.1f ms less waits for a core (%.0f ms of them)\n",
                static_cast<long long>(clock.elapsed()), watcher.longestMs(),
                watcher.longestOwnMs(), watcher.runQueueWaitMs());
    EXPECT_LE(watcher.longestOwnMs(), test::kMaxGuiBlockMs);
}

} // namespace
} // namespace isoview::app
