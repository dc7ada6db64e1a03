// The viewer's scene: everything a frame shows and a session saves, as one value without Qt or
// GL. State has one owner: the app keeps one Scene (app/scene_model.h), which its panels edit
// through undo commands; the 3D view copies it into each frame request; sessions serialize it
// (session/session.h); SceneRenderer::setScene diffs each copy against the one before and does
// only the work the difference asks for (a new live isovalue extracts the live surface, a new
// crop every surface, a new transfer function re-samples the ray caster's table).
//
// Units: every value here is in the volume's REAL units (HU for CT, after the rescale) or in
// the space each field names (voxel index space for the crop box and the crosshair, physical
// millimetres for the distance's points). Stored voxel values never appear above the engine
// (volume/stored_value.h).
//
// Threads: a value; copies are independent (a SurfaceList copy carries the surfaces, not the
// list's listener). Cost: a few surfaces and transfer-function points; copying one per frame
// costs microseconds.
//
// Example:
//   Scene scene = Scene::withSurface(volume, 300.0); // one surface at 300 HU
//   scene.renderMode = RenderMode::SurfaceAndVolume;
//   scene.setLiveIsovalue(320.0);
//   renderer.setScene(scene);
#pragma once

#include "extraction/voxel_box.h"
#include "scene/label_layer.h"
#include "scene/orbit_camera.h"
#include "scene/surface_list.h"
#include "scene/transfer_function.h"
#include "volume/volume.h"
#include "volume/volume_series.h"

#include <glm/glm.hpp>

#include <memory>
#include <optional>
#include <string_view>
#include <vector>

namespace isoview {

// What the 3D view draws: the isosurfaces, direct volume rendering (compositing through the
// transfer function), both composited by depth, or an intensity projection: each ray's maximum
// (MIP), minimum (MinIP) or mean value, grey through the slice views' window. A projection is
// shown alone: a ray's maximum has no depth to composite surfaces by (the slice planes and the
// crop box still clip its rays).
enum class RenderMode {
    Surface,
    Volume,
    SurfaceAndVolume,
    MaximumIntensity,
    MinimumIntensity,
    AverageIntensity
};

// A mode's name in sessions and on command lines: surface, volume, both, mip, minip, average.
std::string_view renderModeName(RenderMode mode);
// The mode of such a name; none for any other text.
std::optional<RenderMode> renderModeFromName(std::string_view name);
// The names, for messages.
inline constexpr std::string_view kRenderModeNameList =
    "surface, volume, both, mip (maximum intensity), minip (minimum) or average";

// Whether a mode draws the isosurfaces; whether it casts rays through the volume.
constexpr bool drawsSurfaces(RenderMode mode)
{
    return mode == RenderMode::Surface || mode == RenderMode::SurfaceAndVolume;
}
constexpr bool drawsVolume(RenderMode mode)
{
    return mode != RenderMode::Surface;
}
// Whether a mode is an intensity projection (MIP, MinIP, average).
constexpr bool isIntensityProjection(RenderMode mode)
{
    return mode == RenderMode::MaximumIntensity || mode == RenderMode::MinimumIntensity ||
           mode == RenderMode::AverageIntensity;
}

// How the window arranges the 3D view and the three slice views.
enum class ViewArrangement { Grid2x2, Row1x3, ThreeDOnly };

// A grey-value window over real values: what the slice views (and their planes in the 3D view)
// show from center - width / 2 (black) to center + width / 2 (white).
struct WindowLevel {
    double center = 40.0; // real units
    double width = 400.0; // real units, > 0
    bool operator==(const WindowLevel&) const = default;
};

// The window a volume's slice views open with: the volume's own (a DICOM window) when it has
// one, else its whole real value range.
WindowLevel defaultWindowLevel(const Volume& volume);

// The slice views: which three slices they show (the nearest voxel planes through the
// crosshair), their window, and whether the 3D view draws those planes too.
struct SliceViews {
    ViewArrangement arrangement = ViewArrangement::Grid2x2;
    glm::dvec3 crosshair{0.0}; // voxel index space
    WindowLevel window;
    bool planesIn3D = false; // drawn only while slice views are shown (not in ThreeDOnly)
    bool operator==(const SliceViews&) const = default;
};

struct Scene {
    // The volume shown; null before the first. The renderer draws the volume it was given
    // through SceneRenderer::setVolume (an upload, which can fail); this is the app's handle.
    std::shared_ptr<const Volume> volume;
    // When the volume is one of a series on one grid (time points, echoes): the series, and
    // which of its volumes `volume` is. Surfaces, crop, camera and slices stay as they are from
    // one time point to the next; the renderer takes the new values and extracts again.
    std::shared_ptr<const VolumeSeries> series;
    std::size_t timePoint = 0;
    // The isosurfaces; the selected one is live: the isovalue panel edits it and the renderer
    // re-extracts it at each new isovalue while the others are drawn from stored meshes.
    SurfaceList surfaces;
    // The cells the surfaces keep and the volume rendering is clipped to (voxel indices,
    // inclusive); none: the whole volume.
    std::optional<VoxelBox> crop;
    TransferFunction transferFunction; // colour and opacity over real values
    OrbitCamera camera;
    RenderMode renderMode = RenderMode::Surface;
    bool orientationMarker = true;
    SliceViews slices;
    // The distance tool's points (0, 1 or 2), physical millimetres (patient LPS for DICOM).
    std::vector<glm::dvec3> distancePoints;
    // A segmentation over the volume, every label its own surface; none without one. The
    // renderer draws the label map it was given through SceneRenderer::setLabelMap.
    std::optional<LabelLayer> labels;

    // A scene of `volume` (may be null) with one surface, "Surface 1", at isovalue (real units)
    // in `color` (none: the transfer function's colour at its isovalue).
    static Scene withSurface(std::shared_ptr<const Volume> volume, double isovalue,
                             std::optional<glm::vec3> color = std::nullopt);

    // The live (selected) surface's isovalue, real units.
    double liveIsovalue() const { return surfaces.selected().isovalue; }
    // Sets it. Throws InvalidInputError for a non-finite value.
    void setLiveIsovalue(double isovalue)
    {
        surfaces.setIsovalue(surfaces.selected().id, isovalue);
    }
    // Shows time point t of the series (volume becomes its volume). Throws InvalidInputError
    // without a series or for t out of range.
    void showTimePoint(std::size_t t);
    // The series' length; 1 without one.
    std::size_t timePointCount() const { return series ? series->size() : 1; }

    // The crop box where it fits the volume, else the whole volume (an empty box without one).
    VoxelBox cropBox() const;
    // Whether the 3D view draws the slice planes: asked for, slice views shown, a volume.
    bool slicePlanesShown() const;
    // The voxel planes the slice views show: the crosshair rounded and clamped to the volume.
    glm::uvec3 sliceIndices() const;
};

} // namespace isoview
