// The work behind File > Export Surface, apart from the window that starts it: checking the
// export before anything is written, and writing a captured surface (prepared for printing
// first when steps ask for it) on a background task.
//
// Example:
//   checkSurfaceExport(steps, options, volume->geometry());          // GUI thread, may throw
//   task.start([=](TaskContext& c) { *report = writeCapturedSurface(surface, *volume, options,
//                                                                   steps, path, c); });
#pragma once

#include "common/background_task.h"
#include "mesh_export/mesh_export.h"
#include "mesh_processing/print_preparation.h"
#include "views/frame_worker.h"
#include "volume/label_statistics.h"
#include "volume/volume.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace isoview::app {

// Fails now rather than after a slow preparation: bad steps, voxel coordinates that a prepared
// mesh of this stack cannot be written in (per-slice origins), or 3MF in voxel coordinates. Throws
// isoview::Error.
void checkSurfaceExport(const PrintSteps& steps, const MeshExportOptions& options,
                        const VolumeGeometry& geometry);

// Writes surface to path (all or nothing, through the mesh writers), first running the print
// preparation steps when any is set; progress and cancel through context. Without steps, the
// surface's zero-area triangles are dropped first, in place (coincident_vertices.h), so its
// triangle count is then the file's. Returns what the preparation changed, or nothing when no
// step ran. Thread: any (no Qt, no GL). Throws isoview::Error, CancelledError.
std::optional<PrintReport> writeCapturedSurface(CapturedSurface& surface, const Volume& volume,
                                                const MeshExportOptions& options,
                                                const PrintSteps& steps, const std::string& path,
                                                TaskContext& context);

// ---- File > Export All Surfaces ------------------------------------------------------------

// A label map's label as an export of all prepares it (export_all_preparation.h): its voxels'
// statistics, and the smoothing its surface was made with (0: the voxels' own surface).
struct SurfaceLabel {
    LabelInfo info;
    double smoothingSigmaMm = 0.0;
};

// One surface of an export of all: its name, its captured mesh and the colour it is drawn in
// (linear RGB in [0, 1]); for a label, which one.
struct NamedSurface {
    std::string name;
    CapturedSurface surface;
    glm::vec3 color{1.0f};
    std::optional<SurfaceLabel> label;
};

// The files an export of all writes, one per name: folder / pattern with "{volume}",
// "{surface}" and "{n}" (1-based) replaced, then the format's extension. Characters a file
// name cannot hold ('/', NUL, control characters) become '_'. Throws InvalidInputError when the
// pattern is empty or two surfaces would get the same file (a pattern without {surface} or {n}).
std::vector<std::filesystem::path> surfaceFilePaths(const std::filesystem::path& folder,
                                                    const std::string& pattern,
                                                    const std::string& volumeName,
                                                    const std::vector<std::string>& names,
                                                    MeshFormat format);

// Throws IoError naming the first of paths that exists: an export of all never replaces a file
// it did not write. Checked before a slow preparation, and again before writing.
void refuseExistingFiles(const std::vector<std::filesystem::path>& paths);

// In both writers, geometry is what the meshes' coordinates are mapped through: the volume's
// for captured meshes (index space), VolumeGeometry{} for meshes already in millimetres
// (prepared for printing: export_all_preparation.h).

// Writes surfaces[i] to paths[i], all or nothing: an existing file is refused before anything
// is written (refuseExistingFiles), and the files written before a failure or a cancel are
// removed. Zero-area triangles are dropped first, in place. Progress: records over all files.
// Thread: any. Throws isoview::Error, CancelledError.
void writeSurfaceFiles(std::vector<NamedSurface>& surfaces, const VolumeGeometry& geometry,
                       const MeshExportOptions& options,
                       const std::vector<std::filesystem::path>& paths, TaskContext& context);

// Writes every surface into one file: a PLY (mesh_export/merged_surfaces.h), each vertex in its
// surface's colour, or a 3MF with an object per surface, named and coloured (threemf_writer.h);
// another format is an InvalidInputError. Zero-area triangles are dropped first, in place.
// Atomic like exportMesh. Thread: any. Throws isoview::Error, CancelledError.
void writeMergedSurfaces(std::vector<NamedSurface>& surfaces, const VolumeGeometry& geometry,
                         const MeshExportOptions& options, const std::filesystem::path& path,
                         TaskContext& context);

} // namespace isoview::app
