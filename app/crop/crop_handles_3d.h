// The crop box's face handles in the 3D view: while on, the view draws the box's outline with a
// handle on each face (CropBoxOverlay), the handle under the mouse is highlighted and shows an
// open hand, and a left drag that starts on a handle moves that face along its axis: the
// drag is projected onto the axis' direction on screen at the handle (render/crop_box_handles.h)
// and the face's index clamped to the volume, one cell kept. The box follows live through
// CropPanel::previewBox and the drag ends as one undo step (CropPanel::finishDrag); Escape
// during a drag puts the box back as it was and leaves no undo step. Presses
// anywhere else reach the view: the camera orbits, pans and zooms as before.
//
// It takes the view's mouse events through an event filter, ahead of the view, only when
// they grab a handle. GUI thread only.
#pragma once

#include "extraction/voxel_box.h"

#include <glm/glm.hpp>

#include <QObject>
#include <QPointF>
#include <optional>

namespace isoview::app {

class CropPanel;
class ViewportWidget;

class CropHandles3D : public QObject {
    Q_OBJECT
public:
    // Handles within this many pixels of the mouse are grabbed.
    static constexpr double kGrabPixels = 9.0;

    CropHandles3D(ViewportWidget* view, CropPanel* panel);

    void setActive(bool active);
    bool active() const { return m_active; }
    int hoveredFace() const { return m_hovered.value_or(-1); }
    // The face whose handle a press at `point` (widget pixels) would grab.
    std::optional<int> faceAt(QPointF point) const;
    // The camera's physical -> clip map as the view renders it (aspect from the widget).
    glm::dmat4 physicalToClip() const;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void showOverlay();
    void dragTo(QPointF point);

    ViewportWidget* m_view;
    CropPanel* m_panel;
    bool m_active = false;
    bool m_trackingTurnedOn = false; // mouse tracking is ours to turn off again
    std::optional<int> m_hovered;
    std::optional<int> m_dragFace;
    QPointF m_dragStart;
    VoxelBox m_dragStartBox;
};

} // namespace isoview::app
