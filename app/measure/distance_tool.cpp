#include "measure/distance_tool.h"

#include "views/slice_view.h"
#include "views/viewport_widget.h"

#include <QEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QWidget>
#include <algorithm>
#include <cmath>

namespace isoview::app {

namespace {

// A press and release further apart than this (pixels) is a drag (orbit), not a pick.
constexpr double kClickSlop = 4.0;

// The points (where shown: none for a point off the view or its slice), the line when both are
// shown, and its length beside it.
void paintDistance(QPainter& painter, const std::vector<std::optional<QPointF>>& at,
                   std::optional<double> mm)
{
    painter.setRenderHint(QPainter::Antialiasing);
    const QColor accent(255, 210, 40);
    const bool line = at.size() == 2 && at[0] && at[1];
    if (line) {
        painter.setPen(QPen(Qt::black, 4.0));
        painter.drawLine(*at[0], *at[1]);
        painter.setPen(QPen(accent, 2.0));
        painter.drawLine(*at[0], *at[1]);
    }
    for (const auto& p : at) {
        if (!p) continue;
        painter.setPen(QPen(Qt::black, 1.5));
        painter.setBrush(accent);
        painter.drawEllipse(*p, 5.0, 5.0);
    }
    if (mm && line) {
        const QString text = QStringLiteral("%1 mm").arg(*mm, 0, 'f', 1);
        const QPointF mid = (*at[0] + *at[1]) / 2.0 + QPointF(8.0, -8.0);
        QRectF box = painter.fontMetrics().boundingRect(text).toRectF();
        box.moveBottomLeft(mid);
        painter.setPen(Qt::NoPen);
        painter.setBrush(QColor(0, 0, 0, 170));
        painter.drawRoundedRect(box.adjusted(-4, -2, 4, 2), 3, 3);
        painter.setPen(accent);
        painter.drawText(box, Qt::AlignCenter, text);
    }
}

} // namespace

// Draws the points, the line and its length over the view, through the view's camera. A child
// of the view, so screenshots (QWidget::grab) include it.
class DistanceOverlay : public QWidget {
public:
    DistanceOverlay(ViewportWidget* view, const DistanceTool* tool)
        : QWidget(view), m_view(view), m_tool(tool)
    {
        setAttribute(Qt::WA_TransparentForMouseEvents);
        setAttribute(Qt::WA_NoSystemBackground);
        setAttribute(Qt::WA_TranslucentBackground);
        setObjectName("distanceOverlay");
    }

protected:
    void paintEvent(QPaintEvent*) override
    {
        const std::vector<glm::dvec3>& points = m_tool->points();
        if (points.empty()) return;
        const glm::dmat4 clipFromSpace =
            glm::dmat4(m_view->projectionMatrix()) * glm::dmat4(m_view->viewMatrix());
        std::vector<std::optional<QPointF>> at;
        for (const glm::dvec3& p : points) {
            const glm::dvec4 clip = clipFromSpace * glm::dvec4(p, 1.0);
            if (clip.w <= 0.0) { // behind the camera
                at.emplace_back();
                continue;
            }
            at.emplace_back(QPointF((clip.x / clip.w + 1.0) * 0.5 * width(),
                                    (1.0 - clip.y / clip.w) * 0.5 * height()));
        }
        QPainter painter(this);
        paintDistance(painter, at, m_tool->distanceMm());
    }

private:
    ViewportWidget* m_view;
    const DistanceTool* m_tool;
};

// Draws the points that lie on a slice view's shown slice, and the line and its length when both
// do. A child of the slice view, repainted with it.
class SliceDistanceOverlay : public QWidget {
public:
    SliceDistanceOverlay(SliceView* view, const DistanceTool* tool)
        : QWidget(view), m_view(view), m_tool(tool)
    {
        setAttribute(Qt::WA_TransparentForMouseEvents);
        setAttribute(Qt::WA_NoSystemBackground);
        setAttribute(Qt::WA_TranslucentBackground);
        setObjectName("sliceDistanceOverlay");
    }

    SliceView* view() const { return m_view; }

