#include "crop/crop_handles_3d.h"

#include "crop/crop_panel.h"
#include "scene/crop_box_handles.h"
#include "views/viewport_widget.h"

#include <QEvent>
#include <QKeyEvent>
#include <QMouseEvent>

namespace isoview::app {

CropHandles3D::CropHandles3D(ViewportWidget* view, CropPanel* panel)
    : QObject(view), m_view(view), m_panel(panel)
{
    setObjectName(QStringLiteral("cropHandles3D"));
    view->installEventFilter(this);
}

void CropHandles3D::setActive(bool active)
{
    m_active = active;
    // Hover needs the moves without a button, which Qt delivers only to tracking widgets.
    if (active && !m_view->hasMouseTracking()) {
        m_view->setMouseTracking(true);
        m_trackingTurnedOn = true;
    } else if (!active && m_trackingTurnedOn) {
        m_view->setMouseTracking(false);
        m_trackingTurnedOn = false;
    }
    m_hovered.reset();
    m_dragFace.reset();
    m_view->unsetCursor();
    showOverlay();
}

void CropHandles3D::showOverlay()
{
    m_view->setCropBoxOverlay({.show = m_active, .highlightedFace = m_hovered.value_or(-1)});
}

glm::dmat4 CropHandles3D::physicalToClip() const
{
    return glm::dmat4(m_view->projectionMatrix()) * glm::dmat4(m_view->viewMatrix());
}

std::optional<int> CropHandles3D::faceAt(QPointF point) const
{
    const Volume* volume = m_view->volume();
    if (!m_active || volume == nullptr || m_panel->volumeDims() != volume->dims()) return {};
    return pickCropFace(m_panel->box(), volume->geometry(), physicalToClip(),
                        glm::dvec2(m_view->width(), m_view->height()),
                        glm::dvec2(point.x(), point.y()), kGrabPixels);
}

void CropHandles3D::dragTo(QPointF point)
{
    const Volume* volume = m_view->volume();
    if (volume == nullptr || !m_dragFace) return;
    const QPointF delta = point - m_dragStart;
    const auto index = dragCropFace(m_dragStartBox, *m_dragFace, volume->geometry(),
                                    physicalToClip(), glm::dvec2(m_view->width(), m_view->height()),
                                    glm::dvec2(delta.x(), delta.y()));
    if (!index) return; // the axis points at the camera: nothing to follow
    m_panel->previewBox(moveCropFace(m_dragStartBox, *m_dragFace, *index, volume->dims()));
}

bool CropHandles3D::eventFilter(QObject* watched, QEvent* event)
{
    if (watched != m_view || !m_active) return false;
    switch (event->type()) {
    case QEvent::MouseButtonPress: {
        auto* e = static_cast<QMouseEvent*>(event);
        if (e->button() != Qt::LeftButton || e->modifiers() != Qt::NoModifier) return false;
        m_dragFace = faceAt(e->position());
        if (!m_dragFace) return false; // the camera's drag
        m_dragStart = e->position();
        m_dragStartBox = m_panel->box();
        m_hovered = m_dragFace;
        m_view->setCursor(Qt::ClosedHandCursor);
        showOverlay();
        return true;
    }
    case QEvent::MouseMove: {
        auto* e = static_cast<QMouseEvent*>(event);
        if (m_dragFace) {
            dragTo(e->position());
            return true;
        }
        if (e->buttons() != Qt::NoButton) return false; // a camera drag in progress
        const std::optional<int> face = faceAt(e->position());
        if (face != m_hovered) {
            m_hovered = face;
            if (face)
                m_view->setCursor(Qt::OpenHandCursor);
            else
                m_view->unsetCursor();
            showOverlay();
        }
        return false;
    }
    case QEvent::MouseButtonRelease: {
        auto* e = static_cast<QMouseEvent*>(event);
        if (!m_dragFace || e->button() != Qt::LeftButton) return false;
        dragTo(e->position());
        m_dragFace.reset();
        m_panel->finishDrag(m_dragStartBox);
        m_view->setCursor(m_hovered ? Qt::OpenHandCursor : Qt::ArrowCursor);
        return true;
    }
    case QEvent::KeyPress:
        if (!m_dragFace || static_cast<QKeyEvent*>(event)->key() != Qt::Key_Escape) return false;
        m_panel->previewBox(m_dragStartBox);
        m_dragFace.reset();
        m_view->setCursor(m_hovered ? Qt::OpenHandCursor : Qt::ArrowCursor);
        return true;
    case QEvent::Leave:
        if (!m_dragFace && m_hovered) {
            m_hovered.reset();
            m_view->unsetCursor();
            showOverlay();
        }
        return false;
    default: return false;
    }
}

} // namespace isoview::app
