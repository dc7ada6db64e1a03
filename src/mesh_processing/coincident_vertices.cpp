#include "mesh_processing/coincident_vertices.h"

#include "mesh_processing/physical_mesh.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace isoview {
namespace {

// A position's bits: coincident means equal here, never "close".
struct PositionBits {
    std::uint32_t x, y, z;
    bool operator==(const PositionBits&) const = default;
};

struct PositionHash {
    std::size_t operator()(const PositionBits& p) const
    {
        std::uint64_t h = p.x;
        h = h * 0x9E3779B97F4A7C15ull ^ p.y;
        h = h * 0x9E3779B97F4A7C15ull ^ p.z;
        return std::size_t(h ^ (h >> 29));
    }
};

PositionBits bitsOf(const glm::vec3& p)
{
    // +0.0f: -0.0 and 0.0 are the same place.
    return {std::bit_cast<std::uint32_t>(p.x + 0.0f), std::bit_cast<std::uint32_t>(p.y + 0.0f),
            std::bit_cast<std::uint32_t>(p.z + 0.0f)};
}

std::uint64_t edgeOf(std::uint32_t a, std::uint32_t b)
{
    return a < b ? (std::uint64_t(a) << 32 | b) : (std::uint64_t(b) << 32 | a);
}

// The triangles with their corners merged by target, those that name a vertex twice left out.
std::vector<std::uint32_t> mergedTriangles(const std::vector<std::uint32_t>& indices,
                                           const std::vector<std::uint32_t>& target)
{
    std::vector<std::uint32_t> out;
    out.reserve(indices.size());
    for (std::size_t t = 0; t + 2 < indices.size(); t += 3) {
        const std::uint32_t a = target[indices[t]], b = target[indices[t + 1]],
                            c = target[indices[t + 2]];
        if (a == b || b == c || a == c) continue;
        out.insert(out.end(), {a, b, c});
    }
    return out;
}

// Vertices of edges that more than two triangles use, among the triangles with a corner marked
// in `grouped` (only their edges can change by welding, and every triangle on such an edge has
// that corner).
std::unordered_set<std::uint32_t> nonManifoldVertices(const std::vector<std::uint32_t>& indices,
                                                      const std::vector<char>& grouped)
{
    std::unordered_map<std::uint64_t, std::uint32_t> uses;
    for (std::size_t t = 0; t + 2 < indices.size(); t += 3) {
        if (!grouped[indices[t]] && !grouped[indices[t + 1]] && !grouped[indices[t + 2]]) continue;
        for (int i = 0; i < 3; ++i)
            ++uses[edgeOf(indices[t + i], indices[t + (i + 1) % 3])];
    }
    std::unordered_set<std::uint32_t> vertices;
    for (const auto& [edge, count] : uses) {
        if (count <= 2) continue;
        vertices.insert(std::uint32_t(edge >> 32));
        vertices.insert(std::uint32_t(edge & 0xFFFFFFFFu));
    }
    return vertices;
}

// Merges that would fold the surface onto itself (where it touches a cap or itself at a voxel
// holding the isovalue) are given up for this many rounds before no merge is kept at all.
constexpr int kMaxRounds = 8;
// How far a vertex kept apart moves towards its neighbours: enough float steps to separate it
// from its twin at millimetre coordinates in the hundreds, far below any tolerance.
constexpr float kApart = 1e-3f;

} // namespace

std::size_t weldCoincidentVertices(IsoMesh& mesh)
{
    std::unordered_map<PositionBits, std::uint32_t, PositionHash> first;
    first.reserve(mesh.positions.size());
    std::vector<std::uint32_t> target(mesh.positions.size());
    bool merged = false;
    for (std::size_t v = 0; v < mesh.positions.size(); ++v) {
        const auto [at, added] = first.try_emplace(bitsOf(mesh.positions[v]), std::uint32_t(v));
        target[v] = at->second;
        merged = merged || !added;
    }
    if (!merged) return 0;

    // Welding must not make an edge that more than two triangles share where there was none:
    // the groups at such an edge stay apart (their zero-area triangles stay too), round by round.
    // Only vertices that share their position with another take part in what follows.
    std::vector<char> grouped(mesh.positions.size(), 0);
    for (std::size_t v = 0; v < target.size(); ++v) {
        if (target[v] != v) grouped[v] = grouped[target[v]] = 1;
    }
    const std::unordered_set<std::uint32_t> alreadyBad = nonManifoldVertices(mesh.indices, grouped);
    std::vector<std::uint32_t> welded;
    std::vector<char> apart(mesh.positions.size(), 0);
    for (int round = 0;; ++round) {
        welded = mergedTriangles(mesh.indices, target);
        std::unordered_set<std::uint32_t> bad = nonManifoldVertices(welded, grouped);
        for (const std::uint32_t v : alreadyBad)
            bad.erase(target[v]);
        if (bad.empty()) break;
        if (round == kMaxRounds) return 0; // leave the mesh as it was
        for (std::size_t v = 0; v < target.size(); ++v) {
            if (!bad.count(target[v])) continue;
            apart[v] = apart[target[v]] = 1;
            target[v] = std::uint32_t(v);
        }
    }
    // The groups kept apart still coincide: each vertex moves a thousandth of the way towards
    // the middle of its neighbours, so their triangles get an area while the surface moves by a
    // thousandth of an edge at most.
    std::vector<glm::vec3> towards(mesh.positions.size(), glm::vec3(0.0f));
    std::vector<std::uint32_t> neighbours(mesh.positions.size(), 0);
    for (std::size_t t = 0; t + 2 < welded.size(); t += 3) {
        for (int i = 0; i < 3; ++i) {
            const std::uint32_t v = welded[t + i];
            if (!apart[v]) continue;
            towards[v] +=
                mesh.positions[welded[t + (i + 1) % 3]] + mesh.positions[welded[t + (i + 2) % 3]];
            neighbours[v] += 2;
        }
    }
    for (std::size_t v = 0; v < mesh.positions.size(); ++v) {
        if (!apart[v] || neighbours[v] == 0) continue;
        const glm::vec3 middle = towards[v] / float(neighbours[v]);
        mesh.positions[v] += kApart * (middle - mesh.positions[v]);
    }
    const std::size_t dropped = mesh.triangleCount() - welded.size() / 3;
    mesh.indices = std::move(welded);
    removeUnreferencedVertices(mesh);
    return dropped;
}

} // namespace isoview
