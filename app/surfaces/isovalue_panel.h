// The isovalue panel: the volume's histogram (click or drag on it to pick a value), a slider
// over the volume's real range and a spin box in real units, kept in sync. The histogram starts
// in log scale (a scan's background peak dwarfs the tissue in a linear one); the log box's
// state is remembered in QSettings (isovalue/logScale). GUI thread only.
//
// Signals: isovalueChanged is emitted once for every change, whatever made it (each slider
// step, each committed spin box value, each histogram pick, setIsovalue with a new value), and
// never by the panel updating one of its own views from another. The panel does not throttle:
// the 3D view coalesces the values per frame.
//
// Values: the slider has one position per half unit for integer-valued volumes whose range
// spans fewer than kMaxUnitSteps half units, else kFineSteps positions. Integer data takes
// values between its stored ones (one decimal, arrows step by 0.5): a whole-number isovalue
// puts vertices on the voxels holding it. Values the user makes (slider, histogram, spin box)
// are rounded to the spin box's decimals, so what it shows is what is used; setIsovalue keeps
// the value it is given (clamped to the range), so a value from the command line or settings
// is not altered.
//
// Example:
//   panel->setVolumeContext(doc.histogram, doc.realRange, doc.units(), doc.integerValued);
//   panel->setIsovalue(doc.suggestedIsovalue);
//   connect(panel, &IsovaluePanel::isovalueChanged, view, &ViewportWidget::setIsovalue);
#pragma once

#include "volume/histogram.h"
#include "volume/volume.h"

#include <QString>
#include <QWidget>

class QCheckBox;
class QDoubleSpinBox;
class QSlider;

namespace isoview::app {

class HistogramView;

class IsovaluePanel : public QWidget {
    Q_OBJECT
public:
    static constexpr int kMaxUnitSteps = 100000;
    static constexpr int kFineSteps = 10000;

    explicit IsovaluePanel(QWidget* parent = nullptr);

    // Sets up the views for a new volume (units: the spin box suffix, "HU"; empty for none).
    // The current isovalue is clamped into realRange without emitting isovalueChanged: the
    // caller sets the volume's starting value next. Enables the slider and spin box.
    void setVolumeContext(const Histogram& histogram, ValueRange realRange, const QString& units,
                          bool integerValued);

    double isovalue() const { return m_value; }
    ValueRange range() const { return m_range; }

    // The slider's mapping: positions 0..sliderSteps() over the real range.
    int sliderSteps() const { return m_steps; }
    double sliderPositionToValue(int position) const;
    int valueToSliderPosition(double real) const;

    HistogramView* histogramView() const { return m_histogram; }
    QSlider* slider() const { return m_slider; }
    QDoubleSpinBox* spinBox() const { return m_spinBox; }
    QCheckBox* logScaleCheckBox() const { return m_logScale; }

public slots:
    // Clamps to the range (once a volume context is set), updates the three views and emits
    // isovalueChanged if the value changed. A non-finite value is ignored.
    void setIsovalue(double real);

signals:
    void isovalueChanged(double real);

private:
    void onSliderMoved(int position);
    void onSpinBoxChanged(double value);
    void onHistogramPicked(double real);
    // Stores the value, shows it in every view (without their signals) and emits.
    void commit(double real);
    double clampToRange(double real) const;
    double roundToDecimals(double real) const;

    HistogramView* m_histogram = nullptr;
    QSlider* m_slider = nullptr;
    QDoubleSpinBox* m_spinBox = nullptr;
    QCheckBox* m_logScale = nullptr;

    bool m_hasContext = false;
    ValueRange m_range{0.0, 0.0};
    int m_steps = 0;
    bool m_halfSteps = false; // one slider position per half unit (integer data)
    double m_value = 0.0;
};

} // namespace isoview::app
