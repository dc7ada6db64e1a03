// The histogram view as the isovalue panel uses it: its value <-> pixel mapping, picking a value
// by clicking and dragging (clamped to the range), and bar heights in linear mode (scaled by
// displayMaxCount, so the background peak does not flatten the rest) and in log mode, read
// back from the painted pixels; the readout of the value and count under the pointer.
#include "app_test_support.h"
#include "surfaces/histogram_view.h"

#include <gtest/gtest.h>

#include <QApplication>
#include <QImage>
#include <QLocale>
#include <QMouseEvent>
#include <QSignalSpy>
#include <QTest>
#include <cmath>
#include <cstdlib>

namespace isoview::app {
namespace {

using test::saveScreenshot;

// A move with the left button held, as during a drag.
void dragTo(QWidget& widget, QPointF pos)
{
    QMouseEvent move(QEvent::MouseMove, pos, widget.mapToGlobal(pos), Qt::NoButton, Qt::LeftButton,
                     Qt::NoModifier);
    QApplication::sendEvent(&widget, &move);
}

// 100 bins over [0, 1000]: a huge background peak in bin 0, 100 elsewhere, 1 in bin 99.
Histogram peakedHistogram()
{
    Histogram h;
    h.min = 0.0;
    h.max = 1000.0;
    h.counts.assign(100, 100);
    h.counts[0] = 1000000;
    h.counts[99] = 1;
    return h;
}

struct ViewUnderTest {
    ViewUnderTest()
    {
        view.setHistogram(peakedHistogram());
        view.resize(500, 160);
        view.show();
        EXPECT_TRUE(QTest::qWaitForWindowExposed(&view));
    }
    // The value one pixel spans: the most a click can be off by.
    double pixelValue() const { return 1000.0 / view.plotRect().width(); }
    QPoint at(double value) const
    {
        return QPoint(int(std::lround(view.valueToX(value))), int(view.plotRect().center().y()));
    }
    HistogramView view;
};

TEST(HistogramView, MapsValuesToPixelsAndBack)
{
    ViewUnderTest t;
    const QRectF plot = t.view.plotRect();
    EXPECT_DOUBLE_EQ(t.view.valueToX(0.0), plot.left());
    EXPECT_DOUBLE_EQ(t.view.valueToX(1000.0), plot.right());
    EXPECT_NEAR(t.view.valueToX(250.0), plot.left() + 0.25 * plot.width(), 1e-9);
    for (double v : {0.0, 1.5, 333.0, 999.0, 1000.0}) {
        EXPECT_NEAR(t.view.xToValue(t.view.valueToX(v)), v, 1e-9) << v;
    }
    // Outside the plot the value is clamped to the range.
    EXPECT_DOUBLE_EQ(t.view.xToValue(plot.left() - 50.0), 0.0);
    EXPECT_DOUBLE_EQ(t.view.xToValue(plot.right() + 50.0), 1000.0);
}

TEST(HistogramView, ClickPicksTheValueUnderTheMouse)
{
    ViewUnderTest t;
    QSignalSpy picked(&t.view, &HistogramView::valuePicked);
    for (double v : {120.0, 640.0, 999.0}) {
        QTest::mouseClick(&t.view, Qt::LeftButton, {}, t.at(v));
        ASSERT_FALSE(picked.isEmpty());
        EXPECT_NEAR(picked.takeLast().at(0).toDouble(), v, t.pixelValue()) << v;
    }
    // Other buttons pick nothing.
    QTest::mouseClick(&t.view, Qt::RightButton, {}, t.at(500.0));
    EXPECT_TRUE(picked.isEmpty());
}

TEST(HistogramView, DragPicksEveryPositionClampedToTheRange)
{
    ViewUnderTest t;
    QSignalSpy picked(&t.view, &HistogramView::valuePicked);
    QTest::mousePress(&t.view, Qt::LeftButton, {}, t.at(100.0));
    const double y = t.view.plotRect().center().y();
    for (double v : {200.0, 300.0, 400.0})
        dragTo(t.view, QPointF(t.view.valueToX(v), y));
    dragTo(t.view, QPointF(t.view.plotRect().right() + 80.0, y)); // past the right end
    dragTo(t.view, QPointF(t.view.plotRect().left() - 80.0, y));  // past the left end
    QTest::mouseRelease(&t.view, Qt::LeftButton, {}, t.at(0.0));
    ASSERT_EQ(picked.count(), 6);
    EXPECT_NEAR(picked.at(0).at(0).toDouble(), 100.0, t.pixelValue());
    EXPECT_NEAR(picked.at(1).at(0).toDouble(), 200.0, 1e-9);
    EXPECT_NEAR(picked.at(3).at(0).toDouble(), 400.0, 1e-9);
    EXPECT_DOUBLE_EQ(picked.at(4).at(0).toDouble(), 1000.0);
    EXPECT_DOUBLE_EQ(picked.at(5).at(0).toDouble(), 0.0);

    // Once released, moving the mouse picks nothing.
    QTest::mouseMove(&t.view, t.at(700.0));
    QMouseEvent hover(QEvent::MouseMove, QPointF(t.at(800.0)), t.view.mapToGlobal(t.at(800.0)),
                      Qt::NoButton, Qt::NoButton, Qt::NoModifier);
    QApplication::sendEvent(&t.view, &hover);
    EXPECT_EQ(picked.count(), 6);
}

TEST(HistogramView, WithoutHistogramNothingIsPicked)
{
    HistogramView view;
    view.resize(300, 120);
    view.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
    EXPECT_FALSE(view.hasHistogram());
    QSignalSpy picked(&view, &HistogramView::valuePicked);
    QTest::mouseClick(&view, Qt::LeftButton, {}, view.rect().center());
    EXPECT_TRUE(picked.isEmpty());
    saveScreenshot(view, "histogram_view_empty");
}

// How far up the plot the bars reach at a value: the fraction of the plot height, from the
// painted pixels (the first row from the top that differs from the empty plot's colour).
double paintedBarHeight(HistogramView& view, double value)
{
    const QImage image = view.grab().toImage();
    const QRectF plot = view.plotRect();
    const int x = int(std::lround(view.valueToX(value)));
    const QColor background = view.palette().color(QPalette::Base);
    // Skip the frame and the clipping cap rows at the very top.
    for (int y = int(plot.top()) + 4; y < int(plot.bottom()); ++y) {
        if (image.pixelColor(x, y) != background) return (plot.bottom() - y) / plot.height();
    }
    return 0.0;
}

TEST(HistogramView, LinearScaleIsSetByTheLargestBinBesideThePeak)
{
    ViewUnderTest t;
    t.view.setLogScale(false);
    // The bins of 100 fill the height (displayMaxCount is 100, not the peak's million) ...
    EXPECT_GT(paintedBarHeight(t.view, 505.0), 0.95);
    // ... and the bin of 1 is a hundredth of it.
    EXPECT_LT(paintedBarHeight(t.view, 995.0), 0.05);
    saveScreenshot(t.view, "histogram_view_linear");
}

TEST(HistogramView, LogScaleDividesLogCountsByTheLogOfThePeak)
{
    ViewUnderTest t;
    t.view.setLogScale(true);
    EXPECT_TRUE(t.view.logScale());
    // log(101) / log(1000001) = 0.334 of the height.
    const double expected = std::log1p(100.0) / std::log1p(1e6);
    EXPECT_NEAR(paintedBarHeight(t.view, 505.0), expected, 0.03);
    t.view.setMarker(640.0);
    EXPECT_EQ(t.view.marker(), 640.0);
    saveScreenshot(t.view, "histogram_view_log_marker");
}

// The plot under the marker is drawn once and reused while only the marker moves (every
// isovalue change of a drag): it must follow whatever else changes after it was drawn.
TEST(HistogramView, ThePlotFollowsItsHistogramSizePaletteAndTheMarkerLeavesNoTrace)
{
    ViewUnderTest t;
    t.view.setLogScale(false);
    ASSERT_GT(paintedBarHeight(t.view, 505.0), 0.95);

    // Another histogram: bin 50 (500..510) now holds a tenth of the scale's top.
    Histogram h = peakedHistogram();
    h.counts[50] = 10;
    t.view.setHistogram(h);
    EXPECT_NEAR(paintedBarHeight(t.view, 505.0), 0.1, 0.03);

    // Wider: the same value sits at a new pixel, and the bars are drawn there.
    t.view.resize(800, 160);
    QApplication::processEvents();
    EXPECT_NEAR(paintedBarHeight(t.view, 505.0), 0.1, 0.03);
    EXPECT_GT(paintedBarHeight(t.view, 305.0), 0.95);

    // A new palette: the empty plot takes its base colour.
    QPalette palette = t.view.palette();
    palette.setColor(QPalette::Base, QColor(10, 200, 30));
    t.view.setPalette(palette);
    const QImage recoloured = t.view.grab().toImage();
    const QPointF plotTop = t.view.plotRect().topLeft();
    EXPECT_EQ(
        recoloured.pixelColor(int(std::lround(t.view.valueToX(505.0))), int(plotTop.y()) + 10),
        QColor(10, 200, 30));

    // The marker moves over the reused plot: where it was, the plot is as before.
    const QImage before = t.view.grab().toImage();
    t.view.setMarker(640.0);
    t.view.grab();
    t.view.setMarker(200.0);
    const QImage after = t.view.grab().toImage();
    const int x = int(std::lround(t.view.valueToX(640.0)));
    for (int y = int(plotTop.y()) + 6; y < int(t.view.plotRect().bottom()); y += 5)
        EXPECT_EQ(after.pixelColor(x, y), before.pixelColor(x, y)) << "row " << y;
}

TEST(HistogramView, MarkerIsDrawnAtItsValue)
{
    ViewUnderTest t;
    t.view.setMarker(640.0);
    const QImage image = t.view.grab().toImage();
    const int y = int(t.view.plotRect().bottom()) - 3;
    const QColor atMarker = image.pixelColor(int(std::lround(t.view.valueToX(640.0))), y);
    const QColor beside = image.pixelColor(int(std::lround(t.view.valueToX(600.0))), y);
    // Amber over the bars: much redder than blue, unlike the bars beside it.
    EXPECT_GT(atMarker.red() - atMarker.blue(), 100) << atMarker.name().toStdString();
    EXPECT_NE(atMarker, beside);
    t.view.clearMarker();
    EXPECT_FALSE(t.view.marker().has_value());
}

TEST(HistogramView, HoverShowsTheValueAndTheCountOfItsBin)
{
    ViewUnderTest t;
    t.view.setUnits("HU");
    EXPECT_TRUE(t.view.hoverReadout().isEmpty()) << "nothing before the pointer comes";
    QSignalSpy picked(&t.view, &HistogramView::valuePicked);

    // Bin 99 ([990, 1000]) holds 1 voxel, bin 50 ([500, 510]) 100: the value under the pointer
    // (to the pixel) and its bin's count.
    // Sent directly, not QTest::mouseMove: that moves the X server's one pointer, which a GUI
    // test running beside this one (ctest -j2 on one Xvfb display) moves too.
    const auto hover = [&](double value) {
        QMouseEvent move(QEvent::MouseMove, QPointF(t.at(value)),
                         t.view.mapToGlobal(QPointF(t.at(value))), Qt::NoButton, Qt::NoButton,
                         Qt::NoModifier);
        QApplication::sendEvent(&t.view, &move);
    };
    hover(995.0);
    ASSERT_FALSE(t.view.hoverReadout().isEmpty());
    const QString readout = t.view.hoverReadout();
    EXPECT_TRUE(readout.endsWith(": 1 voxels")) << readout.toStdString();
    const double shown = readout.section(' ', 0, 0).toDouble();
    EXPECT_NEAR(shown, 995.0, t.pixelValue() + 0.5);
    EXPECT_TRUE(readout.contains(" HU:"));
    EXPECT_EQ(t.view.toolTip(), readout);

    hover(505.0);
    ASSERT_TRUE(t.view.hoverReadout().endsWith(": 100 voxels"))
        << t.view.hoverReadout().toStdString();
    EXPECT_EQ(t.view.readoutAt(t.view.valueToX(2.0)),
              QStringLiteral("2 HU: %1 voxels").arg(QLocale().toString(1000000)));
    EXPECT_EQ(picked.count(), 0) << "hovering picks nothing";
    saveScreenshot(t.view, "histogram_view_readout");

    QEvent leave(QEvent::Leave);
    QApplication::sendEvent(&t.view, &leave);
    EXPECT_TRUE(t.view.hoverReadout().isEmpty());
}

} // namespace
} // namespace isoview::app
