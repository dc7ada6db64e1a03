// Connected pieces of a triangle mesh (triangles sharing a vertex belong to one piece), and the
// filters that drop the small ones: the crumbs of noise a marching-cubes surface of a real scan
// carries, which a printer cannot print and a slicer chokes on.
//
// Example:
//   ComponentFilterResult r = filterComponents(mesh, {.keepLargest = true});
//   // r.mesh holds the piece with the most triangles; r.dropped says how many went.
#pragma once

#include "extraction/iso_mesh.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace isoview {

struct MeshComponents {
    std::size_t count = 0;
    std::vector<std::uint32_t> ofTriangle; // the piece of each triangle, 0..count-1
    std::vector<std::size_t> triangles;    // per piece
    std::vector<double> volume;            // per piece: signed enclosed volume, mesh units^3
};

MeshComponents findComponents(const IsoMesh& mesh);

struct ComponentFilter {
    // Keep only the piece with the most triangles (ties: the first one found).
    bool keepLargest = false;
    // Drop pieces with fewer triangles than this.
    std::size_t minTriangles = 0;
    // Drop pieces whose enclosed volume (absolute, mesh units^3) is below this.
    double minVolume = 0.0;

    bool active() const { return keepLargest || minTriangles > 0 || minVolume > 0.0; }
};

struct ComponentFilterResult {
    IsoMesh mesh;            // the kept pieces; unreferenced vertices removed
    std::size_t before = 0;  // pieces in the input
    std::size_t dropped = 0; // pieces removed
};

ComponentFilterResult filterComponents(const IsoMesh& mesh, const ComponentFilter& filter);

} // namespace isoview
