#include "surface_export_job.h"

#include "mesh_processing/physical_mesh.h"

#include <cmath>
#include <cstdint>
#include <string_view>

namespace isoview::app {

void checkSurfaceExport(const PrintSteps& steps, const MeshExportOptions& options,
                        const VolumeGeometry& geometry)
{
    if (!steps.any()) return;
    validateSteps(steps);
    if (options.space == MeshSpace::VoxelIndex) (void)toIndexMesh(IsoMesh{}, geometry);
}

std::optional<PrintReport> writeCapturedSurface(const CapturedSurface& surface,
                                                const Volume& volume,
                                                const MeshExportOptions& options,
                                                const PrintSteps& steps, const std::string& path,
                                                TaskContext& context)
{
    MeshExportOptions o = options;
    o.progress = [&context](std::uint64_t done, std::uint64_t total) {
        context.progress("writing", done, total);
        return !context.cancelRequested();
    };
    if (!steps.any()) {
        exportMesh(path, surface.mesh, volume.geometry(), o);
        return std::nullopt;
    }
    // The isovalue and crop the capture was extracted at: closing needs exactly those.
    const float isoStored = float(volume.rescale().toStored(surface.isovalue));
    PreparedMesh prepared =
        prepareMesh(surface.mesh, volume, isoStored, surface.crop, steps,
                    [&context](std::string_view stage, double fraction) {
                        context.progress(stage, std::uint64_t(std::lround(fraction * 1000)), 1000);
                        return !context.cancelRequested();
                    });
    o.processing = describeSteps(steps);
    if (o.space == MeshSpace::VoxelIndex)
        exportMesh(path, toIndexMesh(prepared.mesh, volume.geometry()), volume.geometry(), o);
    else
        exportMesh(path, prepared.mesh, VolumeGeometry{}, o); // already in millimetres
    return std::move(prepared.report);
}

} // namespace isoview::app
