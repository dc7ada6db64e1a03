#include "transfer_function/transfer_function_editor.h"

#include <QColorDialog>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QLinearGradient>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>
#include <QUndoStack>
#include <algorithm>
#include <cmath>
#include <limits>

namespace isoview::app {
namespace {

// Room around the plot for the circles of points at its edges.
constexpr double kMargin = TransferFunctionEditor::kPointRadius + 3.0;

QColor toQColor(glm::vec3 c, float alpha = 1.0f)
{
    return QColor::fromRgbF(c.r, c.g, c.b, alpha);
}

glm::vec3 fromQColor(const QColor& c)
{
    const QColor rgb = c.toRgb();
    return {float(rgb.redF()), float(rgb.greenF()), float(rgb.blueF())};
}

// Decimals for a value over a range: none for ranges of hundreds of units and more.
int decimalsFor(double range)
{
    return range > 0.0 ? std::clamp(2 - int(std::floor(std::log10(range))), 0, 6) : 2;
}

// Perceived brightness, to pick an outline that stands out from a point's fill.
bool isLight(const QColor& c)
{
    return 0.299 * c.redF() + 0.587 * c.greenF() + 0.114 * c.blueF() > 0.6;
}

} // namespace

TransferFunctionEditor::TransferFunctionEditor(QWidget* parent, QUndoStack* history)
    : QWidget(parent), m_undoStack(history ? history : new QUndoStack(this))
{
    setObjectName("transferFunctionEditor");
    setFocusPolicy(Qt::StrongFocus); // click to focus, so Delete reaches the editor
    setMouseTracking(true);          // hover cursor over points
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    setCursor(Qt::CrossCursor);
    m_colorPicker = [this](const QColor& current) -> std::optional<QColor> {
        const QColor chosen = QColorDialog::getColor(current, this, tr("Point colour"));
        if (!chosen.isValid()) return std::nullopt;
        return chosen;
    };
}

void TransferFunctionEditor::setTransferFunction(const TransferFunction& tf)
{
    endDrag();
    m_undoStack->clear();
    const bool hadSelection = m_selected.has_value();
    m_selected.reset();
    const bool changed = !(tf == m_tf);
    m_tf = tf;
    if (m_histogram.counts.empty() || !(m_histogram.max > m_histogram.min)) {
        // No histogram: span the points, with a margin so the end points are not on the edge.
        if (m_tf.size() >= 2 && m_tf.points().back().value > m_tf.points().front().value) {
            const double lo = m_tf.points().front().value;
            const double hi = m_tf.points().back().value;
            const double pad = 0.05 * (hi - lo);
            m_range = {lo - pad, hi + pad};
        } else if (m_tf.size() >= 1) {
            const double v = m_tf.points().front().value;
            m_range = {v - 0.5, v + 0.5};
        } else {
            m_range = {0.0, 1.0};
        }
    }
    update();
    if (hadSelection) emit selectionChanged();
    if (changed) emit transferFunctionChanged();
}

bool TransferFunctionEditor::replaceTransferFunction(const TransferFunction& tf,
                                                     const QString& text)
{
    if (tf == m_tf) return false;
    endDrag();
    m_undoStack->push(new ReplaceTransferFunctionCommand(*this, tf, text));
    return true;
}

void TransferFunctionEditor::setHistogram(const Histogram& histogram)
{
    m_histogram = histogram;
    if (!m_histogram.counts.empty() && m_histogram.max > m_histogram.min)
        m_range = {m_histogram.min, m_histogram.max};
    update();
}

void TransferFunctionEditor::setUnits(const QString& units)
{
    m_units = units;
}

void TransferFunctionEditor::setColorPicker(ColorPicker picker)
{
    m_colorPicker = std::move(picker);
}

void TransferFunctionEditor::setSelectedPoint(std::optional<std::size_t> index)
{
    if (index && *index >= m_tf.size()) index.reset();
    if (index == m_selected) return;
    m_selected = index;
    update();
    emit selectionChanged();
}

bool TransferFunctionEditor::deleteSelectedPoint()
{
    if (!m_selected) return false;
    endDrag();
    m_undoStack->push(new RemovePointCommand(*this, *m_selected));
    return true;
}

void TransferFunctionEditor::applyTransferFunction(const TransferFunction& tf,
                                                   std::optional<std::size_t> selected)
{
    if (selected && *selected >= tf.size()) selected.reset();
    const bool selectionMoved = selected != m_selected;
    const bool changed = !(tf == m_tf);
    m_tf = tf;
    m_selected = selected;
    update();
    if (selectionMoved) emit selectionChanged();
    if (changed) emit transferFunctionChanged();
}

// ---- mapping --------------------------------------------------------------------------------

QRectF TransferFunctionEditor::plotRect() const
{
    const double labelHeight = fontMetrics().height();
    return QRectF(kMargin, kMargin, std::max(1.0, width() - 2.0 * kMargin),
                  std::max(1.0, height() - 2.0 * kMargin - labelHeight));
}

QPointF TransferFunctionEditor::toPixel(double value, double opacity) const
{
    const QRectF plot = plotRect();
    const double t = (value - m_range.min) / (m_range.max - m_range.min);
    return {plot.left() + t * plot.width(), plot.bottom() - opacity * plot.height()};
}

double TransferFunctionEditor::xToValue(double x) const
{
    const QRectF plot = plotRect();
    const double t = std::clamp((x - plot.left()) / plot.width(), 0.0, 1.0);
    return std::clamp(m_range.min + t * (m_range.max - m_range.min), m_range.min, m_range.max);
}

float TransferFunctionEditor::yToOpacity(double y) const
{
    const QRectF plot = plotRect();
    return float(std::clamp((plot.bottom() - y) / plot.height(), 0.0, 1.0));
}

QPointF TransferFunctionEditor::pointPosition(std::size_t index) const
{
    const TransferPoint& p = m_tf.points().at(index);
    return toPixel(p.value, p.opacity);
}

bool TransferFunctionEditor::inRange(double value) const
{
    return value >= m_range.min && value <= m_range.max;
}

std::optional<std::size_t> TransferFunctionEditor::pointAt(QPointF pos) const
{
    std::optional<std::size_t> best;
    double bestDistance = kHitRadius;
    for (std::size_t i = 0; i < m_tf.size(); ++i) {
        if (!inRange(m_tf.points()[i].value)) continue;
        const QPointF d = pointPosition(i) - pos;
        const double distance = std::hypot(d.x(), d.y());
        // The selected point wins ties, so a point dropped on another can be picked up again.
        const bool better =
            distance < bestDistance || (distance <= bestDistance && best && m_selected == i);
        if (better) {
            best = i;
            bestDistance = distance;
        }
    }
    return best;
}

QString TransferFunctionEditor::describePoint(std::size_t index) const
{
    const TransferPoint& p = m_tf.points().at(index);
    const QString value = QString::number(p.value, 'f', decimalsFor(m_range.max - m_range.min));
    return tr("value %1%2\nopacity %3")
        .arg(value, m_units.isEmpty() ? QString() : " " + m_units)
        .arg(double(p.opacity), 0, 'f', 3);
}

QSize TransferFunctionEditor::sizeHint() const
{
    return {360, 200};
}

QSize TransferFunctionEditor::minimumSizeHint() const
{
    return {200, 120};
}

// ---- editing --------------------------------------------------------------------------------

void TransferFunctionEditor::startDrag(std::size_t index, QPointF pressPos)
{
    m_dragging = true;
    ++m_dragId;
    m_grabOffset = pressPos - pointPosition(index);
}

void TransferFunctionEditor::endDrag()
{
    m_dragging = false;
    m_grabOffset = {};
}

void TransferFunctionEditor::pickColor(std::size_t index)
{
    if (!m_colorPicker) return;
    const QColor current = toQColor(m_tf.points().at(index).color);
    const std::optional<QColor> chosen = m_colorPicker(current);
    // The picker may run a modal loop: the function can have changed meanwhile.
    if (!chosen || !chosen->isValid() || index >= m_tf.size()) return;
    const glm::vec3 color = fromQColor(*chosen);
    if (color == m_tf.points()[index].color) return;
    m_undoStack->push(new SetPointColorCommand(*this, index, color));
}

void TransferFunctionEditor::mousePressEvent(QMouseEvent* event)
{
    const QPointF pos = event->position();
    const std::optional<std::size_t> hit = pointAt(pos);
    if (event->button() == Qt::RightButton) {
        endDrag();
        if (hit) {
            setSelectedPoint(hit);
            m_undoStack->push(new RemovePointCommand(*this, *hit));
        }
        event->accept();
        return;
    }
    if (event->button() != Qt::LeftButton) {
        QWidget::mousePressEvent(event);
        return;
    }
    if (hit) {
        setSelectedPoint(hit);
        startDrag(*hit, pos);
    } else {
        const double value = xToValue(pos.x());
        const glm::vec3 color = m_tf.size() > 0 ? glm::vec3(m_tf.evaluate(value)) : glm::vec3(1.0f);
        auto* add = new AddPointCommand(*this, {value, color, yToOpacity(pos.y())});
        const std::size_t index = add->index();
        m_undoStack->push(add);
        // The same press drags the new point on; that is a move of its own in the history.
        startDrag(index, pointPosition(index));
    }
    event->accept();
}

void TransferFunctionEditor::mouseMoveEvent(QMouseEvent* event)
{
    const QPointF pos = event->position();
    if (!m_dragging || !(event->buttons() & Qt::LeftButton) || !m_selected) {
        if (m_dragging && !(event->buttons() & Qt::LeftButton)) endDrag();
        setCursor(pointAt(pos) ? Qt::PointingHandCursor : Qt::CrossCursor);
        QWidget::mouseMoveEvent(event);
        return;
    }
    const QPointF target = pos - m_grabOffset;
    const double value = xToValue(target.x());
    const float opacity = yToOpacity(target.y());
    const TransferPoint& p = m_tf.points()[*m_selected];
    if (value != p.value || opacity != p.opacity) {
        m_undoStack->push(new MovePointCommand(*this, *m_selected, value, opacity, m_dragId));
    }
    if (m_selected) {
        QToolTip::showText(event->globalPosition().toPoint(), describePoint(*m_selected), this);
    }
    event->accept();
}

void TransferFunctionEditor::mouseReleaseEvent(QMouseEvent* event)
{
    if (event->button() == Qt::LeftButton) endDrag();
    QWidget::mouseReleaseEvent(event);
}

void TransferFunctionEditor::mouseDoubleClickEvent(QMouseEvent* event)
{
    const std::optional<std::size_t> hit = pointAt(event->position());
    if (event->button() == Qt::LeftButton && hit) {
        endDrag();
        setSelectedPoint(hit);
        pickColor(*hit);
        event->accept();
        return;
    }
    mousePressEvent(event); // a fast second click elsewhere is a click
}

void TransferFunctionEditor::keyPressEvent(QKeyEvent* event)
{
    switch (event->key()) {
    case Qt::Key_Delete:
    case Qt::Key_Backspace:
        if (deleteSelectedPoint()) {
            event->accept();
            return;
        }
        break;
    case Qt::Key_Escape:
        if (m_selected) {
            setSelectedPoint(std::nullopt);
            event->accept();
            return;
        }
        break;
    default: break;
    }
    QWidget::keyPressEvent(event);
}

bool TransferFunctionEditor::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        if (const auto hit = pointAt(help->pos())) {
            const QPointF c = pointPosition(*hit);
            const QRect area(int(c.x() - kHitRadius), int(c.y() - kHitRadius), int(2 * kHitRadius),
                             int(2 * kHitRadius));
            QToolTip::showText(help->globalPos(), describePoint(*hit), this, area);
        } else {
            QToolTip::hideText();
            event->ignore();
        }
        return true;
    }
    return QWidget::event(event);
}

