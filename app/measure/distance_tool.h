// The distance tool: two points on the surface, the straight line between them and its length
// in millimetres, drawn over the 3D view.
//
// While active (Tools > Measure Distance, D), a left click on the 3D view that does not drag
// picks the surface point under the cursor (SurfacePicker, exact, on the CPU); a drag still
// orbits. A left click in a slice view added with addSliceView() places the point under the
// cursor on the shown slice instead of moving the crosshair. The first click sets the first
// point, the second the second one, a third starts a new measurement. Esc in a view clears it.
// The points are in the volume's physical space (patient LPS millimetres for DICOM); the 3D view
// shows them always, a slice view those that lie on its shown slice (within half a slice), with
// the line and its length when both do.
//
// Thread: GUI thread only.
#pragma once

#include "mesh_processing/surface_picking.h"

#include <glm/glm.hpp>

#include <QObject>
#include <QPointF>
#include <memory>
#include <optional>
#include <vector>

namespace isoview::app {

class ViewportWidget;
class DistanceOverlay;
class SliceDistanceOverlay;
class SliceView;
class SceneModel;

class DistanceTool : public QObject {
    Q_OBJECT
public:
    // Draws over `view` (a child widget of it) and watches its mouse and key events. The points
    // are the scene's (its distance); the scene outlives the tool.
    DistanceTool(ViewportWidget* view, SceneModel* scene, QObject* parent = nullptr);
    ~DistanceTool() override;

    void setActive(bool active);
    bool isActive() const { return m_active; }

    // The surface clicks pick on (physical millimetres); null: clicks pick nothing.
    void setPicker(std::shared_ptr<const SurfacePicker> picker);
    bool hasPicker() const { return m_picker != nullptr; }

    // A point in the volume's physical (patient) space, mm: the first or second point, or the
    // first of a new measurement when two are set.
    void addPoint(const glm::dvec3& patientMm);
    void setPoints(const glm::dvec3& first, const glm::dvec3& second);
    void clear();
    // 0, 1 or 2 points.
    const std::vector<glm::dvec3>& points() const;
    // The distance between the two points, when both are set.
    std::optional<double> distanceMm() const;

    // The surface point under a position of the view (widget pixels), if any.
    std::optional<glm::dvec3> pickAt(const QPointF& viewPosition) const;

    // Lets clicks in `view` place points while the tool is active and draws the points there
    // (an overlay child of the view; the tool watches its mouse and key events).
    void addSliceView(SliceView* view);
    // The physical point (mm) under a position of a slice view (widget pixels): on its shown
    // slice, within the image (clamped to the outermost voxel centres); none off the image.
    static std::optional<glm::dvec3> slicePointAt(const SliceView& view, const QPointF& position);

signals:
    void activeChanged(bool active);
    void changed();
    // A click found no surface under the cursor (or none is measured yet).
    void missed(const QString& why);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    bool filterSliceViewEvent(SliceView* view, QEvent* event);
    void updateOverlays();

    ViewportWidget* m_view;
    SceneModel* m_scene;
    DistanceOverlay* m_overlay;
    std::vector<SliceDistanceOverlay*> m_sliceOverlays; // children of the slice views
    bool m_sliceClickHeld = false; // a slice view's left press placed a point: eat its drag
    bool m_active = false;
    std::shared_ptr<const SurfacePicker> m_picker;
    std::optional<QPointF> m_pressAt; // a left press that may become a click
};

} // namespace isoview::app
