#include "export/export_all_preparation.h"

#include "core/error.h"
#include "mesh_processing/label_print_preparation.h"
#include "mesh_processing/physical_mesh.h"

#include <cmath>
#include <cstdint>
#include <string_view>

namespace isoview::app {

PreparedSurfaces prepareSurfaces(std::vector<NamedSurface>& surfaces, const Volume& volume,
                                 const Volume* labelMap, const PrintSteps& steps, MeshSpace space,
                                 TaskContext& context)
{
    PreparedSurfaces result;
    result.geometry = volume.geometry();
    if (!steps.any()) return result;
    constexpr std::uint64_t kPerSurface = 1000;
    const std::uint64_t total = kPerSurface * surfaces.size();
    result.reports.reserve(surfaces.size());
    for (std::size_t i = 0; i < surfaces.size(); ++i) {
        NamedSurface& s = surfaces[i];
        const PreparationProgress progress = [&](std::string_view stage, double fraction) {
            const auto done = std::uint64_t(std::lround(fraction * kPerSurface));
            context.progress(s.name + ": " + std::string(stage), i * kPerSurface + done, total);
            return !context.cancelRequested();
        };
        PreparedMesh prepared;
        if (s.label) {
            if (!labelMap) throw Error(s.name + " is a label, but the export has no label map");
            prepared = prepareLabelMesh(s.surface.mesh, *labelMap, s.label->info,
                                        s.label->smoothingSigmaMm, s.surface.crop, steps, progress);
        } else {
            // The isovalue and crop the capture was extracted at: closing needs exactly those.
            prepared = prepareMesh(s.surface.mesh, volume, s.surface.isovalue, s.surface.crop,
                                   steps, progress);
        }
        s.surface.mesh = space == MeshSpace::VoxelIndex
                             ? toIndexMesh(prepared.mesh, volume.geometry())
                             : std::move(prepared.mesh);
        result.reports.push_back(std::move(prepared.report));
    }
    if (space != MeshSpace::VoxelIndex) result.geometry = VolumeGeometry{};
    return result;
}

PreparationSummary summarize(const std::vector<NamedSurface>& surfaces,
                             const std::vector<PrintReport>& reports)
{
    PreparationSummary summary;
    for (std::size_t i = 0; i < reports.size() && i < surfaces.size(); ++i) {
        const PrintReport& r = reports[i];
        summary.trianglesBefore += r.trianglesBefore;
        summary.trianglesAfter += r.trianglesAfter;
        if (!r.watertight) summary.notWatertight.push_back(surfaces[i].name);
        if (!r.decimationReachedTarget) summary.decimationAboveTarget.push_back(surfaces[i].name);
    }
    return summary;
}

} // namespace isoview::app
