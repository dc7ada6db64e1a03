#include "mesh_processing/mesh_decimation.h"

#include "core/error.h"
#include "core/parallel_for.h"
#include "extraction/mesh_metrics.h"
#include "mesh_processing/decimation_distance_module.h"
#include "mesh_processing/physical_mesh.h"

#include <OpenMesh/Core/Mesh/TriMesh_ArrayKernelT.hh>
#include <OpenMesh/Core/System/omstream.hh>
#include <OpenMesh/Tools/Decimater/BaseDecimaterT.hh>
#include <OpenMesh/Tools/Decimater/ModNormalFlippingT.hh>
#include <OpenMesh/Tools/Decimater/ModQuadricT.hh>
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <span>
#include <string>
#include <vector>

namespace isoview {
namespace {

struct DoubleTraits : OpenMesh::DefaultTraits {
    using Point = OpenMesh::Vec3d;
    using Normal = OpenMesh::Vec3d;
};
using HalfEdgeMesh = OpenMesh::TriMesh_ArrayKernelT<DoubleTraits>;
using Quadric = OpenMesh::Decimater::ModQuadricT<HalfEdgeMesh>;
using NormalFlipping = OpenMesh::Decimater::ModNormalFlippingT<HalfEdgeMesh>;
using AccumulatedDistance = ModAccumulatedDistanceT<HalfEdgeMesh>;

// Candidate collapses compared per step of the multiple-choice decimation. Four keeps the
// distances of eight (1.3M-triangle CT skin to 10 %: p95 0.17 mm against 0.16 mm) in two thirds
// of the time.
constexpr unsigned kCandidates = 4;
// Steps in a row without a legal candidate before a pass concludes that none is left.
constexpr unsigned kMaxMisses = 64;
// Collapses between two looks at progress, Cancel and the deleted elements.
constexpr std::size_t kCollapsesPerCheck = 4096;
// Of the work, the share the slabs do when there are several (the final pass does the rest).
constexpr double kSlabShare = 0.9;

// Multiple-choice decimation (Wu and Kobbelt 2002): each step collapses the best of a few random
// candidates instead of keeping a global heap, several times faster at a quality that does not
// show at these tolerances. OpenMesh's McDecimaterT draws from the global std::rand, which
// threads would share; this one draws from its own seeded generator, and it garbage-collects
// as it goes, so its samples do not land on deleted half edges and it reaches the target
// (McDecimaterT gives up after 20 draws in a row of only deleted ones).
class MultipleChoiceDecimater : public OpenMesh::Decimater::BaseDecimaterT<HalfEdgeMesh> {
public:
    MultipleChoiceDecimater(HalfEdgeMesh& mesh, std::uint32_t seed)
        : BaseDecimaterT<HalfEdgeMesh>(mesh), m_mesh(mesh), m_random(seed)
    {
    }

    // Collapses until at most goal faces are alive or no legal candidate is found; keepGoing
    // (faces alive) is asked every kCollapsesPerCheck collapses and stops the pass when false.
    // Returns the faces alive. The mesh has no deleted elements when this starts.
    template <class KeepGoing> std::size_t decimateTo(std::size_t goal, const KeepGoing& keepGoing)
    {
        std::size_t alive = m_mesh.n_faces();
        std::size_t deletedHalfEdges = 0;
        std::size_t collapses = 0;
        unsigned misses = 0;
        auto pick = halfEdgePicker();
        while (alive > goal) {
            HalfEdgeMesh::HalfedgeHandle best;
            float bestEnergy = std::numeric_limits<float>::max();
            for (unsigned i = 0; i < kCandidates; ++i) {
                const HalfEdgeMesh::HalfedgeHandle h(pick(m_random));
                if (m_mesh.status(h).deleted()) continue;
                CollapseInfo candidate(m_mesh, h);
                if (!is_collapse_legal(candidate)) continue;
                const float energy = collapse_priority(candidate);
                if (energy < 0.0f) continue; // a module found it illegal
                if (energy < bestEnergy) {
                    bestEnergy = energy;
                    best = h;
                }
            }
            if (!best.is_valid()) {
                if (++misses > kMaxMisses) break;
                continue;
            }
            misses = 0;
            CollapseInfo collapse(m_mesh, best);
            const bool boundary =
                m_mesh.is_boundary(collapse.v0v1) || m_mesh.is_boundary(collapse.v1v0);
            alive -= boundary ? 1 : 2;
            deletedHalfEdges += boundary ? 4 : 6;
            preprocess_collapse(collapse);
            m_mesh.collapse(best);
            for (const auto f : m_mesh.vf_range(collapse.v1))
                m_mesh.set_normal(f, m_mesh.calc_face_normal(f));
            postprocess_collapse(collapse);
            if (++collapses % kCollapsesPerCheck == 0) {
                if (!keepGoing(alive)) break;
                // Once half the half edges are deleted, half the draws would be wasted.
                if (2 * deletedHalfEdges > m_mesh.n_halfedges()) {
                    m_mesh.garbage_collection();
                    deletedHalfEdges = 0;
                    pick = halfEdgePicker();
                }
            }
        }
        return alive;
    }

