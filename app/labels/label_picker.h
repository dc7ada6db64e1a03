// A click in the 3D view selects the label seen there: the first shown label along the view ray
// through the label map (volume/label_picking.h). A click is a press and release of the left
// button without a drag (a drag orbits the camera as before) and without modifiers; it selects
// nothing where no label is seen, and leaves the click to the view.
//
// Thread: GUI only. The view and the model outlive the picker.
#pragma once

#include "scene_model.h"

#include <QObject>
#include <QPointF>

namespace isoview::app {

class ViewportWidget;

class LabelPicker : public QObject {
    Q_OBJECT
public:
    LabelPicker(ViewportWidget* view, SceneModel* scene);

    // The label seen at a point of the view (widget pixels); nullopt where none is.
    std::optional<std::uint32_t> labelAt(QPointF viewPosition) const;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    ViewportWidget* m_view;
    SceneModel* m_scene;
    std::optional<QPointF> m_pressedAt; // a left press that may become a click
};

} // namespace isoview::app
