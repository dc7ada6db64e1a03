// Picking a point on a surface: the first triangle a ray meets, found on the CPU against the
// mesh the view shows (the 3D view's "click on the surface").
//
// Why on the CPU rather than by reading the GL depth buffer back: the hit is exact (a float
// depth buffer quantises depth, worst far from the camera), it does not wait for the render
// thread or depend on what else the frame draws (volume rendering, the orientation marker), and
// it names the triangle hit. A uniform grid of triangle references, built once per surface,
// keeps a pick to the few cells the ray crosses: well under a millisecond for 2 M triangles.
//
// Example:
//   SurfacePicker picker(toPhysicalMesh(surface, volume.geometry())); // once per surface
//   Ray ray = rayThroughNdc(ndc, camera.viewMatrix(), camera.projectionMatrix(aspect));
//   if (auto hit = picker.pick(ray)) use(hit->point); // millimetres
#pragma once

#include "extraction/iso_mesh.h"

#include <glm/glm.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace isoview {

// origin + t * direction, t >= 0; direction need not be unit length.
struct Ray {
    glm::dvec3 origin{0.0};
    glm::dvec3 direction{0.0, 0.0, -1.0};
};

// The ray through a point of the view (normalised device coordinates, [-1, 1]^2, +y up) from
// the near plane towards the far one, in the space `view` maps from (physical millimetres for
// the viewer's camera). Perspective and orthographic projections alike. A singular matrix gives
// a ray with a zero direction, which hits nothing.
Ray rayThroughNdc(glm::vec2 ndc, const glm::mat4& view, const glm::mat4& projection);

struct SurfaceHit {
    glm::dvec3 point{0.0}; // on the triangle, in the mesh's space
    double t = 0.0;        // along the ray, in units of its direction
    std::size_t triangle = 0;
};

class SurfacePicker {
public:
    // Builds the grid over the mesh's triangles: linear time, about 12 bytes per triangle
    // beside the mesh. Throws InvalidInputError for an index out of range or an index count
    // that is not a multiple of 3. Immutable afterwards: pick() may run on any thread.
    explicit SurfacePicker(IsoMesh mesh);

    // The nearest triangle the ray meets at t >= 0, either side facing it; nullopt when none.
    std::optional<SurfaceHit> pick(const Ray& ray) const;

    const IsoMesh& mesh() const { return m_mesh; }

private:
    std::size_t cellIndex(glm::ivec3 cell) const;
    glm::ivec3 cellOf(const glm::dvec3& p) const;
    bool hitTriangle(const Ray& ray, std::size_t triangle, double& t) const;

    IsoMesh m_mesh;
    glm::dvec3 m_min{0.0};
    glm::dvec3 m_cellSize{1.0};
    glm::ivec3 m_cells{0};
    // Triangles of cell c: m_triangles[m_cellStart[c] .. m_cellStart[c + 1]).
    std::vector<std::uint32_t> m_cellStart;
    std::vector<std::uint32_t> m_triangles;
};

} // namespace isoview
