// The crop box: which voxels' cells the surface keeps, as inclusive index ranges along I, J
// and K, with Reset (the whole volume). The surface on screen and every export follow it live,
// so the 3D-printing user can cut away a CT's head holder before exporting.
//
// The box is the scene's (scene_model.h; the whole volume when none is set): the panel shows it
// and follows every change (undo, a session, a new volume starts whole).
//
// Undo: every edit made in the panel is one step on the scene's history: the steps of one spin
// box in a row (arrow keys, the wheel) merge into one, Reset is one. The handles in the slice
// views and the 3D view edit through previewBox (live, every mouse move) and finishDrag (the
// whole drag one undo step), so the spin boxes follow them. Ctrl+Z and Ctrl+Shift+Z / Ctrl+Y in
// a field undo and redo the scene's steps (a field's own text undo kept only for what is typed
// and not yet entered), also with the dock floating. GUI thread only.
#pragma once

#include "extraction/voxel_box.h"
#include "scene_model.h"

#include <QWidget>
#include <array>

class QPushButton;
class QSpinBox;

namespace isoview::app {

class CropPanel : public QWidget {
    Q_OBJECT
public:
    // The scene outlives the panel.
    explicit CropPanel(SceneModel* scene, QWidget* parent = nullptr);

    // The scene's box (the whole volume when it has none; empty without a volume).
    VoxelBox box() const;
    // Sets the scene's box at once, not as an undo step (undo commands and drags do): clamped
    // into the volume, first <= last; cropChanged follows when the box changed.
    void setBox(const VoxelBox& box);
    void reset();
    glm::uvec3 volumeDims() const; // 0 without a volume

    // A handle drag in progress: the box applied at once (clamped as setBox does), no undo
    // step yet, so the surface and every view follow the mouse.
    void previewBox(const VoxelBox& box) { setBox(box); }
    // The drag ended: one undo step from `before` (the box when the drag began) to the box
    // now; nothing when they are the same.
    void finishDrag(const VoxelBox& before);
    // Reset as the user's edit (one undo step), as the Reset button does.
    void resetByUser();

    // axis 0..2 (I, J, K); last: the upper end.
    QSpinBox* spinBox(int axis, bool last) const
    {
        return m_spins[std::size_t(2) * std::size_t(axis) + (last ? 1u : 0u)];
    }
    QPushButton* resetButton() const { return m_reset; }

signals:
    // The scene's crop box changed (whatever changed it), or a new volume came.
    void cropChanged(const isoview::VoxelBox& box);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void onSpinChanged(int axis, bool last, int value);
    // An edit by the user: one undo step on the scene's history (merging with the previous one
    // of the same spin box, field >= 0).
    void edit(const VoxelBox& box, int field);
    void showBox();

    SceneModel* m_scene;
    std::array<QSpinBox*, 6> m_spins{};
    QPushButton* m_reset = nullptr;
};

} // namespace isoview::app
