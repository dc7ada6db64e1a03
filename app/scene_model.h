// The window's one Scene (scene/scene.h) and the only way to change it. Panels, tools and
// controllers edit it here (the undoable edits through the undo commands of their folders,
// pushed on history(), which call these setters) and learn of every change from changed():
// nobody else keeps a value that lives in the scene. The 3D view copies the whole scene into each
// frame request; sessions are saved from it and restored into it.
//
// Every setter validates first (InvalidInputError, the scene unchanged), does nothing and tells
// nobody when the value is already the scene's, else changes the scene and emits changed() once
// with what changed. The surfaces' finer news (which surface was added, removed, edited or
// selected) also comes as surfacesChanged(), for the Surfaces dock.
//
// Thread: GUI only. Owned by the MainWindow; whatever edits or watches it is given a pointer at
// construction and does not outlive it.
//
// Example:
//   SceneModel model;
//   connect(&model, &SceneModel::changed, view, [&](SceneChanges what) {
//       if (what & SceneChange::Isovalue) view->update();
//   });
//   model.setLiveIsovalue(320.0); // HU
#pragma once

#include "scene/scene.h"

#include <QFlags>
#include <QObject>
#include <QUndoStack>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <vector>

namespace isoview::app {

enum class SceneChange : unsigned {
    Volume = 1u << 0,   // a new volume (and with it every other part below)
    Surfaces = 1u << 1, // added, removed, renamed, recoloured, shown, hidden or selected
    Isovalue = 1u << 2, // a surface's isovalue (a slider drag changes only the live one's)
    Crop = 1u << 3,
    TransferFunction = 1u << 4,
    Camera = 1u << 5,
    Display = 1u << 6, // render mode, orientation marker
    Slices = 1u << 7,  // arrangement, crosshair, window, planes in 3D
    Distance = 1u << 8,
    Labels = 1u << 9,     // a label map opened or closed, its table, a label's style or selection
    TimePoint = 1u << 10, // another volume of the series on the same grid: new values only
};
Q_DECLARE_FLAGS(SceneChanges, SceneChange)

inline constexpr SceneChanges kEverySceneChange = SceneChanges::fromInt(0x7ff);

class SceneModel : public QObject {
    Q_OBJECT
public:
    explicit SceneModel(QObject* parent = nullptr);

    const Scene& scene() const { return m_scene; }
    bool hasVolume() const { return m_scene.volume != nullptr; }
    // The edit history (one per volume): transfer-function, crop and surface edits.
    QUndoStack* history() { return &m_history; }

    // A new volume with the surfaces and transfer function it opens with: the crop and the
    // distance are cleared, the camera is fitted to the volume at its home view (projection
    // kept), the slice views go to its centre with its default window (arrangement and planes
    // kept), and the history is cleared. Throws InvalidInputError for a null volume or an
    // invalid surface list (nothing changes then).
    // series: the volume's series on its grid, if it has one (volume is its time point
    // timePoint).
    void openVolume(std::shared_ptr<const Volume> volume, const std::vector<Surface>& surfaces,
                    std::size_t selected, const TransferFunction& tf,
                    std::shared_ptr<const VolumeSeries> series = nullptr,
                    std::size_t timePoint = 0);
    // Shows time point t of the series (t clamped to it): the volume's values change, all else
    // stays; changed(TimePoint). Not an undoable edit. Nothing without a series.
    void setTimePoint(std::size_t t);
    // Replaces the whole scene but its volume (a restored session: scene.volume must be this
    // one's) and clears the history: a restored session has nothing to undo.
    void restore(const Scene& scene);

    // Surfaces; ids name a surface across edits (surface_list.h).
    std::uint32_t addSurface(double isovalue);
    void insertSurface(std::size_t index, const Surface& surface);
    bool removeSurface(std::uint32_t id);
    // Sets the name, colour, opacity and visibility of the surface `values.id` names (its
    // isovalue is setIsovalue's).
    void editSurface(const Surface& values);
    void setIsovalue(std::uint32_t id, double isovalue); // real units
    void setLiveIsovalue(double isovalue);               // the selected surface's
    void selectSurface(std::uint32_t id);

    // Clamped into the volume; the whole volume is stored as none.
    void setCrop(const VoxelBox& box);
    void setTransferFunction(const TransferFunction& tf);
    // Camera moves (drags, standard views, zoom, fit, projection) edit the camera in place.
    void editCamera(const std::function<void(OrbitCamera&)>& edit);
    void setRenderMode(RenderMode mode);
    void setOrientationMarker(bool shown);
    void setSlices(const SliceViews& slices);
    // 0, 1 or 2 points in physical millimetres.
    void setDistancePoints(const std::vector<glm::dvec3>& points);

    // Label maps (scene/label_layer.h). setLabels lays a segmentation over the volume (its
    // label map on the volume's grid) or removes it (nullopt); not undoable, like opening a
    // volume: the label edits in the history go with it. Throws InvalidInputError without a
    // volume or for a label map of another grid.
    void setLabels(std::optional<LabelLayer> layer);
    // Every label's style at once (one edit: a check box, a colour, show all, isolate); labels
    // the map lacks are refused (InvalidInputError).
    void setLabelStyles(const std::map<std::uint32_t, LabelStyle>& styles);
    // The names and colours of a table read from `source` (the styles take its colours;
    // visibility is kept).
    void setLabelTable(const LabelTable& table,
                       const std::optional<std::filesystem::path>& source = std::nullopt);
    void selectLabel(std::optional<std::uint32_t> label);
    // The Gaussian smoothing of every label (sigma, mm; 0: off, which drops the smoothed
    // surfaces). Throws InvalidInputError without a label map or for a sigma the grid refuses
    // (validateLabelSmoothing). The surfaces are made elsewhere (LabelSmoothingJob).
    void setLabelSmoothing(double sigmaMm);
    // Smoothed surfaces made for the label map; taken only while they are still what the layer
    // asks for (its map, sigma and the crop), so a late result of an earlier request is dropped.
    // Returns whether they were taken.
    bool setSmoothedLabels(std::shared_ptr<const SmoothedLabelSurfaces> smoothed);

signals:
    void changed(isoview::app::SceneChanges what);
    void surfacesChanged(isoview::SurfaceList::Change change, std::uint32_t id);

private:
    void onListChanged(SurfaceList::Change change, std::uint32_t id);
    void emitChanged(SceneChanges what);
    // Runs edit with every change it makes gathered into one changed() at its end (`what`
    // when given, else what was gathered); nothing is emitted when it throws.
    template <class Edit> void batched(Edit&& edit, std::optional<SceneChanges> what = {});

    Scene m_scene;
    QUndoStack m_history;
    bool m_batching = false;
    SceneChanges m_batched;
    bool m_isovalueEdit = false; // setIsovalue is running: the list's edit is an isovalue
};

} // namespace isoview::app

Q_DECLARE_OPERATORS_FOR_FLAGS(isoview::app::SceneChanges)
