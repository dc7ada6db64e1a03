// The slice views' part in the 3D view and the distance tool (llvmpipe under Xvfb): the slice
// planes follow the crosshair and window and their toggle is remembered; two clicks in a slice
// with the distance tool on give the distance the slice's pixel -> patient mapping and the
// volume's spacing say, and the Measurements dock keeps its rows apart in a short window; the
// 1 x 3 layout's slice headers and readouts never overlap, even at the window's smallest size.
#include "app_test_support.h"
#include "main_window.h"
#include "measure/distance_tool.h"
#include "measure/measurement_panel.h"
#include "measure/measurements.h"
#include "measure/surface_measurer.h"
#include "support/synthetic_volumes.h"
#include "support/temp_dir.h"
#include "view_layout.h"
#include "views/slice_view.h"
#include "views/viewport_widget.h"

#include <gtest/gtest.h>

#include <QAbstractButton>
#include <QAction>
#include <QLabel>
#include <QLocale>
#include <QMouseEvent>
#include <QSettings>
#include <QSignalSpy>
#include <QTest>
#include <algorithm>
#include <cmath>
#include <fstream>
#include <string>

namespace isoview::app {
namespace {

using test::part;

using test::waitUntil;

const glm::dvec3 kSpacing(0.7, 0.9, 1.3);
const glm::dvec3 kOrigin(-12.0, 30.0, 5.0);
const glm::uvec3 kDims(40, 32, 24);

// A sphere as a float NRRD in LPS (anisotropic spacing, so a distance in voxels is not one in mm).
std::filesystem::path writeSphere(const std::filesystem::path& folder)
{
    VolumeGeometry g;
    g.spacing = kSpacing;
    g.origin = kOrigin;
    const glm::dvec3 center = kOrigin + kSpacing * glm::dvec3(kDims - glm::uvec3(1)) / 2.0;
    const Volume v = isoview::test::makeSphere(kDims, glm::vec3(center), 10.0f, g);
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

struct Window {
    explicit Window(ViewLayout::Layout layout = ViewLayout::Layout::Grid2x2)
    {
        QSettings().setValue("views/layout", int(layout));
        QSettings().remove("views/slicePlanesIn3D");
        w = std::make_unique<MainWindow>();
        w->resize(1000, 700);
        w->show();
        EXPECT_TRUE(QTest::qWaitForWindowExposed(w.get()));
        QSignalSpy loaded(w.get(), &MainWindow::volumeLoaded);
        w->openPath(QString::fromStdString(writeSphere(dir.path()).string()), 0.0);
        EXPECT_TRUE(waitUntil([&] { return loaded.count() == 1; }));
    }
    ~Window() { QSettings().remove("views/layout"); }
    ViewLayout& layout() { return *part<ViewLayout>(*w); }

    isoview::test::TempDir dir;
    std::unique_ptr<MainWindow> w;
};

TEST(SliceToolsTest, SlicePlanesFollowTheCrosshairAndWindowAndTheirToggleIsRemembered)
{
    Window win;
    // What the 3D view draws of the planes is the scene's (the renderer reads the same values).
    const Scene& scene = win.w->scene()->scene();
    EXPECT_FALSE(scene.slicePlanesShown()) << "off by default: opaque planes hide the surfaces";
    QAction* toggle = win.layout().slicePlanesAction();
    toggle->trigger();
    EXPECT_TRUE(scene.slicePlanesShown()) << "on in the 2 x 2 layout once asked for";
    EXPECT_EQ(scene.sliceIndices(), glm::uvec3(kDims / 2u));
    win.layout().setCrosshair({3.2, 7.6, 11.0});
    EXPECT_EQ(scene.sliceIndices(), glm::uvec3(3, 8, 11));
    win.layout().setWindowLevel({12.0, 34.0});
    EXPECT_EQ(scene.slices.window.center, 12.0);
    EXPECT_EQ(scene.slices.window.width, 34.0);

    win.layout().setLayout(ViewLayout::Layout::ThreeDOnly);
    EXPECT_FALSE(scene.slicePlanesShown()) << "no crosshair to follow without the slice views";
    win.layout().setLayout(ViewLayout::Layout::Row1x3);
    EXPECT_TRUE(scene.slicePlanesShown());

    EXPECT_EQ(toggle->shortcut(), QKeySequence(Qt::Key_P));
    toggle->trigger();
    EXPECT_FALSE(scene.slicePlanesShown());
    EXPECT_FALSE(QSettings().value("views/slicePlanesIn3D").toBool());
    MainWindow second;
    EXPECT_FALSE(part<ViewLayout>(second)->slicePlanesAction()->isChecked()) << "remembered";
    QSettings().remove("views/slicePlanesIn3D");
}

// Every shown label and button of the panel has the height its text needs (wrapped ones: at
// their width) and none overlaps another.
void expectRowsApart(const QWidget& panel)
{
    std::vector<const QWidget*> rows;
    for (const QWidget* child : panel.findChildren<QWidget*>()) {
        if (child->isVisible() &&
            (qobject_cast<const QLabel*>(child) || qobject_cast<const QAbstractButton*>(child)))
            rows.push_back(child);
    }
    ASSERT_GE(rows.size(), 10u);
    const auto box = [&](const QWidget* w) {
        return QRect(w->mapTo(&panel, QPoint(0, 0)), w->size());
    };
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const auto* label = qobject_cast<const QLabel*>(rows[i]);
        const int needed = label && label->wordWrap() ? label->heightForWidth(label->width())
                                                      : rows[i]->minimumSizeHint().height();
        const std::string text = label ? label->text().toStdString() : std::string("a button");
        EXPECT_GE(rows[i]->height(), needed) << "'" << text << "' is clipped";
        for (std::size_t j = 0; j < i; ++j)
            EXPECT_FALSE(box(rows[i]).intersects(box(rows[j])))
                << "'" << text << "' overlaps another row";
    }
}

TEST(SliceToolsTest, TwoClicksInASliceGiveTheirDistanceInMm)
{
    Window win;
    Measurements& m = *part<Measurements>(*win.w);
    m.distanceAction()->trigger();
    ASSERT_TRUE(m.distanceTool()->isActive());
    SliceView* axial = win.layout().sliceView(SliceOrientation::Axial);
    const glm::dvec3 crosshairBefore = win.layout().crosshair();

    // Two voxel centres of the axial slice, 20 columns and 10 rows apart.
    const glm::dvec2 a(6.0, 5.0);
    const glm::dvec2 b(26.0, 15.0);
    QTest::mouseClick(axial, Qt::LeftButton, Qt::NoModifier,
                      axial->widgetPointOfPixel(a).toPoint());
    QTest::mouseClick(axial, Qt::LeftButton, Qt::NoModifier,
                      axial->widgetPointOfPixel(b).toPoint());
    ASSERT_EQ(m.distanceTool()->points().size(), 2u);
    EXPECT_EQ(win.layout().crosshair(), crosshairBefore) << "a measuring click is not a move";

    // Columns run along i and rows along j in this axial slice: 20 x 0.7 mm and 10 x 0.9 mm.
    // The click lands on a whole widget pixel: up to half a widget pixel off each voxel centre.
    const double expected = std::hypot(20.0 * kSpacing.x, 10.0 * kSpacing.y);
    const VolumeSlice& s = axial->slice();
    const double mmPerWidgetPixel =
        glm::length(s.toPhysical(a + glm::dvec2(1.0, 0.0)) - s.toPhysical(a)) /
        (axial->widgetPointOfPixel(a + glm::dvec2(1.0, 0.0)) - axial->widgetPointOfPixel(a))
            .manhattanLength();
    ASSERT_TRUE(m.distanceTool()->distanceMm());
    EXPECT_NEAR(*m.distanceTool()->distanceMm(), expected, 2.0 * mmPerWidgetPixel);
    // Both points lie on the axial slice shown, at the slice's k.
    for (const glm::dvec3& p : m.distanceTool()->points())
        EXPECT_NEAR(p.z, kOrigin.z + kSpacing.z * s.sliceIndex, 1e-6);
    bool ok = false; // the panel's readout: "12.34 mm" in the locale's digits
    const double shown = QLocale().toDouble(m.panel()->distanceText().section(' ', 0, 0), &ok);
    EXPECT_TRUE(ok) << m.panel()->distanceText().toStdString();
    EXPECT_NEAR(shown, *m.distanceTool()->distanceMm(), 0.006);
    test::saveScreenshot(*win.w, "slice_distance");

    // In a short window the Measurements dock keeps every row whole and apart (it clipped and
    // overlapped them) and scrolls instead: the longest figures and note, both points.
    ASSERT_TRUE(waitUntil([&] { return bool(m.measurer()->current()); }));
    SurfaceMeasurements figures;
    figures.areaMm2 = 123456.7;
    figures.volumeMl = 1234.56;
    figures.pieces = 12;
    figures.largestPieceVolumeMl = 1000.25;
    figures.largestPieceAreaMm2 = 99999.9;
    figures.triangles = 1234567;
    figures.openAtBorder = true;
    m.panel()->showFigures(figures, 300.0);
    win.w->resize(1000, 380);
    QTest::qWait(50);
    expectRowsApart(*m.panel());
    test::saveScreenshot(*win.w, "measurements_short_window");

    // Off the tool, a click moves the crosshair again.
    m.distanceAction()->trigger();
    QTest::mouseClick(axial, Qt::LeftButton, Qt::NoModifier,
                      axial->widgetPointOfPixel(a).toPoint());
    EXPECT_NE(win.layout().crosshair(), crosshairBefore);
    EXPECT_EQ(m.distanceTool()->points().size(), 2u);
}

// Puts the cursor over the view's centre, so its readout shows.
void hover(SliceView& view)
{
    const QPointF at(view.width() / 2.0, view.height() / 2.0);
    QMouseEvent move(QEvent::MouseMove, at, view.mapToGlobal(at), Qt::NoButton, Qt::NoButton,
                     Qt::NoModifier);
    QCoreApplication::sendEvent(&view, &move);
}

// No two header or footer texts of a slice view intersect (the readout ran under the bottom
// letter), each lies inside its view, and the slice number is whole.
void expectHeadersApart(const SliceView& view)
{
    std::vector<SliceHeaderItem> header = view.headerLayout();
    ASSERT_GE(header.size(), 3u) << "letter, name, slice number and window";
    const QString slice = QString("%1/%2").arg(view.sliceIndex() + 1).arg(view.sliceCount());
    EXPECT_TRUE(std::any_of(header.begin(), header.end(),
                            [&](const SliceHeaderItem& i) { return i.text.endsWith(slice); }))
        << "the slice number " << slice.toStdString() << " elided";
    const std::vector<SliceHeaderItem> footer = view.footerLayout();
    ASSERT_EQ(footer.size(), 2u) << "the bottom letter and the readout";
    EXPECT_FALSE(view.readout().isEmpty());
    header.insert(header.end(), footer.begin(), footer.end());
    for (std::size_t i = 0; i < header.size(); ++i) {
        EXPECT_TRUE(view.rect().contains(header[i].rect))
            << view.objectName().toStdString() << ": '" << header[i].text.toStdString()
            << "' leaves the view";
        for (std::size_t j = i + 1; j < header.size(); ++j)
            EXPECT_FALSE(header[i].rect.intersects(header[j].rect))
                << view.objectName().toStdString() << ": '" << header[i].text.toStdString()
                << "' overlaps '" << header[j].text.toStdString() << "'";
    }
}

TEST(SliceToolsTest, OneByThreeHeadersNeverOverlapEvenAtTheSmallestWindow)
{
    Window win(ViewLayout::Layout::Row1x3);
    win.layout().setWindowLevel({-1234.5, 98765.4}); // a long window text
    win.w->resize(1, 1);                             // the smallest the window allows
    QTest::qWait(50);
    for (SliceOrientation o :
         {SliceOrientation::Axial, SliceOrientation::Coronal, SliceOrientation::Sagittal}) {
        SliceView* v = win.layout().sliceView(o);
        SCOPED_TRACE(v->objectName().toStdString() + " " + std::to_string(v->width()) + " px");
        EXPECT_LE(v->width(), 200) << "the test wants a narrow view";
        hover(*v);
        expectHeadersApart(*v);
    }
    test::saveScreenshot(*win.w, "slice_headers_1x3_narrow");

    // Wide views keep one line.
    win.w->resize(1600, 900);
    QTest::qWait(50);
    SliceView* axial = win.layout().sliceView(SliceOrientation::Axial);
    hover(*axial);
    expectHeadersApart(*axial);
    // A wide view shows the whole readout, and beside the bottom letter unless it would meet it.
    const std::vector<SliceHeaderItem> footer = axial->footerLayout();
    ASSERT_EQ(footer.size(), 2u);
    EXPECT_EQ(footer[1].text, axial->readout());
    if (footer[1].rect.top() != footer[0].rect.top()) {
        EXPECT_GT(footer[1].rect.right(), footer[0].rect.left() - 10) << "moved up for nothing";
    }
    for (const SliceHeaderItem& item : axial->headerLayout()) {
        EXPECT_EQ(item.rect.top(), axial->headerLayout().front().rect.top()) << "one line";
        EXPECT_FALSE(item.text.contains(QChar(0x2026)))
            << "nothing elided: " << item.text.toStdString();
    }
}

} // namespace
} // namespace isoview::app
