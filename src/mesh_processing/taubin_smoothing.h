// Taubin's lambda|mu smoothing (G. Taubin, "A signal processing approach to fair surface
// design", SIGGRAPH 1995): each iteration moves every vertex towards the mean of its neighbours
// by lambda, then away from it by -mu, a low-pass filter that removes the staircase and noise of
// a marching-cubes surface without the shrinkage of plain Laplacian smoothing.
//
// Written here rather than taken from OpenMesh, whose smoothers are Laplacian (they shrink).
// Uniform neighbour weights: the filter then commutes with affine maps, so anisotropic voxels
// do not bias it. Vertices on boundary edges stay where they are, so an open surface keeps its
// rim and a closed one is smoothed everywhere.
//
// Example:
//   smoothTaubin(mesh, {.iterations = 10});
#pragma once

#include "extraction/iso_mesh.h"

#include <functional>

namespace isoview {

struct TaubinOptions {
    int iterations = 10;
    double lambda = 0.5;
    double mu = -0.53; // pass-band 1/lambda + 1/mu = 0.11, Taubin's suggested range
};

// Moves mesh.positions in place (connectivity unchanged; normals are not updated). progress
// gets the fraction done after each iteration and may return false to stop, which throws
// CancelledError.
void smoothTaubin(IsoMesh& mesh, const TaubinOptions& options,
                  const std::function<bool(double fraction)>& progress = {});

} // namespace isoview