    // Why the remaining collapses are refused, each counted by the first rule it breaks:
    // topology (OpenMesh's link condition, locked vertices), the distance bound, the normal
    // flip limit. Visits every live half edge once; only for a report after a pass stopped.
    DecimationBlockers countBlockers(AccumulatedDistance& distance, NormalFlipping& flipping)
    {
        DecimationBlockers blockers;
        for (const auto h : m_mesh.halfedges()) {
            CollapseInfo candidate(m_mesh, h);
            if (!is_collapse_legal(candidate))
                ++blockers.topology;
            else if (distance.collapse_priority(candidate) < 0.0f)
                ++blockers.distance;
            else if (flipping.collapse_priority(candidate) < 0.0f)
                ++blockers.normals;
            else
                ++blockers.allowed;
        }
        return blockers;
    }

private:
    std::uniform_int_distribution<int> halfEdgePicker() const
    {
        return std::uniform_int_distribution<int>(0, int(m_mesh.n_halfedges()) - 1);
    }

    HalfEdgeMesh& m_mesh;
    std::mt19937 m_random;
};

// What one pass of decimation gives back: triangles as indices of the caller's positions (the
// positions never move: collapses keep a vertex where it is), each surviving vertex's distance
// bound, and the triangles the half-edge mesh could not hold.
struct PassResult {
    std::vector<std::uint32_t> triangles;
    std::vector<std::pair<std::uint32_t, double>> bounds;
    std::size_t rejected = 0;
    bool reachedGoal = true;
    DecimationBlockers blockers; // counted only when the goal was not reached
};

// One decimation pass over `triangles` (indices into positions) to goal faces. Vertices marked
// in `locked` (may be empty) and those of triangles the half-edge mesh refuses neither move nor
// vanish. `bounds` holds each vertex's distance bound from earlier passes. keepGoing(fraction
// of the pass done) may stop it early.
template <class KeepGoing>
PassResult decimatePass(const std::vector<glm::vec3>& positions,
                        std::span<const std::uint32_t> triangles,
                        const std::vector<std::uint8_t>& locked, const std::vector<double>& bounds,
                        std::size_t goal, const DecimationOptions& options, std::uint32_t seed,
                        const KeepGoing& keepGoing)
{
    HalfEdgeMesh mesh;
    OpenMesh::VPropHandleT<std::uint32_t> original;
    mesh.add_property(original);
    std::vector<std::uint32_t> local(positions.size(), ~std::uint32_t(0));
    std::vector<std::uint32_t> rejected;
    const auto handleOf = [&](std::uint32_t index) {
        if (local[index] == ~std::uint32_t(0)) {
            const glm::vec3& p = positions[index];
            const auto v = mesh.add_vertex(HalfEdgeMesh::Point(p.x, p.y, p.z));
            mesh.property(original, v) = index;
            local[index] = std::uint32_t(v.idx());
        }
        return HalfEdgeMesh::VertexHandle(int(local[index]));
    };
    for (std::size_t t = 0; t < triangles.size(); t += 3) {
        const auto a = handleOf(triangles[t]), b = handleOf(triangles[t + 1]),
                   c = handleOf(triangles[t + 2]);
        if (!mesh.add_face(a, b, c).is_valid()) {
            rejected.insert(rejected.end(), triangles.begin() + std::ptrdiff_t(t),
                            triangles.begin() + std::ptrdiff_t(t + 3));
        }
    }
    PassResult result;
    result.rejected = rejected.size() / 3;

    mesh.request_vertex_status();
    mesh.request_edge_status();
    mesh.request_halfedge_status();
    mesh.request_face_status();
    mesh.request_face_normals();
    mesh.update_face_normals();
    for (const std::uint32_t index : rejected)
        mesh.status(HalfEdgeMesh::VertexHandle(int(local[index]))).set_locked(true);
    if (!locked.empty()) {
        for (const auto v : mesh.vertices()) {
            if (locked[mesh.property(original, v)]) mesh.status(v).set_locked(true);
        }
    }

    MultipleChoiceDecimater decimater(mesh, seed);
    Quadric::Handle quadric;
    NormalFlipping::Handle flipping;
    AccumulatedDistance::Handle distance;
    decimater.add(quadric);
    decimater.add(flipping);
    decimater.add(distance);
    decimater.module(quadric).unset_max_err(); // the priority, not a limit
    decimater.module(flipping).set_max_normal_deviation(options.maxNormalDeviationDegrees);
    decimater.module(distance).setTolerance(options.toleranceMm);
    if (!decimater.initialize()) throw Error("the mesh decimater could not be set up");
    for (const auto v : mesh.vertices())
        decimater.module(distance).setBound(v, bounds[mesh.property(original, v)]);

    const std::size_t start = mesh.n_faces();
    const std::size_t alive = decimater.decimateTo(goal, [&](std::size_t now) {
        return keepGoing(start > goal ? double(start - now) / double(start - goal) : 1.0);
    });
    result.reachedGoal = alive <= goal;
    if (!result.reachedGoal) {
        result.blockers =
            decimater.countBlockers(decimater.module(distance), decimater.module(flipping));
    }
    mesh.garbage_collection();

    result.triangles.reserve(3 * mesh.n_faces() + rejected.size());
    for (const auto f : mesh.faces()) {
        for (const auto v : f.vertices())
            result.triangles.push_back(mesh.property(original, v));
    }
    result.triangles.insert(result.triangles.end(), rejected.begin(), rejected.end());
    result.bounds.reserve(mesh.n_vertices());
    for (const auto v : mesh.vertices()) {
        result.bounds.emplace_back(mesh.property(original, v), decimater.module(distance).bound(v));
    }
    return result;
}

// Triangles split into `count` slabs of equal size along the longest axis of the mesh, by their
// centroids (ties by index, so the split is the same every time).
std::vector<std::vector<std::uint32_t>> splitIntoSlabs(const IsoMesh& mesh, unsigned count)
{
    glm::vec3 lo(std::numeric_limits<float>::max()), hi(-std::numeric_limits<float>::max());
    for (const glm::vec3& p : mesh.positions) {
        lo = glm::min(lo, p);
        hi = glm::max(hi, p);
    }
    const glm::vec3 extent = hi - lo;
    const int axis = extent.x >= extent.y && extent.x >= extent.z ? 0
                     : extent.y >= extent.z                       ? 1
                                                                  : 2;
    const std::size_t triangles = mesh.triangleCount();
    std::vector<std::pair<float, std::uint32_t>> order(triangles);
    for (std::size_t t = 0; t < triangles; ++t) {
        const float centroid = mesh.positions[mesh.indices[3 * t]][axis] +
                               mesh.positions[mesh.indices[3 * t + 1]][axis] +
                               mesh.positions[mesh.indices[3 * t + 2]][axis];
        order[t] = {centroid, std::uint32_t(t)};
    }
    std::sort(order.begin(), order.end());
    std::vector<std::vector<std::uint32_t>> slabs(count);
    for (unsigned s = 0; s < count; ++s) {
        const std::size_t begin = triangles * s / count, end = triangles * (s + 1) / count;
        slabs[s].reserve(3 * (end - begin));
        for (std::size_t i = begin; i < end; ++i) {
            const std::size_t t = order[i].second;
            slabs[s].insert(slabs[s].end(), mesh.indices.begin() + std::ptrdiff_t(3 * t),
                            mesh.indices.begin() + std::ptrdiff_t(3 * t + 3));
        }
    }
    return slabs;
}

// Collapses keep original vertex positions, so a decimated convex patch lies inside the raw
// surface (its triangles are chords) and a concave one outside: a closed mesh loses volume. One
// uniform offset along the vertex normals, delta = (V_before - V_after) / area, gives the volume
// back to first order; it is limited to half the tolerance so the result stays within it.
double restoreVolume(IsoMesh& mesh, double volumeBefore, double toleranceMm)
{
    const double area = surfaceArea(mesh);
    if (!(area > 0.0)) return 0.0;
    const double delta = std::clamp((volumeBefore - enclosedVolume(mesh)) / area,
                                    -0.5 * toleranceMm, 0.5 * toleranceMm);
    for (std::size_t v = 0; v < mesh.positions.size(); ++v) {
        mesh.positions[v] += float(delta) * mesh.normals[v];
    }
    return delta;
}

// OpenMesh writes faces it cannot add to its error and log streams; we count and report those
// ourselves.
class QuietOpenMesh {
public:
    QuietOpenMesh()
    {
        ::omerr().disable();
        ::omlog().disable();
    }
    ~QuietOpenMesh()
    {
        ::omerr().enable();
        ::omlog().enable();
    }
    QuietOpenMesh(const QuietOpenMesh&) = delete;
    QuietOpenMesh& operator=(const QuietOpenMesh&) = delete;
};

} // namespace

std::string DecimationBlockers::mainReason() const
{
    const std::size_t most = std::max({topology, distance, normals});
    if (most == 0) return {};
    if (most == distance) return "the distance tolerance";
    if (most == normals) return "the normal-flip limit";
    return "the surface's topology";
}

DecimationResult decimateMesh(IsoMesh& mesh, const DecimationOptions& options,
                              const std::function<bool(double fraction)>& progress)
{
    if (!(options.keepFraction > 0.0 && options.keepFraction <= 1.0)) {
        throw InvalidInputError("decimation keeps a fraction of the triangles in (0, 1], not " +
                                std::to_string(options.keepFraction));
    }
    if (!(options.toleranceMm > 0.0) || !std::isfinite(options.toleranceMm)) {
        throw InvalidInputError("the decimation tolerance must be a positive distance");
    }
    DecimationResult result;
    result.trianglesBefore = mesh.triangleCount();
    result.trianglesAfter = result.trianglesBefore;
    if (options.keepFraction == 1.0 || mesh.indices.empty()) return result;

    const QuietOpenMesh quiet;
    const MeshTopology topology = analyzeTopology(mesh);
    const bool closed = topology.boundaryEdges == 0 && topology.nonManifoldEdges == 0;
    const double volumeBefore = closed ? enclosedVolume(mesh) : 0.0;
    const auto target =
        std::size_t(std::llround(double(mesh.triangleCount()) * options.keepFraction));

    const unsigned slabs =
        options.slabs > 0 ? options.slabs
                          : unsigned(std::clamp<std::size_t>(
                                mesh.triangleCount() / kTrianglesPerSlab, 1, parallelThreads()));
    const double finalStart = slabs > 1 ? kSlabShare : 0.0;
    std::vector<double> bounds(mesh.positions.size(), 0.0);
    std::vector<std::uint32_t> triangles;
    if (slabs > 1) {
        // Pass 1: every slab on its own, the vertices it shares with another slab locked.
        const std::vector<std::vector<std::uint32_t>> parts = splitIntoSlabs(mesh, slabs);
        std::vector<std::uint8_t> shared(mesh.positions.size(), 0);
        {
            std::vector<std::uint32_t> owner(mesh.positions.size(), ~std::uint32_t(0));
            for (unsigned s = 0; s < slabs; ++s) {
                for (const std::uint32_t v : parts[s]) {
                    if (owner[v] == ~std::uint32_t(0))
                        owner[v] = s;
                    else if (owner[v] != s)
                        shared[v] = 1;
                }
            }
        }
        std::vector<PassResult> passes(slabs);
        std::atomic<bool> cancelled = false;
        // Slab 0 runs on the calling thread (parallelFor's first chunk): only it reports
        // progress, so the callback is never called from another thread.
        parallelFor(slabs, 1, [&](std::size_t begin, std::size_t end) {
            for (std::size_t s = begin; s < end; ++s) {
                const std::size_t goal =
                    std::size_t(std::llround(double(parts[s].size()) / 3.0 * options.keepFraction));
                passes[s] =
                    decimatePass(mesh.positions, parts[s], shared, bounds, goal, options,
                                 std::uint32_t(s + 1), [&](double fraction) {
                                     if (cancelled) return false;
                                     if (s == 0 && progress && !progress(kSlabShare * fraction)) {
                                         cancelled = true;
                                         return false;
                                     }
                                     return true;
                                 });
            }
        });
        if (cancelled) throw CancelledError("decimation cancelled");
        for (const PassResult& pass : passes) {
            triangles.insert(triangles.end(), pass.triangles.begin(), pass.triangles.end());
            for (const auto& [vertex, bound] : pass.bounds)
                bounds[vertex] = std::max(bounds[vertex], bound);
        }
    } else {
        triangles = mesh.indices;
    }

    // The last pass: the whole mesh, seams free, to the target.
    bool cancelled = false;
    PassResult last = decimatePass(
        mesh.positions, triangles, {}, bounds, target, options, 0, [&](double fraction) {
            cancelled = progress && !progress(finalStart + (1.0 - finalStart) * fraction);
            return !cancelled;
        });
    if (cancelled) throw CancelledError("decimation cancelled");
    if (progress && !progress(1.0)) throw CancelledError("decimation cancelled");

    IsoMesh out;
    out.positions = mesh.positions;
    out.indices = std::move(last.triangles);
    removeUnreferencedVertices(out);
    recomputeNormalsAndKeys(out);
    if (closed) result.volumeOffsetMm = restoreVolume(out, volumeBefore, options.toleranceMm);
    result.trianglesNotDecimated = last.rejected;
    result.trianglesAfter = out.triangleCount();
    result.reachedTarget = last.reachedGoal;
    result.blockers = last.blockers;
    mesh = std::move(out);
    return result;
}

} // namespace isoview
