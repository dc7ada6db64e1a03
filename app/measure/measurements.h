// Wires the measuring pieces into the main window: the Measurements dock (MeasurementPanel),
// the distance tool over the 3D view (DistanceTool) with its toggle action (Tools > Measure
// Distance, D), and the SurfaceMeasurer that keeps the area, volume and picker current. The
// window adds the dock, puts the actions in its menus and calls surfaceChanged() when the crop
// changes; the rest happens here. Surfaces are measured only while the dock is shown or the
// distance tool is on.
#pragma once

#include <QObject>

class QAction;
class QDockWidget;
class QMainWindow;

namespace isoview::app {

class DistanceTool;
class MeasurementPanel;
class SurfaceMeasurer;
class ViewportWidget;
class SceneModel;

class Measurements : public QObject {
    Q_OBJECT
public:
    // Creates the dock (hidden, for `window` to add) and the actions.
    Measurements(QMainWindow* window, ViewportWidget* view, SceneModel* scene);
    ~Measurements() override;

    QDockWidget* dock() const { return m_dock; }
    QAction* distanceAction() const { return m_distanceAction; }
    QAction* clearDistanceAction() const { return m_clearAction; }
    MeasurementPanel* panel() const { return m_panel; }
    DistanceTool* distanceTool() const { return m_tool; }
    SurfaceMeasurer* measurer() const { return m_measurer; }

    // The surface changed without a new frame telling (the crop): measure it again.
    void surfaceChanged();
    // The view has just taken a new volume: the distance's points are cleared now, so that
    // what is set after the load (a session's points) stays.
    void volumeChanged();

private:
    void updateEnabled();
    void showDistance();

    ViewportWidget* m_view;
    QDockWidget* m_dock;
    MeasurementPanel* m_panel;
    DistanceTool* m_tool;
    SurfaceMeasurer* m_measurer;
    QAction* m_distanceAction;
    QAction* m_clearAction;
};

} // namespace isoview::app
