// The central area of the window: the 3D view and the axial, coronal and sagittal slice views,
// arranged 2 x 2 (default), 1 x 3 (slices in a row under the 3D view) or 3D only. It links the
// views (one crosshair, one window/level, each visible surface's contour in its colour) and
// holds the View menu's layout and window/level actions. It also keeps the 3D view's slice
// planes on the crosshair and window (View > Show Slice Planes in 3D, P; drawn while the slice
// views are shown, not in 3D Only). Remembers the layout and the planes' toggle in QSettings
// ("views/layout", "views/slicePlanesIn3D", off by default: opaque planes hide
// the surfaces behind them). GUI thread only.
//
// For sessions: layout(), crosshair() (index space, which also fixes the three slice indices)
// and windowLevel() read the state; setLayout, setCrosshair and setWindowLevel restore it.
#pragma once

#include "views/slice_view.h"

#include <QWidget>
#include <array>
#include <memory>

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
    enum class Layout { Grid2x2 = 0, Row1x3 = 1, ThreeDOnly = 2 };
    // CT window presets (real units, HU): center / width.
    enum class WindowPreset { Brain, Bone, Lung };
    static WindowLevel presetWindow(WindowPreset preset);

    // Takes the 3D view into the layout (reparents it).
    explicit ViewLayout(ViewportWidget* view3d, QWidget* parent = nullptr);

    // A new volume: slices at its centre, the window from the volume's DICOM window when it
    // has one, else its real value range. Null clears the slice views.
    void setVolume(const std::shared_ptr<const Volume>& volume, ValueRange realRange);
    // The contours every slice view draws (SliceView::setContours): the visible surfaces'.
    void setContours(const std::vector<SliceContour>& contours);

    Layout layout() const { return m_layout; }
    void setLayout(Layout layout);
    glm::dvec3 crosshair() const { return m_crosshair; }
    void setCrosshair(glm::dvec3 indexPoint);
    WindowLevel windowLevel() const { return m_window; }
    void setWindowLevel(WindowLevel window);
    // The window the volume starts with (DICOM window or data range).
    WindowLevel defaultWindowLevel() const { return m_defaultWindow; }

    SliceView* sliceView(SliceOrientation orientation) const { return m_slices[int(orientation)]; }
    // Lets the distance tool place and draw its points in the slice views.
    void addDistanceTool(DistanceTool* tool);
    ViewportWidget* view3d() const { return m_view3d; }
    // Adds the layout choices, the slice planes' toggle and the window/level submenu to a menu
    // (the window's View menu).
    void addActionsTo(QMenu* menu);
    QAction* slicePlanesAction() const { return m_slicePlanesAction; }
    // Whether the 3D view draws the planes now (the toggle, a volume and slice views shown).
    bool slicePlanesShown() const;

signals:
    void layoutChanged(isoview::app::ViewLayout::Layout layout);
    void crosshairChanged(glm::dvec3 indexPoint);
    void windowLevelChanged(isoview::app::WindowLevel window);

private:
    void arrange();
    void updateSlicePlanes();

    ViewportWidget* m_view3d;
    std::array<SliceView*, 3> m_slices{};
    QGridLayout* m_grid = nullptr;
    Layout m_layout = Layout::Grid2x2;
    glm::dvec3 m_crosshair{0.0};
    WindowLevel m_window{40.0, 400.0};
    WindowLevel m_defaultWindow{40.0, 400.0};
    bool m_hasVolume = false;
    QActionGroup* m_layoutGroup = nullptr;
    std::array<QAction*, 3> m_layoutActions{};
    std::array<QAction*, 3> m_presetActions{};
    QAction* m_resetWindowAction = nullptr;
    QAction* m_slicePlanesAction = nullptr;
};

} // namespace isoview::app