// ---- painting -------------------------------------------------------------------------------

void TransferFunctionEditor::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    const QRectF plot = plotRect();

    painter.fillRect(plot, palette().color(QPalette::Base));
    // The histogram faintly behind the curve (paintCurve outlines it again over the colours).
    const QPainterPath histogram = histogramOutline();
    QColor histogramColor = palette().color(QPalette::WindowText);
    painter.save();
    painter.setClipRect(plot);
    histogramColor.setAlphaF(0.13f);
    painter.fillPath(histogram, histogramColor);
    painter.restore();

    // Faint guides at quarter opacities.
    QColor guide = palette().color(QPalette::WindowText);
    guide.setAlphaF(0.12f);
    painter.setPen(QPen(guide, 1.0, Qt::DashLine));
    for (double f : {0.25, 0.5, 0.75}) {
        const double y = plot.bottom() - f * plot.height();
        painter.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y));
    }

    paintCurve(painter, plot, histogram);
    paintAxis(painter, plot);
    paintPoints(painter);

    if (hasFocus()) {
        painter.setRenderHint(QPainter::Antialiasing, false);
        painter.setPen(palette().color(QPalette::Highlight));
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(plot.adjusted(-0.5, -0.5, 0.5, 0.5));
    }
}

QPainterPath TransferFunctionEditor::histogramOutline() const
{
    QPainterPath bars;
    if (m_histogram.counts.empty() || !(m_histogram.max > m_histogram.min)) return bars;
    const double top = std::log1p(double(m_histogram.maxCount()));
    if (!(top > 0.0)) return bars;
    bars.moveTo(toPixel(m_histogram.min, 0.0));
    const double binWidth = m_histogram.binWidth();
    for (std::size_t i = 0; i < m_histogram.counts.size(); ++i) {
        const double f = std::log1p(double(m_histogram.counts[i])) / top;
        bars.lineTo(toPixel(m_histogram.min + double(i) * binWidth, f));
        bars.lineTo(toPixel(m_histogram.min + double(i + 1) * binWidth, f));
    }
    bars.lineTo(toPixel(m_histogram.max, 0.0));
    bars.closeSubpath();
    return bars;
}

