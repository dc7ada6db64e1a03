// The histogram of the volume's values as bars, with a marker line at the isovalue. Pressing or
// dragging the mouse over it picks a value; hovering shows the value under the pointer and the
// voxel count of its bin in the plot's corner (and as the tooltip). GUI thread only; painting reads
// only the copy of the histogram held here, so the widget never touches the volume.
//
// Scale: linear mode divides by Histogram::displayMaxCount(), so the background peak (air,
// zero padding) is drawn clipped at the top instead of flattening every other bin; log mode
// divides log(1 + count) by log(1 + maxCount()).
//
// x axis: the histogram's [min, max] in real units across plotRect(); valueToX/xToValue map
// between the two (the editor and the tests use the same mapping the painting does).
//
// Example:
//   auto* view = new HistogramView;
//   view->setHistogram(document->histogram);
//   view->setMarker(isovalue);
//   connect(view, &HistogramView::valuePicked, panel, &IsovaluePanel::setIsovalue);
#pragma once

#include "volume/histogram.h"

#include <QPixmap>
#include <QRectF>
#include <QString>
#include <QWidget>
#include <optional>

namespace isoview::app {

class HistogramView : public QWidget {
    Q_OBJECT
public:
    explicit HistogramView(QWidget* parent = nullptr);

    void setHistogram(const Histogram& histogram);
    const Histogram& histogram() const { return m_histogram; }
    // A histogram with at least one bin and a non-empty [min, max]: something to draw and pick.
    bool hasHistogram() const;

    void setLogScale(bool log);
    bool logScale() const { return m_logScale; }

    // The readout for the pointer at x (widget pixels): "412 HU: 1,234 voxels" (the value
    // there and the count of its bin); empty without a histogram. hoverReadout(): the one
    // shown now, empty while the pointer is outside.
    QString readoutAt(double x) const;
    QString hoverReadout() const;
    // Units shown with the values ("HU"); empty for none.
    void setUnits(const QString& units);

    // The marker line (the isovalue), real units; drawn only inside the histogram's range.
    void setMarker(double real);
    void clearMarker();
    std::optional<double> marker() const { return m_marker; }

    // Where the bars are drawn, in widget pixels (the value labels lie below it).
    QRectF plotRect() const;
    // The x pixel of a real value (not clamped: values outside the range fall outside the
    // plot), and the real value at an x pixel, clamped to [min, max]. Without a histogram
    // the range is [0, 1].
    double valueToX(double real) const;
    double xToValue(double x) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    // The value under the mouse on a left press and while dragging with it held: real units,
    // clamped to the histogram's range. Never emitted without a histogram.
    void valuePicked(double real);

protected:
    void paintEvent(QPaintEvent* event) override;
    void changeEvent(QEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;

private:
    double rangeMin() const;
    double rangeMax() const;
    // Bar height of a bin as a fraction of the plot height, in [0, 1].
    double barFraction(std::uint64_t count, double top) const;
    // The plot without the marker and the readout (background, bars, value labels): drawn once
    // into m_plot and reused while only the marker moves, i.e. on every isovalue change of a
    // drag, when the GUI thread shares the cores with the renderer.
    void paintPlot(QPainter& painter) const;
    void pick(double x);

    Histogram m_histogram;
    bool m_logScale = false;
    bool m_dragging = false;
    std::optional<double> m_marker;
    std::optional<double> m_hoverX; // the pointer, while it is over the widget
    QString m_units;
    QPixmap m_plot; // paintPlot's picture at the widget's size; null: to be drawn again
};

} // namespace isoview::app
