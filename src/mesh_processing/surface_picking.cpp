#include "mesh_processing/surface_picking.h"

#include "core/error.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

namespace isoview {
namespace {

// Cells per triangle: about one triangle per cell keeps both the grid and each cell small.
constexpr double kCellsPerTriangle = 1.0;
constexpr int kMaxCellsPerAxis = 1024;

} // namespace

Ray rayThroughNdc(glm::vec2 ndc, const glm::mat4& view, const glm::mat4& projection)
{
    const glm::dmat4 clipToSpace = glm::inverse(glm::dmat4(projection) * glm::dmat4(view));
    const glm::dvec4 nearPoint = clipToSpace * glm::dvec4(ndc.x, ndc.y, -1.0, 1.0);
    const glm::dvec4 farPoint = clipToSpace * glm::dvec4(ndc.x, ndc.y, 1.0, 1.0);
    if (nearPoint.w == 0.0 || farPoint.w == 0.0) return {glm::dvec3(0.0), glm::dvec3(0.0)};
    const glm::dvec3 origin = glm::dvec3(nearPoint) / nearPoint.w;
    const glm::dvec3 direction = glm::dvec3(farPoint) / farPoint.w - origin;
    if (!std::isfinite(glm::dot(direction, direction)) || !std::isfinite(glm::dot(origin, origin)))
        return {glm::dvec3(0.0), glm::dvec3(0.0)};
    return {origin, direction};
}

SurfacePicker::SurfacePicker(IsoMesh mesh) : m_mesh(std::move(mesh))
{
    if (m_mesh.indices.size() % 3 != 0) {
        throw InvalidInputError("mesh has " + std::to_string(m_mesh.indices.size()) +
                                " indices, not a multiple of 3");
    }
    for (std::uint32_t index : m_mesh.indices) {
        if (index >= m_mesh.positions.size()) {
            throw InvalidInputError("mesh index " + std::to_string(index) + " is out of range (" +
                                    std::to_string(m_mesh.positions.size()) + " vertices)");
        }
    }
    const std::size_t triangles = m_mesh.triangleCount();
    if (triangles == 0) return;

    glm::dvec3 lo(std::numeric_limits<double>::max());
    glm::dvec3 hi(std::numeric_limits<double>::lowest());
    for (std::uint32_t index : m_mesh.indices) {
        lo = glm::min(lo, glm::dvec3(m_mesh.positions[index]));
        hi = glm::max(hi, glm::dvec3(m_mesh.positions[index]));
    }
    // A margin keeps points on the bounds inside the grid, and flat meshes one cell thick.
    const glm::dvec3 extent = hi - lo;
    const double margin = 1e-6 * std::max({extent.x, extent.y, extent.z, 1.0});
    m_min = lo - margin;
    const glm::dvec3 size = extent + 2.0 * margin;
    const double cellVolume = size.x * size.y * size.z / (double(triangles) * kCellsPerTriangle);
    const double side = std::cbrt(cellVolume);
    for (int a = 0; a < 3; ++a)
        m_cells[a] = std::clamp(int(std::ceil(size[a] / side)), 1, kMaxCellsPerAxis);
    m_cellSize = size / glm::dvec3(m_cells);

    // Counting pass, then filling pass (a compressed row layout: no per-cell allocation).
    const std::size_t cellCount = std::size_t(m_cells.x) * m_cells.y * m_cells.z;
    m_cellStart.assign(cellCount + 1, 0);
    const auto forEachCell = [&](std::size_t t, auto&& f) {
        const glm::dvec3 a(m_mesh.positions[m_mesh.indices[3 * t]]);
        const glm::dvec3 b(m_mesh.positions[m_mesh.indices[3 * t + 1]]);
        const glm::dvec3 c(m_mesh.positions[m_mesh.indices[3 * t + 2]]);
        const glm::ivec3 first = cellOf(glm::min(a, glm::min(b, c)));
        const glm::ivec3 last = cellOf(glm::max(a, glm::max(b, c)));
        for (int z = first.z; z <= last.z; ++z)
            for (int y = first.y; y <= last.y; ++y)
                for (int x = first.x; x <= last.x; ++x)
                    f(cellIndex({x, y, z}));
    };
    for (std::size_t t = 0; t < triangles; ++t)
        forEachCell(t, [&](std::size_t cell) { ++m_cellStart[cell + 1]; });
    for (std::size_t c = 0; c < cellCount; ++c)
        m_cellStart[c + 1] += m_cellStart[c];
    m_triangles.resize(m_cellStart[cellCount]);
    std::vector<std::uint32_t> fill(m_cellStart.begin(), m_cellStart.end() - 1);
    for (std::size_t t = 0; t < triangles; ++t)
        forEachCell(t, [&](std::size_t cell) { m_triangles[fill[cell]++] = std::uint32_t(t); });
}

std::size_t SurfacePicker::cellIndex(glm::ivec3 cell) const
{
    return (std::size_t(cell.z) * m_cells.y + cell.y) * m_cells.x + cell.x;
}

glm::ivec3 SurfacePicker::cellOf(const glm::dvec3& p) const
{
    const glm::dvec3 f = glm::floor((p - m_min) / m_cellSize);
    glm::ivec3 cell;
    for (int a = 0; a < 3; ++a)
        cell[a] = int(std::clamp(f[a], 0.0, double(m_cells[a] - 1)));
    return cell;
}

// Moeller-Trumbore, two-sided.
bool SurfacePicker::hitTriangle(const Ray& ray, std::size_t triangle, double& t) const
{
    const glm::dvec3 a(m_mesh.positions[m_mesh.indices[3 * triangle]]);
    const glm::dvec3 b(m_mesh.positions[m_mesh.indices[3 * triangle + 1]]);
    const glm::dvec3 c(m_mesh.positions[m_mesh.indices[3 * triangle + 2]]);
    const glm::dvec3 e1 = b - a;
    const glm::dvec3 e2 = c - a;
    const glm::dvec3 p = glm::cross(ray.direction, e2);
    const double det = glm::dot(e1, p);
    if (std::abs(det) < 1e-300) return false; // parallel or degenerate
    const double inv = 1.0 / det;
    const glm::dvec3 s = ray.origin - a;
    const double u = glm::dot(s, p) * inv;
    if (u < 0.0 || u > 1.0) return false;
    const glm::dvec3 q = glm::cross(s, e1);
    const double v = glm::dot(ray.direction, q) * inv;
    if (v < 0.0 || u + v > 1.0) return false;
    t = glm::dot(e2, q) * inv;
    return t >= 0.0;
}

std::optional<SurfaceHit> SurfacePicker::pick(const Ray& ray) const
{
    if (m_triangles.empty() || glm::dot(ray.direction, ray.direction) == 0.0) return std::nullopt;

    // Where the ray is inside the grid's box (slab test).
    double tEnter = 0.0;
    double tExit = std::numeric_limits<double>::max();
    const glm::dvec3 boxMax = m_min + m_cellSize * glm::dvec3(m_cells);
    for (int a = 0; a < 3; ++a) {
        if (ray.direction[a] == 0.0) {
            if (ray.origin[a] < m_min[a] || ray.origin[a] > boxMax[a]) return std::nullopt;
            continue;
        }
        double t0 = (m_min[a] - ray.origin[a]) / ray.direction[a];
        double t1 = (boxMax[a] - ray.origin[a]) / ray.direction[a];
        if (t0 > t1) std::swap(t0, t1);
        tEnter = std::max(tEnter, t0);
        tExit = std::min(tExit, t1);
    }
    if (tEnter > tExit) return std::nullopt;

    // Cell walk (Amanatides and Woo): next boundary crossing per axis.
    glm::ivec3 cell = cellOf(ray.origin + tEnter * ray.direction);
    glm::ivec3 step(0);
    glm::dvec3 tNext(std::numeric_limits<double>::max());
    glm::dvec3 tDelta(std::numeric_limits<double>::max());
    for (int a = 0; a < 3; ++a) {
        if (ray.direction[a] > 0.0) {
            step[a] = 1;
            tNext[a] =
                (m_min[a] + (cell[a] + 1) * m_cellSize[a] - ray.origin[a]) / ray.direction[a];
            tDelta[a] = m_cellSize[a] / ray.direction[a];
        } else if (ray.direction[a] < 0.0) {
            step[a] = -1;
            tNext[a] = (m_min[a] + cell[a] * m_cellSize[a] - ray.origin[a]) / ray.direction[a];
            tDelta[a] = -m_cellSize[a] / ray.direction[a];
        }
    }

    std::optional<SurfaceHit> best;
    while (true) {
        const std::size_t c = cellIndex(cell);
        for (std::uint32_t i = m_cellStart[c]; i < m_cellStart[c + 1]; ++i) {
            double t = 0.0;
            const std::uint32_t triangle = m_triangles[i];
            if (hitTriangle(ray, triangle, t) && (!best || t < best->t))
                best = SurfaceHit{ray.origin + t * ray.direction, t, triangle};
        }
        const int axis =
            tNext.x < tNext.y ? (tNext.x < tNext.z ? 0 : 2) : (tNext.y < tNext.z ? 1 : 2);
        // A hit before this cell's exit cannot be beaten by a later cell.
        if (best && best->t <= tNext[axis]) break;
        if (tNext[axis] > tExit) break;
        cell[axis] += step[axis];
        if (cell[axis] < 0 || cell[axis] >= m_cells[axis]) break;
        tNext[axis] += tDelta[axis];
    }
    return best;
}

} // namespace isoview
