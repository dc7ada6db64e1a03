#include "crop/slice_crop_overlay.h"

#include "crop/crop_panel.h"
#include "scene/crop_box_handles.h"
#include "views/slice_view.h"

#include <QEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <algorithm>
#include <cmath>

namespace isoview::app {
namespace {

const QColor kEdgeColor(255, 199, 51);
const QColor kHoverColor(115, 242, 255);
const QColor kDim(0, 0, 0, 120);

double distanceToSegment(QPointF p, QPointF a, QPointF b)
{
    const QPointF ab = b - a;
    const double length2 = QPointF::dotProduct(ab, ab);
    const double t =
        length2 > 0.0 ? std::clamp(QPointF::dotProduct(p - a, ab) / length2, 0.0, 1.0) : 0.0;
    const QPointF d = p - (a + t * ab);
    return std::hypot(d.x(), d.y());
}

double distanceToPolyline(QPointF p, const std::vector<QPointF>& line)
{
    double best = 1e300;
    for (std::size_t i = 1; i < line.size(); ++i)
        best = std::min(best, distanceToSegment(p, line[i - 1], line[i]));
    return best;
}

// Points from a to b one slice pixel apart (ends included): a stack with measured slice
// positions bends the edges that cross its slices.
std::vector<double> steps(double a, double b)
{
    std::vector<double> out;
    const int n = std::max(1, int(std::ceil(std::abs(b - a))));
    for (int i = 0; i <= n; ++i)
        out.push_back(a + (b - a) * double(i) / double(n));
    return out;
}

} // namespace

SliceCropOverlay::SliceCropOverlay(SliceView* view, CropPanel* panel)
    : QWidget(view), m_view(view), m_panel(panel)
{
    setObjectName(QStringLiteral("sliceCropOverlay"));
    setAttribute(Qt::WA_TransparentForMouseEvents); // the view's filter takes them (below)
    setAttribute(Qt::WA_NoSystemBackground);
    setGeometry(view->rect());
    view->installEventFilter(this);
    connect(panel, &CropPanel::cropChanged, this, qOverload<>(&QWidget::update));
    setVisible(false);
}

void SliceCropOverlay::setActive(bool active)
{
    m_active = active;
    m_hovered.clear();
    m_dragging.clear();
    m_cancelled = false;
    m_view->unsetCursor();
    setVisible(active);
    raise();
    update();
}

std::optional<SliceCropOverlay::Section> SliceCropOverlay::section() const
{
    const VolumeSlice& s = m_view->slice();
    const glm::uvec3 dims = m_panel->volumeDims();
    if (s.width == 0 || dims.x == 0) return std::nullopt;
    const VoxelBox box = m_panel->box();
    const SliceAxes& a = s.axes;
    const auto column = [&](std::uint32_t i) { return a.flipColumns ? s.width - 1.0 - i : i; };
    const auto row = [&](std::uint32_t j) { return a.flipRows ? s.height - 1.0 - j : j; };
    const double xa = column(box.first[a.columnAxis]);
    const double xb = column(box.last[a.columnAxis]);
    const double ya = row(box.first[a.rowAxis]);
    const double yb = row(box.last[a.rowAxis]);
    const std::uint32_t k = s.sliceIndex;
    return Section{std::min(xa, xb), std::max(xa, xb), std::min(ya, yb), std::max(ya, yb),
                   k >= box.first[a.normalAxis] && k <= box.last[a.normalAxis]};
}

std::vector<QPointF> SliceCropOverlay::edgePolyline(const Section& sec, int face) const
{
    const VolumeSlice& s = m_view->slice();
    const int axis = cropFaceAxis(face);
    const VoxelBox box = m_panel->box();
    const std::uint32_t index = cropFaceIsLast(face) ? box.last[axis] : box.first[axis];
    std::vector<QPointF> line;
    if (axis == s.axes.columnAxis) {
        const double x = s.axes.flipColumns ? s.width - 1.0 - index : index;
        for (double y : steps(sec.y0, sec.y1))
            line.push_back(m_view->widgetPointOfPixel({x, y}));
    } else if (axis == s.axes.rowAxis) {
        const double y = s.axes.flipRows ? s.height - 1.0 - index : index;
        for (double x : steps(sec.x0, sec.x1))
            line.push_back(m_view->widgetPointOfPixel({x, y}));
    }
    return line;
}

std::vector<int> SliceCropOverlay::facesAt(QPointF point) const
{
    const auto sec = section();
    if (!m_active || !sec) return {};
    const SliceAxes& a = m_view->slice().axes;
    // The nearest grabbable edge of each in-plane axis.
    std::vector<int> faces;
    for (int axis : {a.columnAxis, a.rowAxis}) {
        int best = -1;
        double bestDistance = kGrabPixels;
        for (int face : {2 * axis, 2 * axis + 1}) {
            const double d = distanceToPolyline(point, edgePolyline(*sec, face));
            if (d <= bestDistance) {
                best = face;
                bestDistance = d;
            }
        }
        if (best >= 0) faces.push_back(best);
    }
    return faces;
}

double SliceCropOverlay::indexAt(int face, QPointF point) const
{
    const VolumeSlice& s = m_view->slice();
    const auto sec = section();
    const int axis = cropFaceAxis(face);
    const bool alongColumns = axis == s.axes.columnAxis;
    const int extent = alongColumns ? s.width : s.height;
    if (!sec || extent < 2) return 0.0;
    // The image axis through the box's middle, in widget points; the mouse projected onto it.
    const double across = alongColumns ? (sec->y0 + sec->y1) / 2.0 : (sec->x0 + sec->x1) / 2.0;
    const QPointF a = alongColumns ? m_view->widgetPointOfPixel({0.0, across})
                                   : m_view->widgetPointOfPixel({across, 0.0});
    const QPointF b = alongColumns ? m_view->widgetPointOfPixel({extent - 1.0, across})
                                   : m_view->widgetPointOfPixel({across, extent - 1.0});
    const QPointF ab = b - a;
    const double length2 = QPointF::dotProduct(ab, ab);
    if (length2 <= 0.0) return 0.0;
    const double pixel = QPointF::dotProduct(point - a, ab) / length2 * (extent - 1.0);
    const bool flip = alongColumns ? s.axes.flipColumns : s.axes.flipRows;
    return flip ? extent - 1.0 - pixel : pixel;
}

void SliceCropOverlay::updateHover(QPointF point)
{
    const std::vector<int> faces = facesAt(point);
    if (faces != m_hovered) {
        m_hovered = faces;
        update();
    }
    if (faces.empty()) {
        m_view->unsetCursor();
        return;
    }
    const auto sec = section();
    if (faces.size() == 2) {
        // A corner: the diagonal it is dragged along, as it lies on screen.
        const auto line0 = edgePolyline(*sec, faces[0]);
        const auto line1 = edgePolyline(*sec, faces[1]);
        const QPointF centre = (line0.front() + line0.back() + line1.front() + line1.back()) / 4.0;
        const QPointF d = point - centre;
        m_view->setCursor(d.x() * d.y() > 0.0 ? Qt::SizeFDiagCursor : Qt::SizeBDiagCursor);
        return;
    }
    const auto line = edgePolyline(*sec, faces[0]);
    const QPointF along = line.back() - line.front();
    m_view->setCursor(std::abs(along.y()) > std::abs(along.x()) ? Qt::SizeHorCursor
                                                                : Qt::SizeVerCursor);
}

void SliceCropOverlay::dragTo(QPointF point)
{
    VoxelBox box = m_dragStartBox;
    for (int face : m_dragging)
        box = moveCropFace(box, face, indexAt(face, point), m_panel->volumeDims());
    m_panel->previewBox(box);
}

bool SliceCropOverlay::eventFilter(QObject* watched, QEvent* event)
{
    if (watched != m_view) return false;
    if (event->type() == QEvent::Resize) setGeometry(m_view->rect());
    if (!m_active) return false;
    switch (event->type()) {
    case QEvent::MouseButtonPress: {
        auto* e = static_cast<QMouseEvent*>(event);
        if (e->button() != Qt::LeftButton || e->modifiers() != Qt::NoModifier) return false;
        m_dragging = facesAt(e->position());
        if (m_dragging.empty()) return false; // the view's own click: the crosshair
        m_dragStartBox = m_panel->box();
        return true;
    }
    case QEvent::MouseMove: {
        auto* e = static_cast<QMouseEvent*>(event);
        if (m_cancelled) return true;
        if (m_dragging.empty()) {
            updateHover(e->position());
            return false; // the readout follows the mouse as before
        }
        dragTo(e->position());
        return true;
    }
    case QEvent::MouseButtonRelease: {
        auto* e = static_cast<QMouseEvent*>(event);
        if (m_cancelled && e->button() == Qt::LeftButton) {
            m_cancelled = false;
            return true;
        }
        if (m_dragging.empty() || e->button() != Qt::LeftButton) return false;
        dragTo(e->position());
        m_dragging.clear();
        m_panel->finishDrag(m_dragStartBox);
        updateHover(e->position());
        return true;
    }
    case QEvent::KeyPress:
        if (m_dragging.empty() || static_cast<QKeyEvent*>(event)->key() != Qt::Key_Escape)
            return false;
        m_panel->previewBox(m_dragStartBox);
        m_dragging.clear();
        m_cancelled = true;
        return true;
    case QEvent::Leave:
        if (m_dragging.empty() && !m_hovered.empty()) {
            m_hovered.clear();
            m_view->unsetCursor();
            update();
        }
        return false;
    default: return false;
    }
}

void SliceCropOverlay::paintEvent(QPaintEvent*)
{
    const auto sec = section();
    if (!m_active || !sec) return;
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);