void TransferFunctionEditor::paintCurve(QPainter& painter, const QRectF& plot,
                                        const QPainterPath& histogram) const
{
    const auto& points = m_tf.points();
    if (points.empty()) {
        QColor hint = palette().color(QPalette::WindowText);
        hint.setAlphaF(0.6f);
        painter.setPen(hint);
        painter.drawText(plot, Qt::AlignCenter, tr("Click to add a point"));
        return;
    }

    // The curve holds the end points' opacity beyond them, out to the canvas edges.
    QPolygonF curve;
    const QPointF first = pointPosition(0);
    const QPointF last = pointPosition(points.size() - 1);
    curve << QPointF(std::min(plot.left(), first.x()), first.y());
    for (std::size_t i = 0; i < points.size(); ++i)
        curve << pointPosition(i);
    curve << QPointF(std::max(plot.right(), last.x()), last.y());

    // Colours along x: the function's colour at the canvas ends and at every point inside.
    // Steps (points of equal value) get stops a hair apart: a gradient keeps one stop per
    // position.
    QLinearGradient gradient(plot.left(), 0.0, plot.right(), 0.0);
    QGradientStops stops;
    auto addStop = [&stops](double t, const QColor& c) {
        if (!stops.isEmpty() && t <= stops.back().first) t = stops.back().first + 1e-6;
        if (t <= 1.0) stops.append({t, c});
    };
    constexpr float kFillAlpha = 0.85f;
    addStop(0.0, toQColor(glm::vec3(m_tf.evaluate(m_range.min)), kFillAlpha));
    for (const TransferPoint& p : points) {
        if (p.value > m_range.min && p.value < m_range.max) {
            const double t = (p.value - m_range.min) / (m_range.max - m_range.min);
            addStop(t, toQColor(p.color, kFillAlpha));
        }
    }
    if (stops.back().first < 1.0)
        stops.append({1.0, toQColor(glm::vec3(m_tf.evaluate(m_range.max)), kFillAlpha)});
    gradient.setStops(stops);

    QPolygonF area = curve;
    area << QPointF(curve.back().x(), plot.bottom()) << QPointF(curve.front().x(), plot.bottom());

    painter.save();
    painter.setClipRect(plot);
    painter.setPen(Qt::NoPen);
    painter.setBrush(gradient);
    painter.drawPolygon(area);
    // The histogram's outline over the colours, so its shape reads under the filled area too.
    QColor histogramLine = palette().color(QPalette::WindowText);
    histogramLine.setAlphaF(0.3f);
    painter.setPen(QPen(histogramLine, 1.0));
    painter.setBrush(Qt::NoBrush);
    painter.drawPath(histogram);
    painter.setPen(QPen(palette().color(QPalette::WindowText), 1.5, Qt::SolidLine, Qt::RoundCap,
                        Qt::RoundJoin));
    painter.drawPolyline(curve);
    painter.restore();
}

