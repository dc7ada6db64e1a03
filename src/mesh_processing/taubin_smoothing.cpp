#include "mesh_processing/taubin_smoothing.h"

#include "core/error.h"

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace isoview {
namespace {

// Each vertex's distinct neighbours, as compressed rows; and which vertices lie on a boundary
// edge (an edge used by one triangle only).
struct Neighbourhood {
    std::vector<std::uint32_t> offsets; // row v is [offsets[v], offsets[v + 1])
    std::vector<std::uint32_t> neighbours;
    std::vector<bool> onBoundary;
};

Neighbourhood buildNeighbourhood(const IsoMesh& mesh)
{
    // Every directed half edge of every triangle, sorted: duplicates in one direction are
    // non-manifold, and an undirected edge seen once is a boundary.
    std::vector<std::pair<std::uint32_t, std::uint32_t>> edges;
    edges.reserve(mesh.indices.size());
    for (std::size_t t = 0; t + 2 < mesh.indices.size(); t += 3) {
        for (int c = 0; c < 3; ++c) {
            const std::uint32_t a = mesh.indices[t + std::size_t(c)];
            const std::uint32_t b = mesh.indices[t + std::size_t((c + 1) % 3)];
            edges.emplace_back(std::min(a, b), std::max(a, b));
        }
    }
    std::sort(edges.begin(), edges.end());

    Neighbourhood n;
    const std::size_t vertices = mesh.positions.size();
    n.onBoundary.assign(vertices, false);
    std::vector<std::uint32_t> degree(vertices, 0);
    std::vector<std::pair<std::uint32_t, std::uint32_t>> unique;
    unique.reserve(edges.size() / 2 + 1);
    for (std::size_t e = 0; e < edges.size();) {
        std::size_t run = 1;
        while (e + run < edges.size() && edges[e + run] == edges[e])
            ++run;
        const auto [a, b] = edges[e];
        if (run == 1) n.onBoundary[a] = n.onBoundary[b] = true;
        unique.push_back(edges[e]);
        ++degree[a];
        ++degree[b];
        e += run;
    }
    n.offsets.assign(vertices + 1, 0);
    for (std::size_t v = 0; v < vertices; ++v)
        n.offsets[v + 1] = n.offsets[v] + degree[v];
    n.neighbours.resize(n.offsets[vertices]);
    std::vector<std::uint32_t> fill(n.offsets.begin(), n.offsets.end() - 1);
    for (const auto& [a, b] : unique) {
        n.neighbours[fill[a]++] = b;
        n.neighbours[fill[b]++] = a;
    }
    return n;
}

void step(const Neighbourhood& n, const std::vector<glm::dvec3>& from, std::vector<glm::dvec3>& to,
          double factor)
{
    for (std::size_t v = 0; v < from.size(); ++v) {
        const std::uint32_t begin = n.offsets[v];
        const std::uint32_t end = n.offsets[v + 1];
        if (n.onBoundary[v] || begin == end) {
            to[v] = from[v];
            continue;
        }
        glm::dvec3 mean(0.0);
        for (std::uint32_t i = begin; i < end; ++i)
            mean += from[n.neighbours[i]];
        mean /= double(end - begin);
        to[v] = from[v] + factor * (mean - from[v]);
    }
}

} // namespace

void smoothTaubin(IsoMesh& mesh, const TaubinOptions& options,
                  const std::function<bool(double fraction)>& progress)
{
    if (options.iterations <= 0 || mesh.indices.empty()) return;
    const Neighbourhood n = buildNeighbourhood(mesh);
    std::vector<glm::dvec3> a(mesh.positions.begin(), mesh.positions.end());
    std::vector<glm::dvec3> b(a.size());
    for (int i = 0; i < options.iterations; ++i) {
        step(n, a, b, options.lambda);
        step(n, b, a, options.mu);
        if (progress && !progress(double(i + 1) / double(options.iterations))) {
            throw CancelledError("smoothing cancelled");
        }
    }
    for (std::size_t v = 0; v < a.size(); ++v)
        mesh.positions[v] = glm::vec3(a[v]);
}

} // namespace isoview
