#include "mesh_processing/print_preparation.h"

#include "core/error.h"
#include "extraction/border_caps.h"
#include "extraction/mesh_metrics.h"
#include "mesh_processing/coincident_vertices.h"
#include "mesh_processing/mesh_components.h"
#include "mesh_processing/mesh_decimation.h"
#include "mesh_processing/physical_mesh.h"
#include "mesh_processing/surface_distance.h"
#include "mesh_processing/taubin_smoothing.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>

namespace isoview {
namespace {

std::string number(double value)
{
    char buffer[32];
    const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
    return ec == std::errc() ? std::string(buffer, end) : std::string("?");
}

constexpr double kMm3PerMl = 1000.0;

} // namespace

std::string describeSteps(const PrintSteps& steps)
{
    std::string words;
    const auto add = [&](const std::string& word) {
        if (!words.empty()) words += ' ';
        words += word;
    };
    if (steps.closeBorders) add("close-borders");
    if (steps.keepLargest) add("keep-largest");
    if (steps.minComponentTriangles > 0) {
        add("min-component=" + std::to_string(steps.minComponentTriangles));
    }
    if (steps.minComponentMl > 0.0) add("min-component-ml=" + number(steps.minComponentMl));
    if (steps.smoothIterations > 0) add("smooth=" + std::to_string(steps.smoothIterations));
    if (steps.decimateFraction < 1.0) {
        add("decimate=" + number(steps.decimateFraction));
        if (steps.decimateToleranceMm > 0.0) {
            add("decimate-tolerance-mm=" + number(steps.decimateToleranceMm));
        }
    }
    return words.empty() ? "none" : words;
}

void validateSteps(const PrintSteps& steps)
{
    if (steps.smoothIterations < 0 || steps.smoothIterations > kMaxSmoothIterations) {
        throw InvalidInputError("smoothing takes 0 to " + std::to_string(kMaxSmoothIterations) +
                                " iterations, not " + std::to_string(steps.smoothIterations));
    }
    if (!(steps.decimateFraction > 0.0 && steps.decimateFraction <= 1.0)) {
        throw InvalidInputError("decimation keeps a fraction of the triangles greater than 0 and "
                                "at most 1, not " +
                                number(steps.decimateFraction));
    }
    if (!(steps.minComponentMl >= 0.0) || !std::isfinite(steps.minComponentMl)) {
        throw InvalidInputError("the smallest piece to keep must be a volume of 0 mL or more, "
                                "not " +
                                number(steps.minComponentMl));
    }
    if (!(steps.decimateToleranceMm >= 0.0) || !std::isfinite(steps.decimateToleranceMm)) {
        throw InvalidInputError("the decimation tolerance must be 0 mm or more, not " +
                                number(steps.decimateToleranceMm));
    }
}

std::string PrintReport::text() const
{
    const auto fixed = [](double value, int decimals) {
        char buffer[64];
        std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
        return std::string(buffer);
    };
    const auto count = [](std::size_t n) { return std::to_string(n); };
    std::string out;
    out += "processing: " + steps + "\n";
    out += "triangles_before: " + count(trianglesBefore) + "\n";
    if (capTriangles > 0) out += "cap_triangles: " + count(capTriangles) + "\n";
    if (zeroAreaRemoved > 0) out += "zero_area_triangles_removed: " + count(zeroAreaRemoved) + "\n";
    out += "triangles_after: " + count(trianglesAfter) + "\n";
    out += "pieces_before: " + count(piecesBefore) + "\n";
    out += "pieces_dropped: " + count(piecesDropped) + "\n";
    if (!decimationReachedTarget) {
        out += "decimation: stopped above the target, held back by " +
               (decimationStoppedBy.empty() ? std::string("the sampling") : decimationStoppedBy) +
               "\n";
    }
    out += "distance_to_raw_mm: p95 " + fixed(distanceP95Mm, 4) + ", max " +
           fixed(distanceMaxMm, 4) + "\n";
    out += std::string("watertight: ") + (watertight ? "yes" : "no") + " (" + count(boundaryEdges) +
           " boundary edges, " + count(nonManifoldEdges) + " non-manifold edges)\n";
    out += "volume_ml: before " + fixed(volumeBeforeMl, 3) + ", after " + fixed(volumeAfterMl, 3) +
           "\n";
    if (!stageMs.empty()) {
        out += "stage_ms:";
        for (std::size_t i = 0; i < stageMs.size(); ++i) {
            out += (i == 0 ? " " : ", ") + stageMs[i].first + " " + fixed(stageMs[i].second, 0);
        }
        out += "\n";
    }
    return out;
}

PreparedMesh prepareMesh(const IsoMesh& surface, const Volume& volume, double isovalue,
                         const VoxelBox& crop, const PrintSteps& steps,
                         const PreparationProgress& progress)
{
    validateSteps(steps);
    PreparedMesh result;
    PrintReport& r = result.report;
    // Each stage's time runs from its first report to the next stage's.
    auto stageStart = std::chrono::steady_clock::now();
    const auto report = [&](std::string_view stage, double fraction) {
        if (fraction == 0.0 && (r.stageMs.empty() || r.stageMs.back().first != stage)) {
            const auto now = std::chrono::steady_clock::now();
            if (!r.stageMs.empty()) {
                r.stageMs.back().second =
                    std::chrono::duration<double, std::milli>(now - stageStart).count();
            }
            r.stageMs.emplace_back(std::string(stage), 0.0);
            stageStart = now;
        }
        if (progress && !progress(stage, fraction)) {
            throw CancelledError("mesh preparation cancelled");
        }
    };
    r.steps = describeSteps(steps);
    r.trianglesBefore = surface.triangleCount();

    report("closing", 0.0);
    IsoMesh raw = steps.closeBorders
                      ? closeAtBorders(surface, volume, volume.rescale().toStored(isovalue), crop)
                      : surface;
    r.capTriangles = raw.triangleCount() - surface.triangleCount();
    raw = toPhysicalMesh(raw, volume.geometry());
    // After closing, which finds the surface's border vertices by their grid edges.
    r.zeroAreaRemoved = weldCoincidentVertices(raw);
    r.volumeBeforeMl = enclosedVolume(raw) / kMm3PerMl;

    report("pieces", 0.0);
    IsoMesh mesh;
    // Only smoothing and decimation move the surface; they are measured against the raw pieces
    // kept (a copy made only for them).
    const bool movesSurface = steps.smoothIterations > 0 || steps.decimateFraction < 1.0;
    IsoMesh kept;
    {
        ComponentFilterResult pieces =
            filterComponents(raw, {.keepLargest = steps.keepLargest,
                                   .minTriangles = steps.minComponentTriangles,
                                   .minVolume = steps.minComponentMl * kMm3PerMl});
        r.piecesBefore = pieces.before;
        r.piecesDropped = pieces.dropped;
        mesh = std::move(pieces.mesh);
        if (movesSurface) kept = mesh;
    }

    if (steps.smoothIterations > 0) {
        report("smoothing", 0.0);
        smoothTaubin(mesh, {.iterations = steps.smoothIterations},
                     [&](double f) { return !progress || progress("smoothing", f); });
    }
    if (steps.decimateFraction < 1.0) {
        const glm::dvec3 spacing = volume.geometry().spacing;
        const double tolerance = steps.decimateToleranceMm > 0.0
                                     ? steps.decimateToleranceMm
                                     : 0.5 * std::min({spacing.x, spacing.y, spacing.z});
        report("decimating", 0.0);
        const DecimationResult d =
            decimateMesh(mesh, {.keepFraction = steps.decimateFraction, .toleranceMm = tolerance},
                         [&](double f) { return !progress || progress("decimating", f); });
        r.decimationReachedTarget = d.reachedTarget;
        r.decimationStoppedBy = d.blockers.mainReason();
    }
    recomputeNormalsAndKeys(mesh);

    report("measuring", 0.0);
    // Both ways: decimation keeps raw vertices (zero distance one way) but cuts corners, which
    // only the raw vertices' distance to the result sees.
    if (movesSurface) {
        const DistanceSummary there = distanceToSurface(mesh.positions, kept);
        report("measuring", 0.5);
        const DistanceSummary back = distanceToSurface(kept.positions, mesh);
        r.distanceP95Mm = std::max(there.p95, back.p95);
        r.distanceMaxMm = std::max(there.max, back.max);
    }
    const MeshTopology topology = analyzeTopology(mesh);
    r.boundaryEdges = topology.boundaryEdges;
    r.nonManifoldEdges = topology.nonManifoldEdges;
    r.watertight =
        topology.boundaryEdges == 0 && topology.nonManifoldEdges == 0 && mesh.triangleCount() > 0;
    r.volumeAfterMl = enclosedVolume(mesh) / kMm3PerMl;
    r.trianglesAfter = mesh.triangleCount();
    report("measuring", 1.0);
    r.stageMs.back().second =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - stageStart)
            .count();
    result.mesh = std::move(mesh);
    return result;
}

} // namespace isoview
