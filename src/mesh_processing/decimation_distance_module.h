// An OpenMesh decimater module that bounds how far decimation moves the surface, at the cost of
// one point against one fan per candidate collapse. Private to mesh_decimation.cpp.
//
// Each vertex carries a bound on the distance between the input vertices it has absorbed and the
// current surface near it (0 at the start). A half-edge collapse v0 -> v1 is legal when
//     bound(v0) + distance(p0, the fan around v1 after the collapse) <= tolerance,
// and afterwards v1's bound is the larger of its own and that sum.
//
// NOTE: OpenMesh's ModHausdorffT measures every absorbed point against the new fan, exactly;
// on a 1.3M-triangle CT skin that module alone cost more than VTK's whole pipeline (its point
// lists grow as the mesh shrinks). This bound is the error-accumulation one of Kobbelt,
// Campagna and Seidel's decimation: cheap and, since errors add along the chain of collapses,
// pessimistic for the removed vertex; the neighbours whose fans the collapse reshapes are not
// re-measured. The result is measured exactly afterwards (surface_distance.h), both ways, and
// the print report gives those figures, not this bound.
#pragma once

#include "mesh_processing/surface_distance.h"

#include <glm/glm.hpp>

#include <OpenMesh/Core/Utils/Property.hh>
#include <OpenMesh/Tools/Decimater/ModBaseT.hh>
#include <algorithm>
#include <limits>

namespace isoview {

template <class MeshT> class ModAccumulatedDistanceT : public OpenMesh::Decimater::ModBaseT<MeshT> {
public:
    DECIMATING_MODULE(ModAccumulatedDistanceT, MeshT, AccumulatedDistance);

    explicit ModAccumulatedDistanceT(MeshT& mesh) : Base(mesh, true), m_mesh(mesh)
    {
        m_mesh.add_property(m_bound);
    }
    ~ModAccumulatedDistanceT() override { m_mesh.remove_property(m_bound); }
    ModAccumulatedDistanceT(const ModAccumulatedDistanceT&) = delete;
    ModAccumulatedDistanceT& operator=(const ModAccumulatedDistanceT&) = delete;

    void setTolerance(double toleranceMm) { m_tolerance = toleranceMm; }
    // A vertex's bound, carried from one pass to the next (initialize() sets them all to 0).
    double bound(typename MeshT::VertexHandle v) const { return m_mesh.property(m_bound, v); }
    void setBound(typename MeshT::VertexHandle v, double bound)
    {
        m_mesh.property(m_bound, v) = bound;
    }

    void initialize() override
    {
        for (const auto v : m_mesh.vertices())
            m_mesh.property(m_bound, v) = 0.0;
    }

    float collapse_priority(const CollapseInfo& ci) override
    {
        const double start = m_mesh.property(m_bound, ci.v0);
        if (start > m_tolerance) return float(Base::ILLEGAL_COLLAPSE);
        // The fan around v1 after the collapse is v0's fan, less the two faces that vanish, with
        // v0 moved onto v1.
        const glm::dvec3 p0 = point(ci.p0);
        const glm::dvec3 p1 = point(ci.p1);
        double nearest = std::numeric_limits<double>::max();
        for (auto fv = m_mesh.cvf_iter(ci.v0); fv.is_valid(); ++fv) {
            if (*fv == ci.fl || *fv == ci.fr) continue;
            glm::dvec3 corners[3];
            int i = 0;
            for (auto v = m_mesh.cfv_iter(*fv); v.is_valid() && i < 3; ++v, ++i)
                corners[i] = *v == ci.v0 ? p1 : point(m_mesh.point(*v));
            nearest =
                std::min(nearest, pointTriangleDistance(p0, corners[0], corners[1], corners[2]));
            if (start + nearest <= m_tolerance) return float(Base::LEGAL_COLLAPSE);
        }
        return float(Base::ILLEGAL_COLLAPSE);
    }

    void postprocess_collapse(const CollapseInfo& ci) override
    {
        const glm::dvec3 p0 = point(ci.p0);
        double nearest = std::numeric_limits<double>::max();
        for (auto fv = m_mesh.cvf_iter(ci.v1); fv.is_valid(); ++fv) {
            glm::dvec3 corners[3];
            int i = 0;
            for (auto v = m_mesh.cfv_iter(*fv); v.is_valid() && i < 3; ++v, ++i)
                corners[i] = point(m_mesh.point(*v));
            nearest =
                std::min(nearest, pointTriangleDistance(p0, corners[0], corners[1], corners[2]));
        }
        double& bound = m_mesh.property(m_bound, ci.v1);
        bound = std::max(bound, m_mesh.property(m_bound, ci.v0) + nearest);
    }

private:
    template <class P> static glm::dvec3 point(const P& p) { return {p[0], p[1], p[2]}; }

    MeshT& m_mesh;
    double m_tolerance = std::numeric_limits<double>::max();
    OpenMesh::VPropHandleT<double> m_bound;
};

} // namespace isoview
