// The crop box in one slice view: its section as a rectangle through the voxel centres of its
// first and last indices, the slice dimmed outside it (all of it, with a dashed rectangle, when
// the slice lies outside the box), and its edges and corners draggable while the crop tool is
// on: an edge moves one face of the box, a corner two. The cursor shows what a press would
// grab. Each drag applies the box live through CropPanel::previewBox (the surface and the
// other views follow) and ends as one undo step (CropPanel::finishDrag); Escape during a drag
// puts the box back as it was and leaves no undo step.
//
// It lives as a transparent child of the slice view and takes the view's mouse events
// through an event filter, ahead of the view, only when they grab a handle: every other click
// still moves the crosshair. Off (setActive(false)) it draws nothing and takes nothing.
// GUI thread only.
#pragma once

#include "extraction/voxel_box.h"

#include <QPointF>
#include <QWidget>
#include <optional>
#include <vector>

namespace isoview::app {

class CropPanel;
class SliceView;

class SliceCropOverlay : public QWidget {
    Q_OBJECT
public:
    // Grab tolerance around an edge, widget pixels.
    static constexpr double kGrabPixels = 6.0;

    SliceCropOverlay(SliceView* view, CropPanel* panel);

    void setActive(bool active);
    bool active() const { return m_active; }
    // The crop faces (2 * axis + (last ? 1 : 0)) a press at `point` would grab: none, one
    // (an edge) or two (a corner).
    std::vector<int> facesAt(QPointF point) const;

protected:
    void paintEvent(QPaintEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    struct Section {
        double x0, x1, y0, y1; // slice pixel coordinates of the box's edges (x0 <= x1)
        bool sliceInside;      // the shown slice lies within the box
    };
    std::optional<Section> section() const;
    // The edge of a face, as widget points along it.
    std::vector<QPointF> edgePolyline(const Section& s, int face) const;
    // The box index along a face's axis under a widget point (unclamped).
    double indexAt(int face, QPointF point) const;
    void updateHover(QPointF point);
    void dragTo(QPointF point);

    SliceView* m_view;
    CropPanel* m_panel;
    bool m_active = false;
    std::vector<int> m_hovered;
    std::vector<int> m_dragging; // faces grabbed; empty: no drag
    bool m_cancelled = false;    // Escape ended the drag: the button's moves are ours till release
    VoxelBox m_dragStartBox;
};

} // namespace isoview::app
