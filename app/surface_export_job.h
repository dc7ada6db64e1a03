// The work behind File > Export Surface, apart from the window that starts it: checking the
// export before anything is written, and writing a captured surface (prepared for printing
// first when steps ask for it) on a background task.
//
// Example:
//   checkSurfaceExport(steps, options, volume->geometry());          // GUI thread, may throw
//   task.start([=](TaskContext& c) { *report = writeCapturedSurface(surface, *volume, options,
//                                                                   steps, path, c); });
#pragma once

#include "background_task.h"
#include "frame_worker.h"
#include "mesh_export/mesh_export.h"
#include "mesh_processing/print_preparation.h"
#include "volume/volume.h"

#include <optional>
#include <string>

namespace isoview::app {

// Fails now rather than after a slow preparation: bad steps, or voxel coordinates that a
// prepared mesh of this stack cannot be written in (per-slice origins). Throws isoview::Error.
void checkSurfaceExport(const PrintSteps& steps, const MeshExportOptions& options,
                        const VolumeGeometry& geometry);

// Writes surface to path (all or nothing, through the mesh writers), first running the print
// preparation steps when any is set; progress and cancel through context. Returns what the
// preparation changed, or nothing when no step ran. Thread: any (no Qt, no GL). Throws
// isoview::Error, CancelledError.
std::optional<PrintReport> writeCapturedSurface(const CapturedSurface& surface,
                                                const Volume& volume,
                                                const MeshExportOptions& options,
                                                const PrintSteps& steps, const std::string& path,
                                                TaskContext& context);

} // namespace isoview::app
