#include "mesh_processing/surface_measurements.h"

#include "core/error.h"
#include "extraction/border_caps.h"
#include "extraction/mesh_metrics.h"
#include "mesh_processing/mesh_components.h"
#include "mesh_processing/physical_mesh.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace isoview {
namespace {

constexpr double kMm3PerMl = 1000.0;

void report(const MeasurementProgress& progress, double fraction)
{
    if (progress && !progress(fraction)) throw CancelledError("surface measurement cancelled");
}

double triangleArea(const IsoMesh& mesh, std::size_t t)
{
    const glm::dvec3 a(mesh.positions[mesh.indices[3 * t]]);
    const glm::dvec3 b(mesh.positions[mesh.indices[3 * t + 1]]);
    const glm::dvec3 c(mesh.positions[mesh.indices[3 * t + 2]]);
    return 0.5 * glm::length(glm::cross(b - a, c - a));
}

} // namespace

SurfaceMeasurements measureSurface(const IsoMesh& surface, const Volume& volume, double isovalue,
                                   const VoxelBox& crop, const MeasurementProgress& progress)
{
    // Validates indices (throws InvalidInputError) before anything indexes with them.
    const MeshTopology topology = analyzeTopology(surface);
    report(progress, 0.15);

    SurfaceMeasurements result;
    result.triangles = surface.triangleCount();
    if (result.triangles == 0) return result;

    // Caps are appended after the surface's triangles, so the first `triangles` are its own.
    const IsoMesh closed =
        topology.boundaryEdges == 0
            ? surface
            : closeAtBorders(surface, volume, volume.rescale().toStored(isovalue), crop);
    result.capTriangles = closed.triangleCount() - result.triangles;
    result.openAtBorder = result.capTriangles > 0;
    report(progress, 0.4);

    const IsoMesh physical = toPhysicalMesh(closed, volume.geometry());
    report(progress, 0.55);
    const MeshComponents pieces = findComponents(physical);
    report(progress, 0.85);

    std::vector<double> pieceArea(pieces.count, 0.0);
    for (std::size_t t = 0; t < result.triangles; ++t)
        pieceArea[pieces.ofTriangle[t]] += triangleArea(physical, t);
    report(progress, 0.95);

    result.pieces = pieces.count;
    double volumeMm3 = 0.0;
    for (std::size_t p = 0; p < pieces.count; ++p) {
        result.areaMm2 += pieceArea[p];
        volumeMm3 += pieces.volume[p];
    }
    result.volumeMl = volumeMm3 / kMm3PerMl;
    const auto largest =
        std::size_t(std::max_element(pieces.volume.begin(), pieces.volume.end(),
                                     [](double a, double b) { return std::abs(a) < std::abs(b); }) -
                    pieces.volume.begin());
    result.largestPieceAreaMm2 = pieceArea[largest];
    result.largestPieceVolumeMl = pieces.volume[largest] / kMm3PerMl;
    report(progress, 1.0);
    return result;
}

} // namespace isoview
