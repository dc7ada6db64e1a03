#include "labels/label_picker.h"

#include "mesh_processing/surface_picking.h"
#include "views/viewport_widget.h"
#include "volume/label_picking.h"

#include <QEvent>
#include <QMouseEvent>

namespace isoview::app {
namespace {
// Further than this (widget pixels) between press and release is a drag, not a click.
constexpr double kClickSlop = 4.0;
} // namespace

LabelPicker::LabelPicker(ViewportWidget* view, SceneModel* scene)
    : QObject(view), m_view(view), m_scene(scene)
{
    view->installEventFilter(this);
}

std::optional<std::uint32_t> LabelPicker::labelAt(QPointF viewPosition) const
{
    const std::optional<LabelLayer>& layer = m_scene->scene().labels;
    if (!layer || m_view->width() <= 0 || m_view->height() <= 0) return std::nullopt;
    const glm::vec2 ndc(float(2.0 * viewPosition.x() / m_view->width() - 1.0),
                        float(1.0 - 2.0 * viewPosition.y() / m_view->height()));
    const Ray ray = rayThroughNdc(ndc, m_view->viewMatrix(), m_view->projectionMatrix());
    return firstShownLabelAlong(*layer->labelMap, ray.origin, ray.direction,
                                [&](std::uint32_t label) {
                                    const LabelStyle style = layer->style(label);
                                    return style.visible && style.opacity > 0.0f;
                                });
}

bool LabelPicker::eventFilter(QObject* watched, QEvent* event)
{
    if (watched != m_view) return QObject::eventFilter(watched, event);
    if (event->type() == QEvent::MouseButtonPress) {
        const auto* mouse = static_cast<QMouseEvent*>(event);
        m_pressedAt.reset();
        if (mouse->button() == Qt::LeftButton && mouse->modifiers() == Qt::NoModifier)
            m_pressedAt = mouse->position();
    } else if (event->type() == QEvent::MouseButtonRelease && m_pressedAt) {
        const auto* mouse = static_cast<QMouseEvent*>(event);
        const QPointF moved = mouse->position() - *m_pressedAt;
        m_pressedAt.reset();
        if (mouse->button() == Qt::LeftButton && moved.manhattanLength() <= kClickSlop) {
            if (const std::optional<std::uint32_t> label = labelAt(mouse->position()))
                m_scene->selectLabel(*label);
        }
    }
    return QObject::eventFilter(watched, event); // the view still gets the click
}

} // namespace isoview::app
