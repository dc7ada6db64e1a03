#include "surfaces/histogram_view.h"

#include <QEvent>
#include <QLinearGradient>
#include <QLocale>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <algorithm>
#include <cmath>

namespace isoview::app {
namespace {

constexpr double kFramePadding = 1.0; // keeps the frame line inside the widget
// Amber: reads on dark and light palettes alike.
QColor markerColor()
{
    return {255, 166, 0};
}

// Few enough decimals to label the axis ends without noise: none for ranges of hundreds of
// units and more, more for narrow float ranges.
QString axisLabel(double value, double range)
{
    const int decimals = range > 0.0 ? std::clamp(2 - int(std::floor(std::log10(range))), 0, 6) : 2;
    return QString::number(value, 'f', decimals);
}

} // namespace

HistogramView::HistogramView(QWidget* parent) : QWidget(parent)
{
    setObjectName("histogramView");
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    setCursor(Qt::CrossCursor);
    setMouseTracking(true); // the readout follows the pointer without a button held
    setToolTip(tr("Click or drag to pick the isovalue"));
}

void HistogramView::setUnits(const QString& units)
{
    m_units = units;
    update();
}

QString HistogramView::readoutAt(double x) const
{
    if (!hasHistogram()) return {};
    const double value = xToValue(x);
    const std::size_t bins = m_histogram.counts.size();
    const double t = (value - m_histogram.min) / m_histogram.binWidth();
    const std::size_t bin = std::min(bins - 1, std::size_t(std::max(0.0, std::floor(t))));
    const double range = m_histogram.max - m_histogram.min;
    const QString shown = axisLabel(value, range) + (m_units.isEmpty() ? "" : " " + m_units);
    return tr("%1: %2 voxels").arg(shown, QLocale().toString(qulonglong(m_histogram.counts[bin])));
}

QString HistogramView::hoverReadout() const
{
    return m_hoverX ? readoutAt(*m_hoverX) : QString();
}

void HistogramView::setHistogram(const Histogram& histogram)
{
    m_histogram = histogram;
    m_plot = QPixmap();
    update();
}

bool HistogramView::hasHistogram() const
{
    return !m_histogram.counts.empty() && m_histogram.max > m_histogram.min;
}

void HistogramView::setLogScale(bool log)
{
    if (m_logScale == log) return;
    m_logScale = log;
    m_plot = QPixmap();
    update();
}

void HistogramView::setMarker(double real)
{
    if (m_marker == real) return;
    m_marker = real;
    update();
}

void HistogramView::clearMarker()
{
    if (!m_marker) return;
    m_marker.reset();
    update();
}

QRectF HistogramView::plotRect() const
{
    const double labelHeight = fontMetrics().height() + 2.0;
    return QRectF(kFramePadding, kFramePadding, std::max(1.0, width() - 2.0 * kFramePadding),
                  std::max(1.0, height() - 2.0 * kFramePadding - labelHeight));
}

double HistogramView::rangeMin() const
{
    return hasHistogram() ? m_histogram.min : 0.0;
}

double HistogramView::rangeMax() const
{
    return hasHistogram() ? m_histogram.max : 1.0;
}

double HistogramView::valueToX(double real) const
{
    const QRectF plot = plotRect();
    return plot.left() + (real - rangeMin()) / (rangeMax() - rangeMin()) * plot.width();
}

double HistogramView::xToValue(double x) const
{
    const QRectF plot = plotRect();
    const double t = std::clamp((x - plot.left()) / plot.width(), 0.0, 1.0);
    return std::clamp(rangeMin() + t * (rangeMax() - rangeMin()), rangeMin(), rangeMax());
}

// top: the scale's top, computed once per picture (both tops scan every bin): log1p of the
// largest count on the log scale, else displayMaxCount().
double HistogramView::barFraction(std::uint64_t count, double top) const
{
    if (count == 0 || !(top > 0.0)) return 0.0;
    if (m_logScale) return std::log1p(double(count)) / top;
    return std::min(1.0, double(count) / top);
}

QSize HistogramView::sizeHint() const
{
    return {320, 120};
}

QSize HistogramView::minimumSizeHint() const
{
    return {160, 60 + fontMetrics().height()};
}

// The cached plot's colours come from the palette's current group, which follows the enabled
// and the active state as well as the palette itself.
void HistogramView::changeEvent(QEvent* event)
{
    const QEvent::Type type = event->type();
    if (type == QEvent::PaletteChange || type == QEvent::FontChange ||
        type == QEvent::StyleChange || type == QEvent::EnabledChange ||
        type == QEvent::ActivationChange)
        m_plot = QPixmap();
    QWidget::changeEvent(event);
}

void HistogramView::paintPlot(QPainter& painter) const
{
    painter.setRenderHint(QPainter::Antialiasing);
    const QPalette& pal = palette();
    const QRectF plot = plotRect();
    painter.fillRect(plot, pal.color(QPalette::Base));

    QColor textColor = pal.color(QPalette::WindowText);
    if (!hasHistogram()) {
        textColor.setAlphaF(0.6f);
        painter.setPen(textColor);
        painter.drawText(plot, Qt::AlignCenter, tr("No volume"));
        return;
    }
    // One closed step outline over all bins, so neighbouring bars share their edges.
    const std::size_t bins = m_histogram.counts.size();
    const double binWidth = m_histogram.binWidth();
    const std::uint64_t linearTop = m_histogram.displayMaxCount();
    const double scaleTop =
        m_logScale ? std::log1p(double(m_histogram.maxCount())) : double(linearTop);
    QPainterPath bars;
    bars.moveTo(plot.left(), plot.bottom());
    QPainterPath clipped; // bins taller than the linear scale: a cap says so
    for (std::size_t i = 0; i < bins; ++i) {
        const std::uint64_t count = m_histogram.counts[i];
        const double x0 = valueToX(m_histogram.min + double(i) * binWidth);
        const double x1 = valueToX(m_histogram.min + double(i + 1) * binWidth);
        const double y = plot.bottom() - barFraction(count, scaleTop) * plot.height();
        bars.lineTo(x0, y);
        bars.lineTo(x1, y);
        if (!m_logScale && count > linearTop) {
            clipped.addRect(QRectF(x0, plot.top(), std::max(1.0, x1 - x0), 3.0));
        }
    }
    bars.lineTo(plot.right(), plot.bottom());
    bars.closeSubpath();

    const QColor accent = pal.color(QPalette::Highlight);
    QLinearGradient fill(plot.topLeft(), plot.bottomLeft());
    QColor top = accent;
    top.setAlphaF(0.9f);
    QColor bottom = accent;
    bottom.setAlphaF(0.45f);
    fill.setColorAt(0.0, top);
    fill.setColorAt(1.0, bottom);
    painter.save();
    painter.setClipRect(plot);
    painter.setPen(QPen(accent.lighter(130), 1.0));
    painter.setBrush(fill);
    painter.drawPath(bars);
    painter.fillPath(clipped, pal.color(QPalette::HighlightedText));
    painter.restore();

    // The value range below the plot.
    textColor.setAlphaF(0.75f);
    painter.setPen(textColor);
    const QRectF labels(plot.left() + 2.0, plot.bottom() + 1.0, plot.width() - 4.0,
                        height() - plot.bottom() - 1.0);
    const double range = m_histogram.max - m_histogram.min;
    painter.drawText(labels, Qt::AlignLeft | Qt::AlignVCenter, axisLabel(m_histogram.min, range));
    painter.drawText(labels, Qt::AlignRight | Qt::AlignVCenter, axisLabel(m_histogram.max, range));
    if (m_logScale) painter.drawText(labels, Qt::AlignHCenter | Qt::AlignVCenter, tr("log"));
}

void HistogramView::paintEvent(QPaintEvent*)
{
    const qreal dpr = devicePixelRatioF();
    const QSize pixels = (QSizeF(size()) * dpr).toSize();
    if (m_plot.isNull() || m_plot.size() != pixels || m_plot.devicePixelRatio() != dpr) {
        m_plot = QPixmap(pixels);
        m_plot.setDevicePixelRatio(dpr);
        m_plot.fill(Qt::transparent);
        QPainter plotPainter(&m_plot);
        plotPainter.setFont(font());
        paintPlot(plotPainter);
    }
    QPainter painter(this);
    painter.drawPixmap(0, 0, m_plot);
    painter.setRenderHint(QPainter::Antialiasing);
    const QPalette& pal = palette();
    const QRectF plot = plotRect();

    const QString readout = hoverReadout();
    if (!readout.isEmpty()) { // empty without a histogram
        const QRect textBox = fontMetrics().boundingRect(readout);
        const QRectF box = QRectF(textBox)
                               .translated(-textBox.topLeft())
                               .translated(plot.left() + 3.0, plot.top() + 3.0)
                               .adjusted(-2.0, -1.0, 2.0, 1.0);
        QColor back = pal.color(QPalette::Base);
        back.setAlphaF(0.8f);
        painter.fillRect(box, back);
        painter.setPen(pal.color(QPalette::WindowText));
        painter.drawText(box, Qt::AlignCenter, readout);
    }

    if (hasHistogram() && m_marker && *m_marker >= m_histogram.min &&
        *m_marker <= m_histogram.max) {
        // On a pixel edge and two pixels wide: crisp, whatever the fraction of x.
        const double x = std::round(valueToX(*m_marker));
        painter.setPen(QPen(markerColor(), 2.0));
        painter.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
        // A small notch at the top, so the marker is found even over a tall bar.
        QPainterPath notch;
        notch.moveTo(x - 4.0, plot.top());
        notch.lineTo(x + 4.0, plot.top());
        notch.lineTo(x, plot.top() + 5.0);
        notch.closeSubpath();
        painter.fillPath(notch, markerColor());
    }

    painter.setRenderHint(QPainter::Antialiasing, false);
    painter.setPen(pal.color(QPalette::Mid));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(plot.adjusted(-0.5, -0.5, 0.5, 0.5));
}

void HistogramView::pick(double x)
{
    if (!hasHistogram()) return;
    emit valuePicked(xToValue(x));
}

void HistogramView::mousePressEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton) {
        QWidget::mousePressEvent(event);
        return;
    }
    m_dragging = true;
    pick(event->position().x());
    event->accept();
}

void HistogramView::mouseMoveEvent(QMouseEvent* event)
{
    m_hoverX = event->position().x();
    setToolTip(hoverReadout());
    update();
    if (!m_dragging || !(event->buttons() & Qt::LeftButton)) {
        QWidget::mouseMoveEvent(event);
        return;
    }
    pick(event->position().x());
    event->accept();
}

void HistogramView::leaveEvent(QEvent* event)
{
    m_hoverX.reset();
    update();
    QWidget::leaveEvent(event);
}

void HistogramView::mouseReleaseEvent(QMouseEvent* event)
{
    if (event->button() == Qt::LeftButton) m_dragging = false;
    QWidget::mouseReleaseEvent(event);
}

} // namespace isoview::app