    // The section's outline, corner to corner around the box, one slice pixel a step.
    QPolygonF outline;
    const auto addSide = [&](glm::dvec2 from, glm::dvec2 to) {
        const std::vector<double> t =
            steps(0.0, std::max(std::abs(to.x - from.x), std::abs(to.y - from.y)));
        const double n = std::max(t.back(), 1e-9);
        for (std::size_t i = 0; i + 1 < t.size(); ++i)
            outline << m_view->widgetPointOfPixel(from + (to - from) * (t[i] / n));
    };
    addSide({sec->x0, sec->y0}, {sec->x1, sec->y0});
    addSide({sec->x1, sec->y0}, {sec->x1, sec->y1});
    addSide({sec->x1, sec->y1}, {sec->x0, sec->y1});
    addSide({sec->x0, sec->y1}, {sec->x0, sec->y0});

    QPainterPath dimmed;
    dimmed.setFillRule(Qt::OddEvenFill);
    dimmed.addRect(rect());
    if (sec->sliceInside) dimmed.addPolygon(outline);
    p.fillPath(dimmed, kDim);

    QPen pen(kEdgeColor, 1.5);
    pen.setCosmetic(true);
    if (!sec->sliceInside) pen.setStyle(Qt::DashLine); // the box is elsewhere along the normal
    p.setPen(pen);
    p.drawPolygon(outline);

    // The grabbable edges: a handle at each one's middle, the hovered ones brighter.
    const SliceAxes& a = m_view->slice().axes;
    for (int axis : {a.columnAxis, a.rowAxis}) {
        for (int face : {2 * axis, 2 * axis + 1}) {
            const std::vector<QPointF> line = edgePolyline(*sec, face);
            if (line.empty()) continue;
            const bool hovered =
                std::find(m_hovered.begin(), m_hovered.end(), face) != m_hovered.end();
            if (hovered) {
                QPen wide(kHoverColor, 2.5);
                wide.setCosmetic(true);
                p.setPen(wide);
                p.drawPolyline(line.data(), int(line.size()));
            }
            const QPointF mid = line[line.size() / 2];
            p.setPen(QPen(Qt::black, 1.0));
            p.setBrush(hovered ? kHoverColor : kEdgeColor);
            p.drawRect(QRectF(mid - QPointF(3.5, 3.5), QSizeF(7.0, 7.0)));
        }
    }
}

} // namespace isoview::app