    // Where a physical point is drawn in the view, if it lies on the shown slice (within half
    // the slice spacing) and on the image.
    std::optional<QPointF> widgetPointOf(const glm::dvec3& physical) const
    {
        const VolumeSlice& s = m_view->slice();
        if (s.width == 0) return std::nullopt;
        const glm::dvec2 display(glm::dot(physical, s.axes.screenRight),
                                 glm::dot(physical, s.axes.screenDown));
        const std::optional<glm::dvec2> pixel = s.pixelAtDisplay(display);
        if (!pixel) return std::nullopt;
        const double halfSlice = 0.5 * s.geometry.spacing[s.axes.normalAxis] + 1e-6;
        if (glm::length(physical - s.toPhysical(*pixel)) > halfSlice) return std::nullopt;
        return m_view->widgetPointOfPixel(*pixel);
    }

protected:
    void paintEvent(QPaintEvent*) override
    {
        const std::vector<glm::dvec3>& points = m_tool->points();
        if (points.empty()) return;
        std::vector<std::optional<QPointF>> at;
        at.reserve(points.size());
        for (const glm::dvec3& p : points)
            at.push_back(widgetPointOf(p));
        QPainter painter(this);
        paintDistance(painter, at, m_tool->distanceMm());
    }

private:
    SliceView* m_view;
    const DistanceTool* m_tool;
};

DistanceTool::DistanceTool(ViewportWidget* view, SceneModel* scene, QObject* parent)
    : QObject(parent), m_view(view), m_scene(scene), m_overlay(new DistanceOverlay(view, this))
{
    m_overlay->setGeometry(view->rect());
    m_overlay->show();
    view->installEventFilter(this);
    // The camera moves with every frame: the overlay follows what is on screen.
    connect(view, &ViewportWidget::frameShown, m_overlay, qOverload<>(&QWidget::update));
    connect(m_scene, &SceneModel::changed, this, [this](SceneChanges what) {
        if (!(what & SceneChange::Distance)) return;
        updateOverlays();
        emit changed();
    });
}

const std::vector<glm::dvec3>& DistanceTool::points() const
{
    return m_scene->scene().distancePoints;
}

// Qt drops the event filter with this object; the view (and the overlay, its child) may be gone
// already when the window deletes its children.
DistanceTool::~DistanceTool() = default;

void DistanceTool::setActive(bool active)
{
    if (active == m_active) return;
    m_active = active;
    m_pressAt.reset();
    m_view->setCursor(m_active ? Qt::CrossCursor : Qt::ArrowCursor);
    for (SliceDistanceOverlay* overlay : m_sliceOverlays)
        overlay->view()->setCursor(m_active ? Qt::CrossCursor : Qt::ArrowCursor);
    emit activeChanged(m_active);
}

void DistanceTool::setPicker(std::shared_ptr<const SurfacePicker> picker)
{
    m_picker = std::move(picker);
}

void DistanceTool::addPoint(const glm::dvec3& patientMm)
{
    std::vector<glm::dvec3> points = this->points();
    if (points.size() == 2) points.clear();
    points.push_back(patientMm);
    m_scene->setDistancePoints(points);
}

void DistanceTool::setPoints(const glm::dvec3& first, const glm::dvec3& second)
{
    m_scene->setDistancePoints({first, second});
}

void DistanceTool::clear()
{
    m_scene->setDistancePoints({});
}

void DistanceTool::updateOverlays()
{
    m_overlay->update();
    for (SliceDistanceOverlay* overlay : m_sliceOverlays)
        overlay->update();
}

void DistanceTool::addSliceView(SliceView* view)
{
    auto* overlay = new SliceDistanceOverlay(view, this);
    overlay->setGeometry(view->rect());
    overlay->show();
    m_sliceOverlays.push_back(overlay);
    // The overlay goes with its view (the window deletes the views before the tool or after).
    connect(overlay, &QObject::destroyed, this,
            [this, overlay] { std::erase(m_sliceOverlays, overlay); });
    view->installEventFilter(this);
}

std::optional<glm::dvec3> DistanceTool::slicePointAt(const SliceView& view, const QPointF& position)
{
    const VolumeSlice& s = view.slice();
    const std::optional<glm::dvec2> pixel = view.pixelAtWidgetPoint(position);
    if (!pixel || s.width == 0) return std::nullopt;
    const glm::dvec2 inside(std::clamp(pixel->x, 0.0, double(s.width - 1)),
                            std::clamp(pixel->y, 0.0, double(s.height - 1)));
    return s.toPhysical(inside);
}

bool DistanceTool::filterSliceViewEvent(SliceView* view, QEvent* event)
{
    switch (event->type()) {
    case QEvent::Resize:
        for (SliceDistanceOverlay* overlay : m_sliceOverlays)
            if (overlay->view() == view) overlay->setGeometry(view->rect());
        return false;
    case QEvent::KeyPress:
        if (static_cast<QKeyEvent*>(event)->key() == Qt::Key_Escape && !points().empty()) {
            clear();
            return true;
        }
        return false;
    case QEvent::MouseButtonPress: {
        const auto* mouse = static_cast<QMouseEvent*>(event);
        if (!m_active || mouse->button() != Qt::LeftButton || mouse->modifiers() != Qt::NoModifier)
            return false;
        m_sliceClickHeld = true; // the click places a point; it does not move the crosshair
        if (const std::optional<glm::dvec3> point = slicePointAt(*view, mouse->position()))
            addPoint(*point);
        else
            emit missed(tr("Click on the slice image to place a point."));
        return true;
    }
    case QEvent::MouseMove:
        // The held click's drag would move the crosshair; the readout follows plain moves.
        return m_sliceClickHeld && (static_cast<QMouseEvent*>(event)->buttons() & Qt::LeftButton);
    case QEvent::MouseButtonRelease:
        if (!m_sliceClickHeld || static_cast<QMouseEvent*>(event)->button() != Qt::LeftButton)
            return false;
        m_sliceClickHeld = false;
        return true;
    default: return false;
    }
}

std::optional<double> DistanceTool::distanceMm() const
{
    const std::vector<glm::dvec3>& p = points();
    if (p.size() != 2) return std::nullopt;
    return glm::length(p[1] - p[0]);
}

std::optional<glm::dvec3> DistanceTool::pickAt(const QPointF& viewPosition) const
{
    if (!m_picker || m_view->width() <= 0 || m_view->height() <= 0) return std::nullopt;
    const glm::vec2 ndc(float(2.0 * viewPosition.x() / m_view->width() - 1.0),
                        float(1.0 - 2.0 * viewPosition.y() / m_view->height()));
    const Ray ray = rayThroughNdc(ndc, m_view->viewMatrix(), m_view->projectionMatrix());
    const std::optional<SurfaceHit> hit = m_picker->pick(ray);
    if (!hit) return std::nullopt;
    return hit->point;
}

bool DistanceTool::eventFilter(QObject* watched, QEvent* event)
{
    for (SliceDistanceOverlay* overlay : m_sliceOverlays)
        if (watched == overlay->view())
            return filterSliceViewEvent(overlay->view(), event) ||
                   QObject::eventFilter(watched, event);
    if (watched != m_view) return QObject::eventFilter(watched, event);
    switch (event->type()) {
    case QEvent::Resize: m_overlay->setGeometry(m_view->rect()); break;
    case QEvent::KeyPress:
        if (static_cast<QKeyEvent*>(event)->key() == Qt::Key_Escape && !points().empty()) {
            clear();
            return true;
        }
        break;
    case QEvent::MouseButtonPress: {
        const auto* mouse = static_cast<QMouseEvent*>(event);
        if (m_active && mouse->button() == Qt::LeftButton && mouse->modifiers() == Qt::NoModifier)
            m_pressAt = mouse->position();
        break; // the view starts its orbit as usual: a drag still turns the scene
    }
    case QEvent::MouseButtonRelease: {
        const auto* mouse = static_cast<QMouseEvent*>(event);
        if (!m_active || !m_pressAt || mouse->button() != Qt::LeftButton) break;
        const QPointF delta = mouse->position() - *m_pressAt;
        m_pressAt.reset();
        if (std::hypot(delta.x(), delta.y()) > kClickSlop) break;
        if (!m_picker) {
            emit missed(tr("The surface is still being measured; click again in a moment."));
        } else if (const std::optional<glm::dvec3> point = pickAt(mouse->position())) {
            addPoint(*point);
        } else {
            emit missed(tr("No surface under the cursor."));
        }
        break;
    }
    default: break;
    }
    return QObject::eventFilter(watched, event);
}

} // namespace isoview::app
