// Decimation: fewer triangles, the same shape and the same topology. Through OpenMesh's
// decimater (libopenmesh-dev, BSD): its half-edge collapses check the link condition, so a
// closed manifold surface stays closed and manifold. We chose it over meshoptimizer, whose
// simplifier is faster but does not promise to keep topology, which a printed part needs (on the
// CT phantom's skin it left 242 non-manifold edges).
//
// A closed input loses volume when its vertices are merely kept (triangles become chords of a
// convex part); a final uniform offset along the normals restores it (see volumeOffsetMm).
//
// Modules: quadric error (Garland-Heckbert) ranks the candidate collapses; an accumulated
// distance bound (decimation_distance_module.h) and a normal-flip limit make collapses that break
// them illegal. When the tolerance forbids reaching the target, the result stops short of it and
// says so.
//
// Large meshes are decimated in slabs on the machine's cores: each slab's own half-edge mesh, the
// vertices it shares with another slab locked, then one pass over the whole to the target.
// Every slab draws its candidates from its own seeded generator, so a mesh decimates the same way
// each time, whatever the threads' timing.
//
// Example:
//   DecimationResult r = decimateMesh(mesh, {.keepFraction = 0.1, .toleranceMm = 0.25});
#pragma once

#include "extraction/iso_mesh.h"

#include <cstddef>
#include <functional>
#include <string>

namespace isoview {

struct DecimationOptions {
    double keepFraction = 1.0; // of the triangles, in (0, 1]
    double toleranceMm = 0.5;  // largest distance from an input vertex to the result
    double maxNormalDeviationDegrees = 60.0;
    // Slabs decimated in parallel: 0 chooses (one per core, each at least kTrianglesPerSlab
    // triangles); tests set it to exercise the seams on small meshes.
    unsigned slabs = 0;
};

// The fewest triangles a slab gets when DecimationOptions::slabs is 0.
inline constexpr std::size_t kTrianglesPerSlab = 200000;

// The collapses left when decimation stopped above its target, by the first rule each breaks.
struct DecimationBlockers {
    std::size_t topology = 0; // would make the surface non-manifold or fold a thin part shut
    std::size_t distance = 0; // would move the surface beyond the tolerance
    std::size_t normals = 0;  // would turn a triangle more than the normal deviation allows
    std::size_t allowed = 0;  // legal, but not found by the sampling before it gave up

    // "the distance tolerance", "the normal-flip limit" or "the surface's topology": the rule
    // that refuses most of them; empty when nothing was counted.
    std::string mainReason() const;
};

struct DecimationResult {
    std::size_t trianglesBefore = 0;
    std::size_t trianglesAfter = 0;
    bool reachedTarget = true;
    DecimationBlockers blockers; // when !reachedTarget
    // Triangles the half-edge mesh could not hold (non-manifold input); they are kept as they
    // are, undecimated, so nothing is lost.
    std::size_t trianglesNotDecimated = 0;
    // The offset along the normals that restored a closed mesh's enclosed volume (mm, at most
    // half the tolerance either way); 0 for open meshes.
    double volumeOffsetMm = 0.0;
};

// Replaces mesh (positions in mm) with its decimation; normals and keys are recomputed.
// progress gets the fraction done and may return false, which throws CancelledError. Throws
// InvalidInputError when keepFraction is outside (0, 1] or the tolerance is not positive.
DecimationResult decimateMesh(IsoMesh& mesh, const DecimationOptions& options,
                              const std::function<bool(double fraction)>& progress = {});

} // namespace isoview
