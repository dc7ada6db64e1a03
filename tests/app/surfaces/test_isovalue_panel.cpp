// The isovalue panel as a user drives it: clicking the histogram at a value's x sets that
// isovalue, every slider step and every committed spin box value emits exactly one signal with
// the value it shows, the three views stay in sync without feeding back into each other, and
// the slider's resolution follows the data (one step per half unit for integer data, else
// 10,000); the histogram starts in log scale and the log box is remembered.
#include "app_test_support.h"
#include "support/shared_data.h"
#include "surfaces/histogram_view.h"
#include "surfaces/isovalue_panel.h"

#include <gtest/gtest.h>

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QPalette>
#include <QSettings>
#include <QSignalSpy>
#include <QSlider>
#include <QTest>
#include <cmath>
#include <cstdlib>

namespace isoview::app {
namespace {

using test::darkPalette;
using test::saveScreenshot;

// A CT-like histogram in HU: an air peak and a soft-tissue hump, one bin per 16 HU.
Histogram ctHistogram()
{
    Histogram h;
    h.min = -1024.0;
    h.max = 3072.0;
    h.counts.assign(256, 0);
    for (std::size_t i = 0; i < h.counts.size(); ++i) {
        const double hu = h.binCenter(i);
        h.counts[i] = std::uint64_t(2000.0 * std::exp(-std::pow((hu - 40.0) / 120.0, 2.0)) +
                                    300.0 * std::exp(-std::pow((hu - 900.0) / 300.0, 2.0)));
    }
    h.counts[0] = 5000000;
    return h;
}

struct PanelUnderTest {
    PanelUnderTest()
    {
        panel.resize(420, 240);
        panel.setVolumeContext(ctHistogram(), {-1024.0, 3071.0}, "HU", true);
        panel.show();
        EXPECT_TRUE(QTest::qWaitForWindowExposed(&panel));
    }
    HistogramView& histogram() const { return *panel.histogramView(); }
    QSlider& slider() const { return *panel.slider(); }
    QDoubleSpinBox& spinBox() const { return *panel.spinBox(); }
    // The three views show the panel's value.
    void expectInSync() const
    {
        EXPECT_EQ(slider().value(), panel.valueToSliderPosition(panel.isovalue()));
        EXPECT_DOUBLE_EQ(spinBox().value(), panel.isovalue());
        ASSERT_TRUE(histogram().marker().has_value());
        EXPECT_DOUBLE_EQ(*histogram().marker(), panel.isovalue());
    }
    IsovaluePanel panel;
};

TEST(IsovaluePanel, ClickOnTheHistogramAtAValueSetsThatIsovalue)
{
    PanelUnderTest t;
    QSignalSpy changed(&t.panel, &IsovaluePanel::isovalueChanged);
    HistogramView& h = t.histogram();
    const double pixelValue = (h.histogram().max - h.histogram().min) / h.plotRect().width();
    for (double hu : {300.0, -500.0, 1200.0}) {
        const QPoint at(int(std::lround(h.valueToX(hu))), int(h.plotRect().center().y()));
        QTest::mouseClick(&h, Qt::LeftButton, {}, at);
        ASSERT_FALSE(changed.isEmpty()) << hu;
        const double picked = changed.takeLast().at(0).toDouble();
        EXPECT_TRUE(changed.isEmpty()) << "one click, one signal";
        // Within a pixel, rounded to the spin box's tenth (integer data takes values between
        // its stored ones).
        EXPECT_NEAR(picked, hu, pixelValue + 0.05) << hu;
        EXPECT_NEAR(picked * 10.0, std::round(picked * 10.0), 1e-9);
        EXPECT_DOUBLE_EQ(t.panel.isovalue(), picked);
        t.expectInSync();
    }
}

TEST(IsovaluePanel, HundredSliderStepsEmitHundredSignals)
{
    PanelUnderTest t;
    t.panel.setIsovalue(0.0);
    QSignalSpy changed(&t.panel, &IsovaluePanel::isovalueChanged);
    const int start = t.slider().value();
    for (int i = 0; i < 100; ++i)
        QTest::keyClick(&t.slider(), Qt::Key_Right);
    ASSERT_EQ(changed.count(), 100);
    // Half a unit per step for integer HU: 0.5, 1, ... 50 (between stored values and on them).
    for (int i = 0; i < 100; ++i)
        EXPECT_DOUBLE_EQ(changed.at(i).at(0).toDouble(), 0.5 * (i + 1.0)) << i;
    EXPECT_EQ(t.slider().value(), start + 100);
    EXPECT_DOUBLE_EQ(changed.last().at(0).toDouble(), t.panel.isovalue());
    t.expectInSync();
}

TEST(IsovaluePanel, FineSliderOnFloatDataEmitsEveryStep)
{
    IsovaluePanel panel;
    panel.setVolumeContext(ctHistogram(), {0.0, 1.0}, "", false);
    EXPECT_EQ(panel.sliderSteps(), IsovaluePanel::kFineSteps);
    // Enough decimals that neighbouring steps (1e-4 apart) show different values.
    EXPECT_GE(panel.spinBox()->decimals(), 5);
    EXPECT_TRUE(panel.spinBox()->suffix().isEmpty());
    QSignalSpy changed(&panel, &IsovaluePanel::isovalueChanged);
    for (int p = 1; p <= 100; ++p)
        panel.slider()->setValue(p);
    ASSERT_EQ(changed.count(), 100);
    for (int i = 1; i < 100; ++i) {
        EXPECT_GT(changed.at(i).at(0).toDouble(), changed.at(i - 1).at(0).toDouble()) << i;
    }
    EXPECT_NEAR(changed.last().at(0).toDouble(), 0.01, 1e-12);
    EXPECT_DOUBLE_EQ(panel.spinBox()->value(), panel.isovalue());
}

TEST(IsovaluePanel, SliderResolutionFollowsTheData)
{
    IsovaluePanel panel;
    panel.setVolumeContext(ctHistogram(), {-1024.0, 3071.0}, "HU", true);
    EXPECT_EQ(panel.sliderSteps(), 8190); // half units
    EXPECT_EQ(panel.spinBox()->decimals(), 1);
    EXPECT_DOUBLE_EQ(panel.spinBox()->singleStep(), 0.5);
    EXPECT_EQ(panel.spinBox()->suffix(), " HU");
    EXPECT_DOUBLE_EQ(panel.sliderPositionToValue(2048), 0.0);
    EXPECT_DOUBLE_EQ(panel.sliderPositionToValue(2049), 0.5);
    EXPECT_EQ(panel.valueToSliderPosition(0.0), 2048);
    EXPECT_DOUBLE_EQ(panel.sliderPositionToValue(8190), 3071.0);

    // A wide integer range (int32 data) gets the fine slider, in whole steps of the range.
    panel.setVolumeContext(ctHistogram(), {0.0, 250000.0}, "", true);
    EXPECT_EQ(panel.sliderSteps(), IsovaluePanel::kFineSteps);
    EXPECT_EQ(panel.spinBox()->decimals(), 1);
    EXPECT_DOUBLE_EQ(panel.sliderPositionToValue(1), 25.0);
    EXPECT_DOUBLE_EQ(panel.sliderPositionToValue(IsovaluePanel::kFineSteps), 250000.0);
}

TEST(IsovaluePanel, SpinBoxAndSliderStayInSyncWithoutLoops)
{
    PanelUnderTest t;
    QSignalSpy changed(&t.panel, &IsovaluePanel::isovalueChanged);
    QSignalSpy sliderMoved(&t.slider(), &QSlider::valueChanged);
    QSignalSpy spinChanged(&t.spinBox(), &QDoubleSpinBox::valueChanged);

    // Typing a value and pressing Enter: one signal, the slider follows silently.
    t.spinBox().setFocus();
    t.spinBox().selectAll();
    QTest::keyClicks(&t.spinBox(), "1200");
    EXPECT_EQ(changed.count(), 0) << "no signal while typing";
    QTest::keyClick(&t.spinBox(), Qt::Key_Return);
    ASSERT_EQ(changed.count(), 1);
    EXPECT_DOUBLE_EQ(changed.at(0).at(0).toDouble(), 1200.0);
    EXPECT_EQ(t.slider().value(), 2 * (1024 + 1200));
    EXPECT_EQ(sliderMoved.count(), 0) << "the slider was set without its signal";
    t.expectInSync();

    // The arrow key on the spin box: one step (half a unit), one signal.
    QTest::keyClick(&t.spinBox(), Qt::Key_Up);
    ASSERT_EQ(changed.count(), 2);
    EXPECT_DOUBLE_EQ(changed.at(1).at(0).toDouble(), 1200.5);
    t.expectInSync();

    // The slider sets the spin box without the spin box answering.
    const int spinSignalsBefore = int(spinChanged.count());
    t.slider().setValue(2 * (1024 + 40));
    ASSERT_EQ(changed.count(), 3);
    EXPECT_DOUBLE_EQ(changed.at(2).at(0).toDouble(), 40.0);
    EXPECT_EQ(spinChanged.count(), spinSignalsBefore);
    t.expectInSync();
    saveScreenshot(t.panel, "isovalue_panel_ct");
}

TEST(IsovaluePanel, SetIsovalueEmitsOnceWhenTheValueChangesAndClamps)
{
    PanelUnderTest t;
    QSignalSpy changed(&t.panel, &IsovaluePanel::isovalueChanged);
    t.panel.setIsovalue(250.0);
    ASSERT_EQ(changed.count(), 1);
    EXPECT_DOUBLE_EQ(changed.at(0).at(0).toDouble(), 250.0);
    t.panel.setIsovalue(250.0);
    EXPECT_EQ(changed.count(), 1) << "same value, no signal";
    t.expectInSync();

    // Programmatic values are kept as given (a command-line --iso of 40.5 stays 40.5) ...
    t.panel.setIsovalue(40.5);
    EXPECT_DOUBLE_EQ(t.panel.isovalue(), 40.5);
    EXPECT_EQ(changed.count(), 2);
    // ... but clamped to the volume's range.
    t.panel.setIsovalue(1e9);
    EXPECT_DOUBLE_EQ(t.panel.isovalue(), 3071.0);
    t.panel.setIsovalue(-1e9);
    EXPECT_DOUBLE_EQ(t.panel.isovalue(), -1024.0);
    EXPECT_EQ(changed.count(), 4);
    EXPECT_EQ(t.slider().value(), 0);
}

TEST(IsovaluePanel, NewVolumeContextClampsQuietly)
{
    PanelUnderTest t;
    t.panel.setIsovalue(2000.0);
    QSignalSpy changed(&t.panel, &IsovaluePanel::isovalueChanged);
    t.panel.setVolumeContext(ctHistogram(), {0.0, 255.0}, "", true);
    EXPECT_EQ(changed.count(), 0);
    EXPECT_DOUBLE_EQ(t.panel.isovalue(), 255.0);
    EXPECT_EQ(t.panel.sliderSteps(), 510);
    t.expectInSync();
}

TEST(IsovaluePanel, HistogramStartsInLogScaleAndTheChoiceIsRemembered)
{
    QSettings().remove("isovalue/logScale"); // a first run
    {
        PanelUnderTest t;
        EXPECT_TRUE(t.panel.logScaleCheckBox()->isChecked());
        EXPECT_TRUE(t.histogram().logScale());
        t.panel.logScaleCheckBox()->click();
        EXPECT_FALSE(t.histogram().logScale());
    }
    {
        PanelUnderTest next; // the next window's panel
        EXPECT_FALSE(next.panel.logScaleCheckBox()->isChecked());
        EXPECT_FALSE(next.histogram().logScale());
        next.panel.logScaleCheckBox()->click();
        EXPECT_TRUE(next.histogram().logScale());
    }
    PanelUnderTest again;
    EXPECT_TRUE(again.histogram().logScale());
}

TEST(IsovaluePanel, BundledSampleLooksRight)
{
    const Volume volume = isoview::test::loadBundledSample();
    IsovaluePanel panel;
    panel.resize(380, 220);
    const ValueRange range = volume.storedRange();
    panel.setVolumeContext(computeHistogram(volume), range, "", true);
    panel.setIsovalue(40.0);
    panel.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&panel));
    EXPECT_EQ(panel.sliderSteps(), int(2.0 * (range.max - range.min)));
    EXPECT_DOUBLE_EQ(panel.spinBox()->value(), 40.0);
    panel.logScaleCheckBox()->setChecked(false);
    saveScreenshot(panel, "isovalue_panel_mr_linear");
    panel.logScaleCheckBox()->setChecked(true);
    saveScreenshot(panel, "isovalue_panel_mr_log");
    panel.setPalette(darkPalette());
    saveScreenshot(panel, "isovalue_panel_mr_log_dark");
}

} // namespace
} // namespace isoview::app
