// The "Surfaces" dock: the list of isosurfaces (surface_list.h) with, for each, a visibility
// check box, a colour swatch, its name and opacity; Add (Ctrl+Shift+N), Remove (Delete in the
// list), Rename (F2, double-click), Colour... and an opacity spin box for the selected one.
// Selecting a surface makes the isovalue slider, spin box and histogram edit it, and the 3D
// view re-extracts it live while the others are drawn from stored meshes. Every edit but the
// isovalue (which the isovalue panel owns) is one step on the window's undo stack.
//
// The panel owns the list; the window calls attach() once to wire it to the isovalue panel, the
// transfer function (the colour of surfaces without one of their own) and the 3D view, and
// resetForVolume() for each new volume.
//
// Thread: GUI only.
#pragma once

#include "scene/surface_list.h"
#include "views/slice_view.h"

#include <QColor>
#include <QWidget>
#include <cstdint>
#include <optional>

class QAction;
class QTreeWidget;
class QTreeWidgetItem;
class QPushButton;
class QSpinBox;
class QUndoStack;

namespace isoview::app {

class IsovaluePanel;
class TransferFunctionPanel;
class ViewportWidget;

class SurfaceListPanel : public QWidget {
    Q_OBJECT
public:
    explicit SurfaceListPanel(QWidget* parent = nullptr);

    // Wires the panel: the selected surface follows the isovalue panel and sets it when the
    // selection changes; frames get every surface. The objects outlive the panel.
    void attach(IsovaluePanel* isovalue, TransferFunctionPanel* transferFunction,
                ViewportWidget* view, QUndoStack* undoStack);

    const SurfaceList& surfaces() const { return m_list; }
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
        setColor(m_list.selected().id, color);
    }

    // A new volume: one surface, "Surface 1", at isovalue with the given colour. Not undoable
    // (the window's history starts again with each volume).
    void resetForVolume(double isovalue, const std::optional<QColor>& color);
    // A session's surfaces (ids are new). Throws InvalidInputError for an empty list or a bad
    // value; the list is unchanged then.
    void restore(const std::vector<Surface>& surfaces, std::size_t selected);

    // The colour a surface is drawn in: its own, else the transfer function's at its isovalue.
    QColor drawColor(const Surface& surface) const;
    // The slice views' contours: the visible surfaces in list order in their draw colours, the
    // selected one (when visible) last, over the others.
    std::vector<SliceContour> sliceContours() const;

    QAction* addAction() const { return m_addAction; }
    QAction* removeAction() const { return m_removeAction; }
    QAction* renameAction() const { return m_renameAction; }
    QTreeWidget* listWidget() const { return m_listWidget; }

signals:
    // The selected surface changed, or its colour did (none: the transfer function's).
    void selectedColorChanged(std::optional<QColor> color);
    // Another surface is selected (measurements follow it).
    void selectionChanged();
    // Any surface changed (added, removed, edited, selected, reset) or the transfer function
    // that colours some of them did: sliceContours() may differ.
    void surfacesChanged();
    // A status-bar message (a refused remove).
    void message(const QString& text);

private:
    void onListChanged(SurfaceList::Change change, std::uint32_t id);
    void rebuildItems();
    void updateItem(QTreeWidgetItem* item, const Surface& surface);
    void updateControls();
    void pushLayers();
    void onItemChanged(QTreeWidgetItem* item, int column);
    void chooseColor();

    SurfaceList m_list;
    IsovaluePanel* m_isovalue = nullptr;
    TransferFunctionPanel* m_tf = nullptr;
    ViewportWidget* m_view = nullptr;
    QUndoStack* m_undoStack = nullptr;

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
