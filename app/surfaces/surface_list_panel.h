// The "Surfaces" dock: the list of isosurfaces (surface_list.h) with, for each, a visibility
// check box, a colour swatch, its name and opacity; Add (Ctrl+Shift+N), Remove (Delete in the
// list), Rename (F2, double-click), Colour... and an opacity spin box for the selected one.
// Selecting a surface makes the isovalue slider, spin box and histogram edit it, and the 3D
// view re-extracts it live while the others are drawn from stored meshes. Every edit but the
// isovalue (which the isovalue panel owns) is one step on the window's undo stack.
//
// The list is the scene's (scene_model.h): the panel shows it, edits it through the undo
// commands on the scene's history, and follows every change to it (a session, undo, a new
// volume, a transfer function that colours surfaces without a colour of their own).
//
// Thread: GUI only.
#pragma once

#include "scene_model.h"

#include <QColor>
#include <QWidget>
#include <cstdint>
#include <optional>

class QAction;
class QTreeWidget;
class QTreeWidgetItem;
class QPushButton;
class QSpinBox;

namespace isoview::app {

class SurfaceListPanel : public QWidget {
    Q_OBJECT
public:
    // The scene outlives the panel.
    explicit SurfaceListPanel(SceneModel* scene, QWidget* parent = nullptr);

    const SurfaceList& surfaces() const { return m_scene->scene().surfaces; }
    // The undoable edits the panel's controls make, for menus, shortcuts and tests. Remove of
    // the last surface is refused with a status message (returns false).
    void addSurface();
    bool removeSurface(std::uint32_t id);
    void renameSurface(std::uint32_t id, const QString& name);
    void setColor(std::uint32_t id, const std::optional<QColor>& color); // none: the TF's
    void setOpacity(std::uint32_t id, float opacity);
    void setSurfaceVisible(std::uint32_t id, bool visible);
    void select(std::uint32_t id);
    // The selected surface's colour; none: the transfer function's.
    std::optional<QColor> selectedColor() const;
    void setSelectedColor(const std::optional<QColor>& color)
    {
        setColor(surfaces().selected().id, color);
    }

    // The colour a surface is drawn in: its own, else the transfer function's at its isovalue.
    QColor drawColor(const Surface& surface) const;

    QAction* addAction() const { return m_addAction; }
    QAction* removeAction() const { return m_removeAction; }
    QAction* renameAction() const { return m_renameAction; }
    QTreeWidget* listWidget() const { return m_listWidget; }

signals:
    // A status-bar message (a refused remove).
    void message(const QString& text);

private:
    void onListChanged(SurfaceList::Change change, std::uint32_t id);
    void rebuildItems();
    void updateItem(QTreeWidgetItem* item, const Surface& surface);
    void updateControls();
    void onItemChanged(QTreeWidgetItem* item, int column);
    void chooseColor();

    SceneModel* m_scene;

    QTreeWidget* m_listWidget = nullptr;
    QPushButton* m_colorButton = nullptr;
    QSpinBox* m_opacity = nullptr;
    QAction* m_addAction = nullptr;
    QAction* m_removeAction = nullptr;
    QAction* m_renameAction = nullptr;
    bool m_updating = false; // the panel is filling its own widgets
    int m_opacityDrag = 0;   // merge key of the current opacity edit run
};

} // namespace isoview::app
