#include "mesh_processing/surface_distance.h"

#include "core/parallel_for.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

namespace isoview {
namespace {

double pointSegmentDistanceSquared(const glm::dvec3& p, const glm::dvec3& a, const glm::dvec3& b)
{
    const glm::dvec3 ab = b - a;
    const double length2 = glm::dot(ab, ab);
    const double t = length2 > 0.0 ? std::clamp(glm::dot(p - a, ab) / length2, 0.0, 1.0) : 0.0;
    const glm::dvec3 d = p - (a + t * ab);
    return glm::dot(d, d);
}

// Triangles binned by the grid cells their bounding boxes touch (compressed rows).
class TriangleGrid {
public:
    explicit TriangleGrid(const IsoMesh& mesh) : m_mesh(mesh)
    {
        const std::size_t triangles = mesh.triangleCount();
        m_lo = glm::dvec3(std::numeric_limits<double>::max());
        glm::dvec3 hi(-std::numeric_limits<double>::max());
        double edgeSum = 0.0;
        for (std::size_t t = 0; t < triangles; ++t) {
            const glm::dvec3 a = corner(t, 0), b = corner(t, 1);
            edgeSum += glm::length(b - a);
        }
        for (const glm::vec3& p : mesh.positions) {
            m_lo = glm::min(m_lo, glm::dvec3(p));
            hi = glm::max(hi, glm::dvec3(p));
        }
        // Cells about two edges wide hold a handful of triangles each.
        const double meanEdge = triangles > 0 ? edgeSum / double(triangles) : 1.0;
        const glm::dvec3 extent = glm::max(hi - m_lo, glm::dvec3(1e-9));
        m_cell = std::max(2.0 * meanEdge, 1e-9);
        // Never more cells than about four per triangle.
        const double cells = extent.x * extent.y * extent.z / (m_cell * m_cell * m_cell);
        const double limit = 4.0 * double(std::max<std::size_t>(triangles, 1));
        if (cells > limit) m_cell *= std::cbrt(cells / limit);
        m_dims = glm::ivec3(glm::max(glm::dvec3(1.0), glm::ceil(extent / m_cell)));

        m_boxes.resize(triangles);
        for (std::size_t t = 0; t < triangles; ++t) {
            const glm::dvec3 a = corner(t, 0), b = corner(t, 1), c = corner(t, 2);
            m_boxes[t] = {glm::vec3(glm::min(a, glm::min(b, c))),
                          glm::vec3(glm::max(a, glm::max(b, c)))};
        }
        std::vector<std::uint32_t> counts(cellCount() + 1, 0);
        forEachCellOf(triangles, [&](std::size_t, std::size_t cell) { ++counts[cell + 1]; });
        for (std::size_t c = 1; c < counts.size(); ++c)
            counts[c] += counts[c - 1];
        m_offsets = counts;
        m_triangles.resize(counts.back());
        forEachCellOf(triangles, [&](std::size_t t, std::size_t cell) {
            m_triangles[counts[cell]++] = std::uint32_t(t);
        });
    }

    double nearest(const glm::dvec3& p) const
    {
        const glm::ivec3 home = cellOf(p);
        double best2 = std::numeric_limits<double>::max();
        // Shells of cells around the home cell; a point in shell r is at least (r - 1) cells
        // away, so the search stops once that bound passes the best distance found. Inside a
        // shell, a cell (and then a triangle) whose box is already farther than the best
        // distance is skipped: on a surface measured against itself nearly every query ends in
        // its home cell and the few neighbours its point is close to.
        const int maxShell = std::max({m_dims.x, m_dims.y, m_dims.z});
        for (int r = 0; r <= maxShell; ++r) {
            const double bound = double(std::max(r - 1, 0)) * m_cell;
            if (bound * bound > best2) break;
            for (int z = home.z - r; z <= home.z + r; ++z) {
                if (z < 0 || z >= m_dims.z) continue;
                for (int y = home.y - r; y <= home.y + r; ++y) {
                    if (y < 0 || y >= m_dims.y) continue;
                    // Rows inside the shell's faces only have their two end cells on it.
                    const bool faceRow = std::abs(z - home.z) == r || std::abs(y - home.y) == r;
                    const int step = faceRow || r == 0 ? 1 : 2 * r;
                    for (int x = home.x - r; x <= home.x + r; x += step) {
                        if (x < 0 || x >= m_dims.x) continue;
                        const glm::dvec3 cellLo = m_lo + glm::dvec3(x, y, z) * m_cell;
                        if (boxDistance2(p, cellLo, cellLo + m_cell) >= best2) continue;
                        const std::size_t cell = index({x, y, z});
                        for (std::uint32_t i = m_offsets[cell]; i < m_offsets[cell + 1]; ++i) {
                            const std::uint32_t t = m_triangles[i];
                            const Box& box = m_boxes[t];
                            if (boxDistance2(p, glm::dvec3(box.lo), glm::dvec3(box.hi)) >= best2) {
                                continue;
                            }
                            const double d =
                                pointTriangleDistance(p, corner(t, 0), corner(t, 1), corner(t, 2));
                            best2 = std::min(best2, d * d);
                        }
                    }
                }
            }
        }
        return std::sqrt(best2);
    }

private:
    // A triangle's bounding box: the box test is a fraction of the exact distance's cost.
    struct Box {
        glm::vec3 lo;
        glm::vec3 hi;
    };

