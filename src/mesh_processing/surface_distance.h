// How far a processed mesh moved from the surface it came from: the distance from each of its
// vertices to the nearest point of the reference surface (any triangle, not just vertices),
// summarised as the percentiles a person reads. Exact point-to-triangle distances, found through
// a uniform grid of the reference's triangles.
//
// Example:
//   DistanceSummary d = distanceToSurface(smoothed.positions, raw);
//   std::printf("p95 %.3f mm, max %.3f mm\n", d.p95, d.max);
#pragma once

#include "extraction/iso_mesh.h"

#include <glm/glm.hpp>

#include <cstddef>
#include <vector>

namespace isoview {

struct DistanceSummary {
    std::size_t points = 0;
    double mean = 0.0;
    double p95 = 0.0;
    double max = 0.0;
};

// Distances in the mesh's units. An empty reference gives zeros (there is nothing to measure
// against); so do no points.
DistanceSummary distanceToSurface(const std::vector<glm::vec3>& points, const IsoMesh& reference);

// The distance from p to triangle (a, b, c), degenerate triangles included.
double pointTriangleDistance(const glm::dvec3& p, const glm::dvec3& a, const glm::dvec3& b,
                             const glm::dvec3& c);

} // namespace isoview
