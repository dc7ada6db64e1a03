// The crop tool: turns the crop box's handles on in the three slice views
// (SliceCropOverlay) and the 3D view (CropHandles3D) while the Crop Box dock is shown or View >
// Show Crop Box (B) is checked, and offers Edit > Reset Crop Box (Shift+B) as an undoable
// edit. The toggle is remembered in QSettings ("view/showCropBox"). GUI thread only.
#pragma once

#include <QObject>
#include <array>

class QAction;
class QDockWidget;

namespace isoview::app {

class CropHandles3D;
class CropPanel;
class SliceCropOverlay;
class ViewLayout;

class CropTool : public QObject {
    Q_OBJECT
public:
    // The dock is the panel's; the layout gives the views the handles go into.
    CropTool(CropPanel* panel, QDockWidget* dock, ViewLayout* layout, QObject* parent);

    QAction* showAction() const { return m_showAction; }
    QAction* resetAction() const { return m_resetAction; }
    // Handles shown and grabbable: the dock is shown or the toggle is on.
    bool active() const { return m_active; }
    SliceCropOverlay* sliceOverlay(int orientation) const
    {
        return m_overlays[std::size_t(orientation)];
    }
    CropHandles3D* handles3d() const { return m_handles3d; }

private:
    void updateActive();

    CropPanel* m_panel;
    QDockWidget* m_dock;
    QAction* m_showAction = nullptr;
    QAction* m_resetAction = nullptr;
    std::array<SliceCropOverlay*, 3> m_overlays{};
    CropHandles3D* m_handles3d = nullptr;
    bool m_active = false;
};

} // namespace isoview::app
