// The crop box: which voxels' cells the surface keeps, as inclusive index ranges along I, J
// and K, with Reset (the whole volume). The surface on screen and every export follow it live,
// so the 3D-printing user can cut away a CT's head holder before exporting.
//
// Undo: given an undo stack (setUndoStack), every edit made in the panel is one undo step:
// the steps of one spin box in a row (arrow keys, the wheel) merge into one, Reset is one.
// The handles in the slice views and the 3D view edit through previewBox (live, every mouse
// move) and finishDrag (the whole drag one undo step), so the spin boxes follow them.
// setVolumeDims is no edit. GUI thread only.
#pragma once

#include "extraction/voxel_box.h"

#include <QWidget>
#include <array>

class QPushButton;
class QSpinBox;
class QUndoStack;

namespace isoview::app {

class CropPanel : public QWidget {
    Q_OBJECT
public:
    explicit CropPanel(QWidget* parent = nullptr);

    // A new volume: the ranges span it whole (no signal) and the panel is enabled.
    void setVolumeDims(glm::uvec3 dims);
    VoxelBox box() const { return m_box; }
    // Clamps into the volume, keeps first <= last, updates the spin boxes and emits
    // cropChanged when the box changed.
    void setBox(const VoxelBox& box);
    void reset();
    glm::uvec3 volumeDims() const { return m_dims; }

    // A handle drag in progress: the box applied at once (clamped as setBox does), no undo
    // step yet, so the surface and every view follow the mouse.
    void previewBox(const VoxelBox& box) { setBox(box); }
    // The drag ended: one undo step from `before` (the box when the drag began) to the box
    // now; nothing when they are the same.
    void finishDrag(const VoxelBox& before);
    // Reset as the user's edit (one undo step), as the Reset button does.
    void resetByUser();
    // Where the panel's edits go as undoable steps (the window's edit history); none: edits
    // are applied at once and cannot be undone. The stack must outlive the panel or be unset.
    void setUndoStack(QUndoStack* stack) { m_undoStack = stack; }

    // axis 0..2 (I, J, K); last: the upper end.
    QSpinBox* spinBox(int axis, bool last) const
    {
        return m_spins[std::size_t(2) * std::size_t(axis) + (last ? 1u : 0u)];
    }
    QPushButton* resetButton() const { return m_reset; }

signals:
    void cropChanged(const isoview::VoxelBox& box);

private:
    void onSpinChanged(int axis, bool last, int value);
    // An edit by the user: one undo step on the stack (merging with the previous one of the
    // same spin box, field >= 0), else applied at once.
    void edit(const VoxelBox& box, int field);
    void showBox();

    glm::uvec3 m_dims{0};
    VoxelBox m_box;
    std::array<QSpinBox*, 6> m_spins{};
    QPushButton* m_reset = nullptr;
    QUndoStack* m_undoStack = nullptr;
};

} // namespace isoview::app
