// A viewer session: which volume was open (and how it was loaded), the isovalue, the transfer
// function, the camera, the crop box and the view's toggles, saved as versioned JSON so that
// opening it brings the window back to the same picture. Pure data, no GL and no Qt.
//
// JSON, version 1 (every section but "volume" and "isovalue" or "surfaces" optional; unknown
// keys ignored with a warning, so a later version-1 writer may add fields):
//   {"format": "isoview-session", "version": 1,
//    "volume": {"path": "scans/head.nhdr", "absolutePath": "/data/scans/head.nhdr",
//               "folder": false, "series": 0, "seriesUid": "1.2.3",
//               "raw": {"dims": [X, Y, Z], "type": "int16", "bigEndian": false,
//                       "spacing": [1, 1, 1], "headerOffset": 0}},
//    "isovalue": 40.0,
//    "surfaces": [{"name": "Skin", "isovalue": -500, "color": [r, g, b], "opacity": 0.4,
//                  "visible": true}, ...],
//    "selectedSurface": 0,
//    "transferFunction": {... transfer_function.h's JSON ...},
//    "camera": {"target": [x, y, z], "distance": 412.5, "orientation": [w, x, y, z],
//               "projection": "perspective" | "orthographic"},
//    "crop": {"first": [i, j, k], "last": [i, j, k]},
//    "view": {"mode": "surface" | "volume" | "both" | "mip" | "minip" | "average",
//             "orientationMarker": true,
//             "surfaceColor": [r, g, b]},
//    "sliceViews": {"layout": "2x2", "windowCenter": 40, "windowWidth": 400,
//                   "crosshair": [i, j, k]},
//    "measurements": {"distance": [[x, y, z], [x, y, z]]},
//    "labels": {"path": "seg.nrrd", "absolutePath": "/data/seg.nrrd",
//               "table": {"path": "names.txt", "absolutePath": "/data/names.txt"},
//               "styles": [{"label": 3, "color": [r, g, b], "opacity": 1, "visible": true}, ...],
//               "smoothingSigmaMm": 0.5,
//               "selected": 3}}
// Surfaces: "surfaces" wins over "isovalue" and "view" "surfaceColor" when both are present
// (the writer writes all three, the latter two from the selected surface, so that an isoview
// that knows one surface opens the selected one). Without "surfaces" the session has one
// surface, "Surface 1", at "isovalue" in "surfaceColor". A surface without "color" takes the
// transfer function's colour at its isovalue; "opacity" (default 1) and colour components lie
// in 0..1; "selectedSurface" (default 0) indexes "surfaces". The distance's two points are
// patient millimetres (measurements.h's DistanceTool). "labels" is a label map laid over the
// volume (scene/label_layer.h), its table when one was opened, and each label's style; labels
// from 1 to 65535, each once.
// "path" is relative to the session file's folder (so a session moved with its data still
// finds it); "absolutePath" is where it was when saved (so a session moved alone still finds
// it). Reading takes the first of the two that exists.
//
// Threads: values; the functions are reentrant. Cost: a few kilobytes of text.
//
// Example:
//   saveSession("head.isoview", session);
//   std::vector<std::string> warnings;
//   Session again = loadSession("head.isoview", &warnings);
#pragma once

#include "extraction/voxel_box.h"
#include "io/volume_loader.h"
#include "scene/orbit_camera.h"
#include "scene/scene.h"
#include "scene/surface_list.h"
#include "scene/transfer_function.h"

#include <glm/glm.hpp>

#include <array>
#include <cstddef>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace isoview {

// Where the volume came from and what loading it needed beyond its path.
struct SessionVolume {
    std::filesystem::path path; // absolute in memory; written relative to the session
    bool folder = false;        // a DICOM or raw slice folder rather than a file
    // DICOM series or NIfTI volume (index into openSource's series list; of a series of volumes
    // on one grid, the time point shown, which the others open around) and, for DICOM, the
    // SeriesInstanceUID it had, so a changed folder can be told apart.
    std::optional<std::size_t> seriesIndex;
    std::string seriesUid;
    std::optional<io::RawVolumeParameters> raw; // raw data whose layout the user gave
};

// The slice views' part: layout, window/level (real units) and the crosshair, in voxel index
// space (which also fixes the three slices shown).
struct SessionSliceViews {
    std::string layout; // "2x2", "1x3" or "3d"; empty: the viewer's own
    std::optional<double> windowCenter;
    std::optional<double> windowWidth; // > 0
    std::optional<glm::dvec3> crosshair;
    bool operator==(const SessionSliceViews&) const = default;
};

// A label map laid over the volume: where it and its table came from, and each label's style.
struct SessionLabels {
    std::filesystem::path path;                 // absolute in memory; written relative too
    std::optional<std::filesystem::path> table; // the table file opened for it, if any
    std::map<std::uint32_t, LabelStyle> styles;
    std::optional<std::uint32_t> selected;
    double smoothingSigmaMm = 0.0; // LabelLayer::smoothingSigmaMm ("smoothingSigmaMm")
};

struct Session {
    SessionVolume volume;
    double isovalue = 0.0; // real units (HU for CT); the selected surface's when there are any
    // The isosurfaces (ids are not saved: 0 here). Read sessions always have at least one;
    // written ones without any are written as the one surface of isovalue and surfaceColor.
    std::vector<Surface> surfaces;
    std::size_t selectedSurface = 0; // index into surfaces
    TransferFunction transferFunction;
    std::optional<OrbitCamera::Pose> camera;
    std::optional<VoxelBox> crop; // none: the whole volume
    RenderMode renderMode = RenderMode::Surface;
    bool orientationMarker = true;
    std::optional<glm::vec3> surfaceColor; // linear RGB in [0, 1]; none: the transfer function's
    std::optional<SessionSliceViews> sliceViews;
    // The distance measured between two points (patient mm); none: nothing measured.
    std::optional<std::array<glm::dvec3, 2>> distance;
    std::optional<SessionLabels> labels; // none: no label map
};

// The file name extension of session files, with its dot.
inline constexpr std::string_view kSessionExtension = ".isoview";

// JSON text for a session saved at sessionFile (the volume path is written relative to its
// folder, and absolute). Throws InvalidInputError when a value cannot be written (a
// non-finite isovalue, camera or colour; an empty volume path; a surface without a name, with a
// colour or opacity outside 0..1; a selected surface out of range).
std::string sessionToJson(const Session& session, const std::filesystem::path& sessionFile);
// Reads JSON text as if it were the file sessionFile (relative paths resolve against its
// folder). Throws InvalidInputError naming the key and what is wrong: not JSON (with line and
// column), not a session, a version other than 1 (a newer one named as such), a missing
// "volume" or "isovalue", a wrong type, a number out of range. Unknown keys are ignored and
// described in *warnings when given.
Session sessionFromJson(std::string_view json, const std::filesystem::path& sessionFile,
                        std::vector<std::string>* warnings = nullptr);

// Writes atomically (AtomicFileWriter: never a partial file, never over an open volume's
// file). Throws IoError naming the path, InvalidInputError as sessionToJson.
void saveSession(const std::filesystem::path& path, const Session& session);
// Reads through InputFile (a FIFO or device is refused, not waited on; over 16 MiB is refused).
// Throws IoError when it cannot be read, InvalidInputError (naming the file) when its content
// is wrong.
Session loadSession(const std::filesystem::path& path,
                    std::vector<std::string>* warnings = nullptr);

} // namespace isoview
