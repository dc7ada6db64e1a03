// The central area of the window: the 3D view and the axial, coronal and sagittal slice views,
// arranged 2 x 2 (default), 1 x 3 (slices in a row under the 3D view) or 3D only. It shows the
// scene's slice views (scene_model.h: one crosshair, one window/level, each visible surface's
// contour in its colour) and holds the View menu's layout, slice-plane and window/level actions,
// which edit the scene. The 3D view draws the slice planes from the same scene (View > Show Slice
// Planes in 3D, P; drawn while the slice views are shown, not in 3D Only). Remembers the layout
// and the planes' toggle in QSettings ("views/layout", "views/slicePlanesIn3D", off by default:
// opaque planes hide the surfaces behind them) and gives the scene those at construction.
// GUI thread only.
#pragma once

#include "scene_model.h"
#include "views/slice_view.h"

#include <QWidget>
#include <array>

class QAction;
class QActionGroup;
class QGridLayout;
class QMenu;

namespace isoview::app {

class DistanceTool;
class ViewportWidget;

class ViewLayout : public QWidget {
    Q_OBJECT
public:
    using Layout = ViewArrangement;
    // CT window presets (real units, HU), named "W width L level" as the views show them.
    enum class WindowPreset { Brain, Bone, Lung };
    static WindowLevel presetWindow(WindowPreset preset);

    // Takes the 3D view into the layout (reparents it). The scene outlives the layout.
    ViewLayout(ViewportWidget* view3d, SceneModel* scene, QWidget* parent = nullptr);

    // The scene's slice views, read and edited (for the menus, sessions and tests).
    Layout layout() const { return slices().arrangement; }
    void setLayout(Layout layout);
    glm::dvec3 crosshair() const { return slices().crosshair; }
    void setCrosshair(glm::dvec3 indexPoint);
    WindowLevel windowLevel() const { return slices().window; }
    void setWindowLevel(WindowLevel window);
    // The window the volume starts with (DICOM window or data range).
    WindowLevel defaultWindowLevel() const;

    SliceView* sliceView(SliceOrientation orientation) const { return m_slices[int(orientation)]; }
    // Lets the distance tool place and draw its points in the slice views.
    void addDistanceTool(DistanceTool* tool);
    ViewportWidget* view3d() const { return m_view3d; }

    // Adds the layout choices, the slice planes' toggle and the window/level submenu to a menu
    // (the window's View menu).
    void addActionsTo(QMenu* menu);
    QAction* slicePlanesAction() const { return m_slicePlanesAction; }
    // Whether the 3D view draws the planes now (the toggle, a volume and slice views shown).
    bool slicePlanesShown() const { return m_scene->scene().slicePlanesShown(); }

signals:
    void layoutChanged(isoview::app::ViewLayout::Layout layout);
    void crosshairChanged(glm::dvec3 indexPoint);
    void windowLevelChanged(isoview::WindowLevel window);

private:
    const SliceViews& slices() const { return m_scene->scene().slices; }
    void onSceneChanged(SceneChanges what);
    // Shows the scene's slice views: the arrangement, crosshair and window each view shows.
    void showSlices(bool force);
    void arrange();
    void editSlices(const std::function<void(SliceViews&)>& edit);

    ViewportWidget* m_view3d;
    SceneModel* m_scene;
    std::array<SliceView*, 3> m_slices{};
    QGridLayout* m_grid = nullptr;
    SliceViews m_shown; // what the views show now, to tell what changed
    QActionGroup* m_layoutGroup = nullptr;
    std::array<QAction*, 3> m_layoutActions{};
    std::array<QAction*, 3> m_presetActions{};
    QAction* m_resetWindowAction = nullptr;
    QAction* m_slicePlanesAction = nullptr;
};

} // namespace isoview::app
