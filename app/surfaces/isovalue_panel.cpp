#include "surfaces/isovalue_panel.h"

#include "surfaces/histogram_view.h"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSettings>
#include <QSignalBlocker>
#include <QSlider>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

namespace isoview::app {

IsovaluePanel::IsovaluePanel(QWidget* parent) : QWidget(parent)
{
    setObjectName("isovaluePanel");

    m_histogram = new HistogramView(this);

    m_slider = new QSlider(Qt::Horizontal, this);
    m_slider->setObjectName("isovalueSlider");
    m_slider->setRange(0, 0);
    m_slider->setToolTip(tr("Isovalue"));

    m_spinBox = new QDoubleSpinBox(this);
    m_spinBox->setObjectName("isovalueSpinBox");
    // Typing "1500" must not extract surfaces at 1, 15 and 150 on the way: the value counts
    // when it is committed (Enter, focus out); arrows and the wheel still count at once.
    m_spinBox->setKeyboardTracking(false);
    m_spinBox->setAccelerated(true);
    m_spinBox->setRange(0.0, 0.0);
    m_spinBox->setDecimals(0);
    m_spinBox->setMinimumWidth(110);
    m_spinBox->setToolTip(tr("Isovalue in the volume's units"));

    m_logScale = new QCheckBox(tr("log"), this);
    m_logScale->setObjectName("logScaleCheckBox");
    m_logScale->setToolTip(tr("Logarithmic histogram scale"));
    m_logScale->setChecked(QSettings().value("isovalue/logScale", true).toBool());
    m_histogram->setLogScale(m_logScale->isChecked());

    auto* label = new QLabel(tr("Isovalue"), this);
    label->setBuddy(m_spinBox);

    auto* row = new QHBoxLayout;
    row->addWidget(label);
    row->addWidget(m_spinBox);
    row->addStretch(1);
    row->addWidget(m_logScale);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->setSpacing(4);
    layout->addWidget(m_histogram, 1);
    layout->addWidget(m_slider);
    layout->addLayout(row);

    m_slider->setEnabled(false);
    m_spinBox->setEnabled(false);

    connect(m_slider, &QSlider::valueChanged, this, &IsovaluePanel::onSliderMoved);
    connect(m_spinBox, &QDoubleSpinBox::valueChanged, this, &IsovaluePanel::onSpinBoxChanged);
    connect(m_histogram, &HistogramView::valuePicked, this, &IsovaluePanel::onHistogramPicked);
    connect(m_logScale, &QCheckBox::toggled, m_histogram, &HistogramView::setLogScale);
    connect(m_logScale, &QCheckBox::toggled, this,
            [](bool on) { QSettings().setValue("isovalue/logScale", on); });
}

void IsovaluePanel::setVolumeContext(const Histogram& histogram, ValueRange realRange,
                                     const QString& units, bool integerValued)
{
    m_hasContext = true;
    m_range = {std::min(realRange.min, realRange.max), std::max(realRange.min, realRange.max)};
    const double span = m_range.max - m_range.min;
    m_halfSteps = integerValued && 2.0 * span < double(kMaxUnitSteps);
    m_steps = span <= 0.0 ? 0 : m_halfSteps ? int(std::ceil(2.0 * span)) : kFineSteps;

    // Enough decimals that neighbouring slider positions show different values; one for
    // integer data, whose useful values lie between the stored ones.
    int decimals = integerValued ? 1 : 0;
    double singleStep = integerValued ? 0.5 : 1.0;
    if (m_steps > 0 && !m_halfSteps) {
        const double step = span / double(m_steps);
        if (!integerValued)
            decimals = std::clamp(int(std::floor(-std::log10(step) + 1e-9)) + 1, 0, 10);
        singleStep = std::max(std::pow(10.0, -decimals), step);
        if (integerValued) singleStep = std::max(1.0, std::round(singleStep));
    }

    m_histogram->setHistogram(histogram);
    m_histogram->setUnits(units);
    {
        const QSignalBlocker blockSlider(m_slider);
        const QSignalBlocker blockSpinBox(m_spinBox);
        m_slider->setRange(0, m_steps);
        m_slider->setSingleStep(1);
        m_slider->setPageStep(std::max(1, m_steps / 50));
        m_spinBox->setDecimals(decimals);
        m_spinBox->setRange(m_range.min, m_range.max);
        m_spinBox->setSingleStep(singleStep);
        m_spinBox->setSuffix(units.isEmpty() ? QString() : " " + units);
    }
    m_slider->setEnabled(true);
    m_spinBox->setEnabled(true);

    // Quietly: the caller sets the new volume's value next, and that one is announced.
    m_value = clampToRange(m_value);
    const QSignalBlocker blockSlider(m_slider);
    const QSignalBlocker blockSpinBox(m_spinBox);
    m_slider->setValue(valueToSliderPosition(m_value));
    m_spinBox->setValue(m_value);
    m_histogram->setMarker(m_value);
}

double IsovaluePanel::sliderPositionToValue(int position) const
{
    if (m_steps <= 0) return m_range.min;
    const int p = std::clamp(position, 0, m_steps);
    if (m_halfSteps) return std::min(m_range.min + 0.5 * double(p), m_range.max);
    if (p == m_steps) return m_range.max; // exact, whatever the rounding of the steps
    return m_range.min + (m_range.max - m_range.min) * double(p) / double(m_steps);
}

int IsovaluePanel::valueToSliderPosition(double real) const
{
    if (m_steps <= 0) return 0;
    const double t = m_halfSteps
                         ? 2.0 * (real - m_range.min)
                         : (real - m_range.min) / (m_range.max - m_range.min) * double(m_steps);
    return std::clamp(int(std::lround(t)), 0, m_steps);
}

double IsovaluePanel::clampToRange(double real) const
{
    if (!m_hasContext) return real;
    return std::clamp(real, m_range.min, m_range.max);
}

double IsovaluePanel::roundToDecimals(double real) const
{
    const double scale = std::pow(10.0, m_spinBox->decimals());
    return clampToRange(std::round(real * scale) / scale);
}

void IsovaluePanel::setIsovalue(double real)
{
    if (!std::isfinite(real)) return;
    commit(clampToRange(real));
}

void IsovaluePanel::onSliderMoved(int position)
{
    commit(roundToDecimals(sliderPositionToValue(position)));
}

void IsovaluePanel::onSpinBoxChanged(double value)
{
    commit(clampToRange(value));
}

void IsovaluePanel::onHistogramPicked(double real)
{
    commit(roundToDecimals(real));
}

void IsovaluePanel::commit(double real)
{
    if (real == m_value) return;
    m_value = real;
    {
        // Each view shows the value; none of them may answer with a signal of its own.
        const QSignalBlocker blockSlider(m_slider);
        const QSignalBlocker blockSpinBox(m_spinBox);
        m_slider->setValue(valueToSliderPosition(real));
        m_spinBox->setValue(real);
        m_histogram->setMarker(real);
    }
    emit isovalueChanged(real);
}

} // namespace isoview::app
