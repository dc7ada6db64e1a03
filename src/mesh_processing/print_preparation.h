// Print preparation: the one entry point the export dialog and isoview-cli call to turn the
// extracted isosurface into a mesh a printer or a mesh tool takes as it is, and to say what
// changed. Steps, in this order:
//   1. close the surface at the volume's (or crop's) border   (border_caps.h)
//   2. drop small pieces / keep the largest                    (mesh_components.h)
//   3. Taubin smoothing                                        (taubin_smoothing.h)
//   4. decimation                                              (mesh_decimation.h)
// then the report: triangles before and after, pieces dropped, the distance from the result to
// the raw (closed) surface, watertightness, enclosed volume before and after.
//
// The result is a physical mesh (physical_mesh.h): millimetres, outward counter-clockwise.
//
// Example:
//   PreparedMesh p = prepareMesh(surface, volume, iso, crop,
//                                {.closeBorders = true, .keepLargest = true, .smoothIterations =
//                                10,
//                                 .decimateFraction = 0.25});
//   exportMesh(path, p.mesh, VolumeGeometry{}, {.comment = "isoview " + describeSteps(steps)});
#pragma once

#include "extraction/iso_mesh.h"
#include "extraction/voxel_box.h"
#include "volume/volume.h"

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace isoview {

// The most smoothing iterations accepted: about a minute on a million triangles here (Taubin,
// 70 ms an iteration); more would run for an hour and only shrink detail further.
inline constexpr int kMaxSmoothIterations = 1000;

struct PrintSteps {
    bool closeBorders = false;
    bool keepLargest = false;
    std::size_t minComponentTriangles = 0; // drop pieces with fewer triangles
    double minComponentMl = 0.0;           // drop pieces enclosing less than this
    int smoothIterations = 0;              // Taubin iterations; 0: no smoothing
    double decimateFraction = 1.0;         // triangles to keep, (0, 1]; 1: no decimation
    // Decimation tolerance in mm; 0: half the smallest voxel spacing.
    double decimateToleranceMm = 0.0;

    bool any() const
    {
        return closeBorders || keepLargest || minComponentTriangles > 0 || minComponentMl > 0.0 ||
               smoothIterations > 0 || decimateFraction < 1.0;
    }
};

// The steps as words for a file's header and a log: "close-borders keep-largest smooth=10
// decimate=0.25", or "none".
std::string describeSteps(const PrintSteps& steps);

// Throws InvalidInputError naming the bad value (a negative count, a fraction outside (0, 1], a
// non-finite number).
void validateSteps(const PrintSteps& steps);

struct PrintReport {
    std::string steps;               // describeSteps
    std::size_t trianglesBefore = 0; // of the extracted surface
    std::size_t trianglesAfter = 0;
    std::size_t capTriangles = 0;    // added by closing
    std::size_t zeroAreaRemoved = 0; // dropped by welding coincident vertices, after closing
    std::size_t piecesBefore = 0;
    std::size_t piecesDropped = 0;
    bool decimationReachedTarget = true;
    // When it did not: the rule that refused most of the collapses left (DecimationBlockers).
    std::string decimationStoppedBy;
    // Distances between the result and the raw pieces it kept (closed when closing was asked),
    // mm, both ways (result vertices to the raw surface, raw vertices to the result), the larger
    // of the two for each figure.
    double distanceP95Mm = 0.0;
    double distanceMaxMm = 0.0;
    // Of the result: no boundary and no non-manifold edges.
    bool watertight = false;
    std::size_t boundaryEdges = 0;
    std::size_t nonManifoldEdges = 0;
    // Enclosed volumes of the raw (closed) surface and of the result, millilitres; meaningful
    // only for closed surfaces.
    double volumeBeforeMl = 0.0;
    double volumeAfterMl = 0.0;
    // Where the time went: each stage that ran, in order, with its milliseconds.
    std::vector<std::pair<std::string, double>> stageMs;

    // "key: value" lines, the CLI's output and the dialog's report.
    std::string text() const;
};

struct PreparedMesh {
    IsoMesh mesh; // physical millimetres
    PrintReport report;
};

// (stage name, fraction of that stage done); return false to cancel (throws CancelledError).
using PreparationProgress = std::function<bool(std::string_view stage, double fraction)>;

// surface: the extracted isosurface in index space (CPU reference or GPU capture), extracted
// at isovalue (REAL units, as the scene and the command line give it: converted to the volume's
// stored units here, as the extraction converted it) from the cells of crop. Runs on the calling
// thread.
PreparedMesh prepareMesh(const IsoMesh& surface, const Volume& volume, double isovalue,
                         const VoxelBox& crop, const PrintSteps& steps,
                         const PreparationProgress& progress = {});

} // namespace isoview
