#include "scene_model.h"

#include "core/error.h"
#include "extraction/smoothed_label_surfaces.h"

#include <algorithm>
#include <string>
#include <utility>

namespace isoview::app {

SceneModel::SceneModel(QObject* parent) : QObject(parent)
{
    m_scene.surfaces.setListener(
        [this](SurfaceList::Change change, std::uint32_t id) { onListChanged(change, id); });
}

void SceneModel::emitChanged(SceneChanges what)
{
    if (m_batching)
        m_batched |= what;
    else if (what)
        emit changed(what);
}

template <class Edit> void SceneModel::batched(Edit&& edit, std::optional<SceneChanges> what)
{
    m_batching = true;
    m_batched = {};
    try {
        edit();
    } catch (...) {
        m_batching = false;
        throw;
    }
    m_batching = false;
    emitChanged(what.value_or(m_batched));
}

void SceneModel::onListChanged(SurfaceList::Change change, std::uint32_t id)
{
    emit surfacesChanged(change, id);
    // An isovalue edit is its own kind of change: a slider drag re-extracts the live surface
    // and nothing else.
    emitChanged(change == SurfaceList::Change::Edited && m_isovalueEdit
                    ? SceneChanges(SceneChange::Isovalue)
                    : SceneChanges(SceneChange::Surfaces));
}

void SceneModel::openVolume(std::shared_ptr<const Volume> volume,
                            const std::vector<Surface>& surfaces, std::size_t selected,
                            const TransferFunction& tf, std::shared_ptr<const VolumeSeries> series,
                            std::size_t timePoint)
{
    if (!volume) throw InvalidInputError("no volume to open");
    if (series && series->indexOf(volume.get()) != timePoint)
        throw InvalidInputError("the volume is not the series' time point it is said to be");
    batched(
        [&] {
            m_scene.surfaces.reset(surfaces, selected); // throws before anything changed
            m_scene.volume = std::move(volume);
            m_scene.series = std::move(series);
            m_scene.timePoint = m_scene.series ? timePoint : 0;
            m_scene.transferFunction = tf;
            m_scene.crop.reset();
            m_scene.distancePoints.clear();
            m_scene.labels.reset(); // a segmentation belongs to its volume's grid
            const Volume& v = *m_scene.volume;
            m_scene.camera.fitTo(volumeBounds(v.geometry(), v.dims()));
            m_scene.camera.reset(); // the home view: anterior, or a slab face on
            m_scene.slices.crosshair = glm::dvec3(v.dims() / 2u);
            m_scene.slices.window = defaultWindowLevel(v);
            m_history.clear();
        },
        kEverySceneChange);
}

void SceneModel::setTimePoint(std::size_t t)
{
    if (!m_scene.series) return;
    t = std::min(t, m_scene.series->size() - 1);
    if (t == m_scene.timePoint) return;
    batched([&] { m_scene.showTimePoint(t); }, SceneChanges(SceneChange::TimePoint));
}

void SceneModel::restore(const Scene& scene)
{
    batched(
        [&] {
            m_scene.surfaces.reset(scene.surfaces.surfaces(), scene.surfaces.selectedIndex());
            m_scene.crop = scene.crop;
            m_scene.transferFunction = scene.transferFunction;
            m_scene.camera = scene.camera;
            m_scene.renderMode = scene.renderMode;
            m_scene.orientationMarker = scene.orientationMarker;
            m_scene.slices = scene.slices;
            m_scene.distancePoints = scene.distancePoints;
            m_scene.labels = scene.labels;
            m_history.clear();
        },
        kEverySceneChange & ~SceneChanges(SceneChange::Volume));
}

std::uint32_t SceneModel::addSurface(double isovalue)
{
    std::uint32_t id = 0;
    batched([&] { id = m_scene.surfaces.add(isovalue); });
    return id;
}

void SceneModel::insertSurface(std::size_t index, const Surface& surface)
{
    m_scene.surfaces.insert(index, surface);
}

bool SceneModel::removeSurface(std::uint32_t id)
{
    bool removed = false;
    batched([&] { removed = m_scene.surfaces.remove(id); });
    return removed;
}

void SceneModel::editSurface(const Surface& values)
{
    const Surface* s = m_scene.surfaces.find(values.id);
    if (!s) throw InvalidInputError("no surface with id " + std::to_string(values.id));
    Surface checked = values;
    checked.isovalue = s->isovalue;
    checkSurfaceValues(checked); // all or nothing: the setters below cannot throw now
    batched([&] {
        m_scene.surfaces.rename(values.id, values.name);
        m_scene.surfaces.setColor(values.id, values.color);
        m_scene.surfaces.setOpacity(values.id, values.opacity);
        m_scene.surfaces.setVisible(values.id, values.visible);
    });
}

void SceneModel::setIsovalue(std::uint32_t id, double isovalue)
{
    m_isovalueEdit = true;
    try {
        m_scene.surfaces.setIsovalue(id, isovalue);
    } catch (...) {
        m_isovalueEdit = false;
        throw;
    }
    m_isovalueEdit = false;
}

void SceneModel::setLiveIsovalue(double isovalue)
{
    setIsovalue(m_scene.surfaces.selected().id, isovalue);
}

void SceneModel::selectSurface(std::uint32_t id)
{
    m_scene.surfaces.select(id);
}

void SceneModel::setCrop(const VoxelBox& requested)
{
    if (!m_scene.volume) return;
    const glm::uvec3 dims = m_scene.volume->dims();
    VoxelBox box;
    box.last = glm::min(requested.last, dims - 1u);
    box.first = glm::min(requested.first, box.last);
    const std::optional<VoxelBox> crop =
        box == VoxelBox::whole(dims) ? std::nullopt : std::optional(box);
    if (crop == m_scene.crop) return;
    m_scene.crop = crop;
    emitChanged(SceneChange::Crop);
}

void SceneModel::setTransferFunction(const TransferFunction& tf)
{
    if (tf == m_scene.transferFunction) return;
    m_scene.transferFunction = tf;
    emitChanged(SceneChange::TransferFunction);
}

void SceneModel::editCamera(const std::function<void(OrbitCamera&)>& edit)
{
    edit(m_scene.camera);
    emitChanged(SceneChange::Camera);
}

void SceneModel::setRenderMode(RenderMode mode)
{
    if (mode == m_scene.renderMode) return;
    m_scene.renderMode = mode;
    emitChanged(SceneChange::Display);
}

void SceneModel::setOrientationMarker(bool shown)
{
    if (shown == m_scene.orientationMarker) return;
    m_scene.orientationMarker = shown;
    emitChanged(SceneChange::Display);
}

void SceneModel::setSlices(const SliceViews& slices)
{
    if (!(slices.window.width > 0.0))
        throw InvalidInputError("the slice window's width must be positive");
    if (slices == m_scene.slices) return;
    m_scene.slices = slices;
    emitChanged(SceneChange::Slices);
}

void SceneModel::setLabels(std::optional<LabelLayer> layer)
{
    if (layer) {
        if (!m_scene.volume) throw InvalidInputError("a label map lies over a volume: open one");
        if (!layer->labelMap || !layer->statistics ||
            layer->labelMap->dims() != m_scene.volume->dims()) {
            throw InvalidInputError("the label map is not on the volume's grid");
        }
    }
    if (!layer && !m_scene.labels) return;
    m_scene.labels = std::move(layer);
    m_history.clear(); // label edits named labels of the map that goes
    emitChanged(SceneChange::Labels);
}

void SceneModel::setLabelStyles(const std::map<std::uint32_t, LabelStyle>& styles)
{
    if (!m_scene.labels) throw InvalidInputError("no label map");
    for (const auto& [label, style] : styles) {
        if (!m_scene.labels->styles.contains(label)) {
            throw InvalidInputError("label " + std::to_string(label) + " is not in the label map");
        }
        if (!(style.opacity >= 0.0f && style.opacity <= 1.0f))
            throw InvalidInputError("a label's opacity lies in 0 .. 1");
    }
    std::map<std::uint32_t, LabelStyle> next = m_scene.labels->styles;
    for (const auto& [label, style] : styles)
        next[label] = style;
    if (next == m_scene.labels->styles) return;
    m_scene.labels->styles = std::move(next);
    emitChanged(SceneChange::Labels);
}

void SceneModel::setLabelSmoothing(double sigmaMm)
{
    if (!m_scene.labels) throw InvalidInputError("no label map");
    validateLabelSmoothing(sigmaMm, m_scene.labels->labelMap->geometry());
    if (sigmaMm == m_scene.labels->smoothingSigmaMm) return;
    m_scene.labels->smoothingSigmaMm = sigmaMm;
    if (sigmaMm == 0.0) m_scene.labels->smoothed.reset();
    emitChanged(SceneChange::Labels);
}

bool SceneModel::setSmoothedLabels(std::shared_ptr<const SmoothedLabelSurfaces> smoothed)
{
    if (!m_scene.labels || !smoothed) return false;
    if (!m_scene.labels->wantsSmoothing(*smoothed, m_scene.cropBox())) return false;
    m_scene.labels->smoothed = std::move(smoothed);
    emitChanged(SceneChange::Labels);
    return true;
}

void SceneModel::setLabelTable(const LabelTable& table,
                               const std::optional<std::filesystem::path>& source)
{
    if (!m_scene.labels) throw InvalidInputError("no label map");
    LabelLayer& layer = *m_scene.labels;
    if (table == layer.table && source == layer.tableSource) return;
    layer.table = table;
    layer.tableSource = source;
    for (auto& [label, style] : layer.styles)
        style.color = glm::vec3(table.colorOf(label));
    emitChanged(SceneChange::Labels);
}

void SceneModel::selectLabel(std::optional<std::uint32_t> label)
{
    if (!m_scene.labels) return;
    if (label && !m_scene.labels->styles.contains(*label)) return; // background, or none
    if (label == m_scene.labels->selected) return;
    m_scene.labels->selected = label;
    emitChanged(SceneChange::Labels);
}

void SceneModel::setDistancePoints(const std::vector<glm::dvec3>& points)
{
    if (points.size() > 2) throw InvalidInputError("a distance has at most two points");
    if (points == m_scene.distancePoints) return;
    m_scene.distancePoints = points;
    emitChanged(SceneChange::Distance);
}

} // namespace isoview::app