void TransferFunctionEditor::paintPoints(QPainter& painter) const
{
    const QColor outline = palette().color(QPalette::WindowText);
    const QColor highlight = palette().color(QPalette::Highlight);
    const QRectF plot = plotRect();
    for (std::size_t i = 0; i < m_tf.size(); ++i) {
        const TransferPoint& p = m_tf.points()[i];
        const QColor fill = toQColor(p.color);
        const QPointF c = pointPosition(i);
        if (!inRange(p.value)) {
            // An arrow at the edge, pointing to where the point lies.
            const bool left = p.value < m_range.min;
            const double x = left ? plot.left() : plot.right();
            const double y = std::clamp(c.y(), plot.top(), plot.bottom());
            const double d = left ? -1.0 : 1.0;
            QPolygonF arrow;
            arrow << QPointF(x + d * 6.0, y) << QPointF(x - d * 2.0, y - 5.0)
                  << QPointF(x - d * 2.0, y + 5.0);
            painter.setPen(QPen(outline, 1.0));
            painter.setBrush(fill);
            painter.drawPolygon(arrow);
            continue;
        }
        const bool selected = m_selected == i;
        if (selected) {
            QColor halo = highlight;
            halo.setAlphaF(0.35f);
            painter.setPen(Qt::NoPen);
            painter.setBrush(halo);
            painter.drawEllipse(c, kPointRadius + 5.0, kPointRadius + 5.0);
        }
        // The outline contrasts with the fill, so white and black points both read.
        painter.setPen(QPen(selected        ? highlight
                            : isLight(fill) ? QColor(30, 30, 30)
                                            : outline,
                            selected ? 2.5 : 1.5));
        painter.setBrush(fill);
        const double r = selected ? kPointRadius + 1.5 : kPointRadius;
        painter.drawEllipse(c, r, r);
    }
}