    // The squared distance from p to the box [lo, hi] (0 inside it).
    static double boxDistance2(const glm::dvec3& p, const glm::dvec3& lo, const glm::dvec3& hi)
    {
        const glm::dvec3 outside = glm::max(glm::max(lo - p, p - hi), glm::dvec3(0.0));
        return glm::dot(outside, outside);
    }

    glm::dvec3 corner(std::size_t t, int c) const
    {
        return glm::dvec3(m_mesh.positions[m_mesh.indices[3 * t + std::size_t(c)]]);
    }
    std::size_t cellCount() const { return std::size_t(m_dims.x) * m_dims.y * m_dims.z; }
    std::size_t index(const glm::ivec3& c) const
    {
        return std::size_t(c.x) +
               std::size_t(m_dims.x) * (std::size_t(c.y) + std::size_t(m_dims.y) * c.z);
    }
    glm::ivec3 cellOf(const glm::dvec3& p) const
    {
        const glm::ivec3 c(glm::floor((p - m_lo) / m_cell));
        return glm::clamp(c, glm::ivec3(0), m_dims - 1);
    }
    template <class F> void forEachCellOf(std::size_t triangles, F f) const
    {
        for (std::size_t t = 0; t < triangles; ++t) {
            const glm::dvec3 a = corner(t, 0), b = corner(t, 1), c = corner(t, 2);
            const glm::ivec3 lo = cellOf(glm::min(a, glm::min(b, c)));
            const glm::ivec3 hi = cellOf(glm::max(a, glm::max(b, c)));
            for (int z = lo.z; z <= hi.z; ++z) {
                for (int y = lo.y; y <= hi.y; ++y) {
                    for (int x = lo.x; x <= hi.x; ++x)
                        f(t, index({x, y, z}));
                }
            }
        }
    }

    const IsoMesh& m_mesh;
    glm::dvec3 m_lo{0.0};
    double m_cell = 1.0;
    glm::ivec3 m_dims{1};
    std::vector<std::uint32_t> m_offsets;
    std::vector<std::uint32_t> m_triangles;
    std::vector<Box> m_boxes;
};

} // namespace

double pointTriangleDistance(const glm::dvec3& p, const glm::dvec3& a, const glm::dvec3& b,
                             const glm::dvec3& c)
{
    const glm::dvec3 n = glm::cross(b - a, c - a);
    const double n2 = glm::dot(n, n);
    if (n2 > 0.0) {
        // The projection inside the triangle (all barycentric weights >= 0): the plane distance.
        const glm::dvec3 q = p - n * (glm::dot(p - a, n) / n2);
        const double u = glm::dot(glm::cross(c - b, q - b), n);
        const double v = glm::dot(glm::cross(a - c, q - c), n);
        const double w = glm::dot(glm::cross(b - a, q - a), n);
        if (u >= 0.0 && v >= 0.0 && w >= 0.0) return std::abs(glm::dot(p - a, n)) / std::sqrt(n2);
    }
    // Otherwise the nearest point is on an edge (this also covers degenerate triangles).
    return std::sqrt(
        std::min({pointSegmentDistanceSquared(p, a, b), pointSegmentDistanceSquared(p, b, c),
                  pointSegmentDistanceSquared(p, c, a)}));
}

DistanceSummary distanceToSurface(const std::vector<glm::vec3>& points, const IsoMesh& reference)
{
    DistanceSummary summary;
    if (points.empty() || reference.indices.empty()) return summary;
    const TriangleGrid grid(reference);
    std::vector<double> distances(points.size());
    parallelFor(points.size(), 4096, [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i)
            distances[i] = grid.nearest(glm::dvec3(points[i]));
    });

    summary.points = points.size();
    double sum = 0.0;
    for (double d : distances)
        sum += d;
    summary.mean = sum / double(points.size());
    const auto p95 =
        distances.begin() + std::ptrdiff_t(std::ceil(0.95 * double(points.size())) - 1);
    std::nth_element(distances.begin(), p95, distances.end());
    summary.p95 = *p95;
    summary.max = *std::max_element(distances.begin(), distances.end());
    return summary;
}

} // namespace isoview
