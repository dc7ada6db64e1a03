// Print preparation for File > Export All Surfaces and Labels: on the export's background task,
// before the files are written, every surface is prepared as File > Export Surface prepares one
// (prepareMesh at the isovalue and crop it was captured at), and every label as isoview-cli
// prepares one (prepareLabelMesh against the label map: closed against its own voxels, and only
// where it reaches the crop's faces).
//
// Example (in the task's work):
//   refuseExistingFiles(paths);
//   const PreparedSurfaces p = prepareSurfaces(surfaces, volume, labelMap, steps, space, ctx);
//   writeSurfaceFiles(surfaces, p.geometry, options, paths, ctx);
#pragma once

#include "common/background_task.h"
#include "export/surface_export_job.h"
#include "mesh_processing/print_preparation.h"
#include "volume/volume.h"

#include <cstddef>
#include <string>
#include <vector>

namespace isoview::app {

struct PreparedSurfaces {
    std::vector<PrintReport> reports; // one per surface, in order; empty when no step ran
    VolumeGeometry geometry;          // what the writers map the meshes through now
};

// Prepares each of surfaces in place with steps (none set: nothing changes, and the geometry is
// the volume's). Each mesh becomes the prepared one, in millimetres (geometry VolumeGeometry{}),
// or back in voxel indices when space is VoxelIndex (geometry the volume's; checkSurfaceExport
// refuses stacks that cannot be). labelMap: the scene's (uint16 labels on the volume's grid),
// needed when a surface is a label. Progress per surface and stage, the stage named
// "<surface>: <stage>", the fraction counted over all surfaces; cancel through context.
// Thread: any (no Qt, no GL). Throws isoview::Error, CancelledError.
PreparedSurfaces prepareSurfaces(std::vector<NamedSurface>& surfaces, const Volume& volume,
                                 const Volume* labelMap, const PrintSteps& steps, MeshSpace space,
                                 TaskContext& context);

// What the reports of an export of all add up to, for the status bar and the log.
struct PreparationSummary {
    std::size_t trianglesBefore = 0; // extracted, over all surfaces
    std::size_t trianglesAfter = 0;  // written
    std::vector<std::string> notWatertight;
    std::vector<std::string> decimationAboveTarget; // decimation stopped above its target
};
PreparationSummary summarize(const std::vector<NamedSurface>& surfaces,
                             const std::vector<PrintReport>& reports);

} // namespace isoview::app