void TransferFunctionEditor::paintAxis(QPainter& painter, const QRectF& plot) const
{
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, false);
    painter.setPen(palette().color(QPalette::Mid));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(plot.adjusted(-0.5, -0.5, 0.5, 0.5));

    QColor text = palette().color(QPalette::WindowText);
    text.setAlphaF(0.75f);
    painter.setPen(text);
    // Below the circles of points on the bottom edge.
    const double labelTop = plot.bottom() + kPointRadius + 2.0;
    const QRectF labels(plot.left(), labelTop, plot.width(), height() - labelTop);
    const int decimals = decimalsFor(m_range.max - m_range.min);
    const QString suffix = m_units.isEmpty() ? QString() : " " + m_units;
    painter.drawText(labels, Qt::AlignLeft | Qt::AlignTop,
                     QString::number(m_range.min, 'f', decimals) + suffix);
    painter.drawText(labels, Qt::AlignRight | Qt::AlignTop,
                     QString::number(m_range.max, 'f', decimals) + suffix);
    if (m_selected) {
        const TransferPoint& p = m_tf.points()[*m_selected];
        painter.drawText(labels, Qt::AlignHCenter | Qt::AlignTop,
                         tr("%1%2  ·  opacity %3")
                             .arg(QString::number(p.value, 'f', decimals), suffix)
                             .arg(double(p.opacity), 0, 'f', 2));
    }
    painter.restore();
}

} // namespace isoview::app
