// The Labels dock: the segmentation's labels, one row each (shown, colour, number, name,
// voxels, volume in mL), filtered by name or number as the user types, so an atlas of hundreds
// of labels stays usable. Show all, Hide all and Isolate act on the listed rows; Colour… and
// the opacity slider on the selected ones; a row's check box shows or hides its label. Every
// edit is one undo step on the model's history (LabelStylesCommand); an opacity drag is one.
// Selecting a row selects the label in the scene, and a label selected elsewhere (a click in a
// slice view) selects its row. Smoothing (sigma in mm, 0: off) blurs every label's surface as 3D
// Slicer's segment smoothing does; LabelSmoothingJob makes it in the background, with progress
// under the spin box, and each change is one undo step.
//
// Thread: GUI only. The model outlives the panel.
#pragma once

#include "scene_model.h"

#include <QWidget>
#include <cstdint>
#include <map>
#include <memory>

class QDoubleSpinBox;
class QLabel;
class QProgressBar;
class QLineEdit;
class QPushButton;
class QSlider;
class QTreeWidget;
class QTreeWidgetItem;

namespace isoview::app {

class LabelsPanel : public QWidget {
    Q_OBJECT
public:
    explicit LabelsPanel(SceneModel* scene, QWidget* parent = nullptr);

    // The rows listed now (the filter's), for tests and the status line.
    int listedRows() const;

private:
    void onSceneChanged(SceneChanges what);
    void rebuild();       // a new label map: every row anew
    void rename();        // a new table for the same label map: the rows' names and styles
    void refreshStyles(); // styles or selection changed: check boxes, swatches, slider
    void applyFilter();
    void onItemChanged(QTreeWidgetItem* item, int column);
    void onSelectionChanged();
    // Pushes one undo step setting these labels' styles.
    void pushStyles(const std::map<std::uint32_t, LabelStyle>& after, const QString& text,
                    int mergeKey = -1);
    // Shows (or hides) the listed rows' labels; isolate: the selected shown, every other hidden.
    void showListed(bool shown);
    void isolateSelected();
    void chooseColor();
    void onOpacity(int percent);
    void onSmoothing(double sigmaMm);
    void refreshSmoothing(); // the spin box's value and range from the layer
    std::vector<std::uint32_t> selectedLabels() const;

    SceneModel* m_scene;
    QLineEdit* m_filter;
    QTreeWidget* m_tree;
    QLabel* m_summary;
    QPushButton* m_colorButton;
    QSlider* m_opacity;
    QDoubleSpinBox* m_smoothing;
    QProgressBar* m_smoothingProgress;
    class LabelSmoothingJob* m_smoothingJob;
    std::map<std::uint32_t, QTreeWidgetItem*> m_rows;
    std::map<std::uint32_t, LabelStyle> m_rowStyles; // the style each row shows
    // What the rows were built from: a new label map or table rebuilds them.
    std::shared_ptr<const Volume> m_builtFrom;
    LabelTable m_builtTable;
    bool m_updating = false; // the panel is setting its own widgets: no edits from them
};

} // namespace isoview::app
