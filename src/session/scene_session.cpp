#include "session/scene_session.h"

#include "core/error.h"
#include "extraction/smoothed_label_surfaces.h"

#include <glm/glm.hpp>

#include <algorithm>
#include <array>
#include <utility>

namespace isoview {
namespace {

constexpr std::array<std::pair<ViewArrangement, std::string_view>, 3> kArrangementNames = {{
    {ViewArrangement::Grid2x2, "2x2"},
    {ViewArrangement::Row1x3, "1x3"},
    {ViewArrangement::ThreeDOnly, "3d"},
}};

void note(std::vector<std::string>* notes, std::string text)
{
    if (notes) notes->push_back(std::move(text));
}

} // namespace

std::string_view arrangementName(ViewArrangement arrangement)
{
    for (const auto& [a, name] : kArrangementNames)
        if (a == arrangement) return name;
    return "2x2";
}

Session sessionFromScene(const Scene& scene, const SessionVolume& volume)
{
    Session s;
    s.volume = volume;
    const SurfaceList& surfaces = scene.surfaces;
    s.isovalue = scene.liveIsovalue();
    s.surfaces = surfaces.surfaces();
    for (Surface& surface : s.surfaces)
        surface.id = 0; // a session names surfaces by position
    s.selectedSurface = surfaces.selectedIndex();
    // The selected surface's colour, for readers that know one surface.
    s.surfaceColor = surfaces.selected().color;
    if (scene.distancePoints.size() == 2)
        s.distance = std::array<glm::dvec3, 2>{scene.distancePoints[0], scene.distancePoints[1]};
    s.transferFunction = scene.transferFunction;
    s.camera = scene.camera.pose();
    if (scene.volume && scene.cropBox() != VoxelBox::whole(scene.volume->dims()))
        s.crop = scene.cropBox();
    s.renderMode = scene.renderMode;
    s.orientationMarker = scene.orientationMarker;
    SessionSliceViews slices;
    slices.layout = std::string(arrangementName(scene.slices.arrangement));
    slices.windowCenter = scene.slices.window.center;
    slices.windowWidth = scene.slices.window.width;
    slices.crosshair = scene.slices.crosshair;
    s.sliceViews = slices;
    if (scene.labels && !scene.labels->source.empty()) {
        const LabelLayer& l = *scene.labels;
        s.labels = SessionLabels{l.source, l.tableSource, l.styles, l.selected, l.smoothingSigmaMm};
    }
    return s;
}

void applySessionLabels(const SessionLabels& saved, LabelLayer& layer,
                        std::vector<std::string>* notes)
{
    std::size_t missing = 0;
    for (const auto& [label, style] : saved.styles) {
        auto found = layer.styles.find(label);
        if (found == layer.styles.end()) {
            ++missing;
            continue;
        }
        found->second = style;
    }
    if (missing > 0) {
        note(notes, "session: " + std::to_string(missing) +
                        " styled label(s) are not in the label map any more");
    }
    layer.selected =
        saved.selected && layer.styles.contains(*saved.selected) ? saved.selected : std::nullopt;
    const double most = maxLabelSmoothingSigmaMm(layer.labelMap->geometry());
    layer.smoothingSigmaMm = std::min(saved.smoothingSigmaMm, most);
    if (saved.smoothingSigmaMm > most)
        note(notes, "session: label smoothing limited to " + std::to_string(most) +
                        " mm, the most this label map's grid allows");
}

Scene sceneFromSession(const Session& session, const Scene& current,
                       std::vector<std::string>* notes)
{
    Scene scene = current;
    const Volume* volume = current.volume.get();
    if (volume && !session.volume.seriesUid.empty() &&
        session.volume.seriesUid != volume->metadata().seriesInstanceUid) {
        note(notes, "session: series " + std::to_string(session.volume.seriesIndex.value_or(0)) +
                        " is now " + volume->metadata().seriesInstanceUid + ", not " +
                        session.volume.seriesUid + " as when the session was saved");
    }
    // A session read from a file always has surfaces; one built in code may have none: then
    // its isovalue and surface colour make the one surface.
    std::vector<Surface> surfaces = session.surfaces;
    std::size_t selected = session.selectedSurface;
    if (surfaces.empty()) {
        surfaces = {Surface{0, "Surface 1", session.isovalue, session.surfaceColor, 1.0f, true}};
        selected = 0;
    }
    try {
        scene.surfaces.reset(surfaces, selected);
    } catch (const Error& e) {
        scene.surfaces.setIsovalue(scene.surfaces.selected().id, session.isovalue);
        note(notes, std::string("session: its surfaces were not applied: ") + e.what());
    }
    if (session.crop) {
        if (volume && session.crop->fitsIn(volume->dims()))
            scene.crop = *session.crop;
        else
            note(notes, "session: the crop box does not fit the volume; not applied");
    }
    if (session.transferFunction.size() > 0) scene.transferFunction = session.transferFunction;
    scene.renderMode = session.renderMode;
    scene.orientationMarker = session.orientationMarker;
    scene.distancePoints.clear();
    if (session.distance) scene.distancePoints = {(*session.distance)[0], (*session.distance)[1]};
    if (session.sliceViews) {
        const SessionSliceViews& slices = *session.sliceViews;
        for (const auto& [arrangement, name] : kArrangementNames)
            if (name == slices.layout) scene.slices.arrangement = arrangement;
        if (slices.windowCenter && slices.windowWidth)
            scene.slices.window = {*slices.windowCenter, *slices.windowWidth};
        if (slices.crosshair && volume) {
            const glm::dvec3 last = glm::dvec3(volume->dims() - glm::uvec3(1));
            scene.slices.crosshair = glm::clamp(*slices.crosshair, glm::dvec3(0.0), last);
        }
    }
    if (session.camera) {
        // The camera is fitted to this volume already: the pose keeps its bounds.
        scene.camera.setProjection(session.camera->projection);
        scene.camera.setPose(*session.camera);
    }
    return scene;
}

} // namespace isoview
