#include "scene/orbit_camera.h"

#include <glm/gtc/matrix_transform.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

namespace isoview {
namespace {

// The fitted bounding sphere fills this fraction of the narrower half-extent less than all.
constexpr double kFitMargin = 1.05;
constexpr double kMinDistanceFactor = 1.0 / 50.0;
constexpr double kMaxDistanceFactor = 20.0;
// near/far sit this much outside the bounding sphere, so its surface never touches a plane.
constexpr double kDepthSlack = 1.05;
constexpr double kMinNearFactor = 1e-3;
// Bell's trackball maps a drag from one edge of the ball to the other, through its centre, to
// acos(-0.6) (126.9 degrees); this gain makes it a half turn.
const double kTrackballGain = std::numbers::pi / std::acos(-0.6);

double saneAspect(float aspect)
{
    return (aspect > 0.0f && std::isfinite(aspect)) ? double(aspect) : 1.0;
}

// The rotation whose rows are the view's right, up and back axes in physical space.
glm::dquat rotationFromViewAxes(const glm::dvec3& right, const glm::dvec3& up,
                                const glm::dvec3& back)
{
    return glm::quat_cast(glm::transpose(glm::dmat3(right, up, back)));
}

// Bell's trackball: a sphere of radius 1 near the centre joined to a hyperbolic sheet outside,
// so the map is smooth everywhere and a point never falls off the ball. x and y are scaled so
// the ball is round on screen and touches the narrower side of the viewport.
glm::dvec3 trackballPoint(glm::vec2 ndc, double aspect)
{
    const double x = double(ndc.x) * std::max(aspect, 1.0);
    const double y = double(ndc.y) * std::max(1.0 / aspect, 1.0);
    const double d2 = x * x + y * y;
    const double z = d2 <= 0.5 ? std::sqrt(1.0 - d2) : 0.5 / std::sqrt(d2);
    return glm::normalize(glm::dvec3(x, y, z));
}

} // namespace

std::string_view standardViewName(StandardView view, bool anatomical)
{
    switch (view) {
    case StandardView::Anterior: return anatomical ? "Anterior" : "-Y";
    case StandardView::Posterior: return anatomical ? "Posterior" : "+Y";
    case StandardView::Left: return anatomical ? "Left" : "+X";
    case StandardView::Right: return anatomical ? "Right" : "-X";
    case StandardView::Superior: return anatomical ? "Superior" : "+Z";
    case StandardView::Inferior: return anatomical ? "Inferior" : "-Z";
    }
    return "?";
}

double Bounds::radius() const
{
    return 0.5 * glm::length(max - min);
}

Bounds volumeBounds(const VolumeGeometry& geometry, glm::uvec3 dims)
{
    const glm::dvec3 last = glm::dvec3(glm::max(dims, glm::uvec3(1u)) - glm::uvec3(1u));
    Bounds b;
    b.min = glm::dvec3(std::numeric_limits<double>::infinity());
    b.max = -b.min;
    auto include = [&](double k) {
        for (double j : {0.0, last.y}) {
            for (double i : {0.0, last.x}) {
                const glm::dvec3 p = geometry.toPhysical({i, j, k});
                b.min = glm::min(b.min, p);
                b.max = glm::max(b.max, p);
            }
        }
    };
    // A regular grid is an affine image of the index box: its two end slices hold every
    // extreme. Slice origins may wander (tilt, uneven gaps), so then every slice counts.
    if (geometry.hasSliceOrigins()) {
        for (unsigned k = 0; k <= unsigned(last.z); ++k)
            include(double(k));
    } else {
        include(0.0);
        include(last.z);
    }
    return b;
}

OrbitCamera::OrbitCamera()
{
    reset();
}

void OrbitCamera::fitTo(const Bounds& bounds)
{
    m_bounds = bounds;
    const double r = bounds.radius();
    // A single voxel (or garbage) has no size to fit: give it a unit sphere.
    m_sceneRadius = (r > 0.0 && std::isfinite(r)) ? r : 1.0;
    m_target = bounds.center();
    // The sphere's silhouette subtends asin(r / d); fit it to the narrower half field of view.
    m_fitDistance =
        kFitMargin * m_sceneRadius / std::sin(glm::radians(double(m_fovYDegrees)) / 2.0);
    m_distance = m_fitDistance;
}

StandardView homeViewFor(const Bounds& bounds)
{
    const glm::dvec3 extent = bounds.max - bounds.min;
    constexpr double kSlabRatio = 3.0;
    const auto thin = [&](int a) {
        const double others = std::min(extent[(a + 1) % 3], extent[(a + 2) % 3]);
        return std::isfinite(others) && others > 0.0 && extent[a] * kSlabRatio <= others;
    };
    if (thin(2)) return StandardView::Superior;
    if (thin(0)) return StandardView::Left;
    return StandardView::Anterior;
}

void OrbitCamera::reset()
{
    setStandardView(homeViewFor(m_bounds));
    fitTo(m_bounds);
}

void OrbitCamera::setStandardView(StandardView view)
{
    // (right, up, back) in LPS; back points from the target to the camera.
    const glm::dvec3 x(1, 0, 0), y(0, 1, 0), z(0, 0, 1);
    glm::dquat q;
    switch (view) {
    case StandardView::Anterior: q = rotationFromViewAxes(x, z, -y); break;
    case StandardView::Posterior: q = rotationFromViewAxes(-x, z, y); break;
    case StandardView::Left: q = rotationFromViewAxes(y, z, x); break;
    case StandardView::Right: q = rotationFromViewAxes(-y, z, -x); break;
    case StandardView::Superior: q = rotationFromViewAxes(-x, -y, z); break;
    case StandardView::Inferior: q = rotationFromViewAxes(x, -y, -z); break;
    }
    m_orientation = glm::quat(glm::normalize(q));
}

void OrbitCamera::rotateByDrag(glm::vec2 fromNdc, glm::vec2 toNdc, float aspect)
{
    const double a = saneAspect(aspect);
    const glm::dvec3 p0 = trackballPoint(fromNdc, a);
    const glm::dvec3 p1 = trackballPoint(toNdc, a);
    const glm::dvec3 axis = glm::cross(p0, p1);
    const double sinAngle = glm::length(axis);
    if (!(sinAngle > 1e-12)) return; // no drag, or non-finite input
    const double angle = kTrackballGain * std::atan2(sinAngle, glm::dot(p0, p1));
    // The drag happens in view space, so the turn applies after physical -> view.
    const glm::dquat turn = glm::angleAxis(angle, axis / sinAngle);
    // Renormalised every time so thousands of small drags never skew the rotation.
    m_orientation = glm::quat(glm::normalize(turn * rotation()));
}

void OrbitCamera::pan(glm::vec2 deltaNdc, float aspect)
{
    const double a = saneAspect(aspect);
    const double halfHeight = m_distance * std::tan(halfFovY(a));
    const glm::dvec3 shift(double(deltaNdc.x) * halfHeight * a, double(deltaNdc.y) * halfHeight,
                           0.0);
    if (!std::isfinite(shift.x) || !std::isfinite(shift.y)) return;
    // Moving the target against the drag moves the scene with it.
    m_target -= glm::conjugate(rotation()) * shift;
}

void OrbitCamera::zoom(float factor)
{
    if (!(factor > 0.0f) || !std::isfinite(factor)) return;
    m_distance = std::clamp(m_distance / double(factor), m_fitDistance * kMinDistanceFactor,
                            m_fitDistance * kMaxDistanceFactor);
}

void OrbitCamera::setOrientation(const glm::quat& orientation)
{
    const float len = glm::length(orientation);
    if (!(len > 1e-6f) || !std::isfinite(len)) return;
    m_orientation = orientation / len;
}

OrbitCamera::Pose OrbitCamera::pose() const
{
    return {m_target, m_distance, m_orientation, m_projection};
}

void OrbitCamera::setPose(const Pose& pose)
{
    if (!glm::any(glm::isnan(pose.target)) && !glm::any(glm::isinf(pose.target)))
        m_target = pose.target;
    if (pose.distance > 0.0 && std::isfinite(pose.distance)) {
        m_distance = std::clamp(pose.distance, m_fitDistance * kMinDistanceFactor,
                                m_fitDistance * kMaxDistanceFactor);
    }
    // A pose's own unit quaternion is kept bit for bit: normalising it again may move it an ulp.
    if (std::abs(glm::length(pose.orientation) - 1.0f) < 1e-5f)
        m_orientation = pose.orientation;
    else
        setOrientation(pose.orientation);
    m_projection = pose.projection;
}

double OrbitCamera::halfFovY(double aspect) const
{
    const double half = glm::radians(double(m_fovYDegrees)) / 2.0;
    // In portrait the angle belongs to the width; widen the vertical one to match.
    return aspect >= 1.0 ? half : std::atan(std::tan(half) / aspect);
}

double OrbitCamera::viewDistance() const
{
    if (m_projection == Projection::Perspective) return m_distance;
    // The orthographic size comes from m_distance alone; the eye itself may stand further back
    // so that the bounding sphere (whose centre the pan may have moved off the view axis and
    // toward the eye) stays in front of a positive near plane.
    const double centerTowardEye = (rotation() * (m_bounds.center() - m_target)).z;
    return std::max(m_distance, 2.0 * m_sceneRadius + centerTowardEye);
}

glm::dmat4 OrbitCamera::viewMatrixD() const
{
    const glm::dmat4 toTarget = glm::translate(glm::dmat4(1.0), -m_target);
    const glm::dmat4 back = glm::translate(glm::dmat4(1.0), glm::dvec3(0.0, 0.0, -viewDistance()));
    return back * glm::dmat4(glm::mat3_cast(rotation())) * toTarget;
}

glm::mat4 OrbitCamera::viewMatrix() const
{
    return glm::mat4(viewMatrixD());
}

glm::mat4 OrbitCamera::projectionMatrix(float aspect) const
{
    const double a = saneAspect(aspect);
    const double half = halfFovY(a);
    // Depth of the bounding sphere's centre in front of the eye.
    const double centerDepth = -(viewMatrixD() * glm::dvec4(m_bounds.center(), 1.0)).z;
    const double zNear =
        std::max(centerDepth - kDepthSlack * m_sceneRadius, kMinNearFactor * m_sceneRadius);
    const double zFar = std::max(centerDepth + kDepthSlack * m_sceneRadius, zNear + m_sceneRadius);
    if (m_projection == Projection::Perspective)
        return glm::mat4(glm::perspective(2.0 * half, a, zNear, zFar));
    const double halfHeight = m_distance * std::tan(half);
    return glm::mat4(
        glm::ortho(-halfHeight * a, halfHeight * a, -halfHeight, halfHeight, zNear, zFar));
}

glm::vec3 OrbitCamera::eyePosition() const
{
    return glm::vec3(m_target + glm::conjugate(rotation()) * glm::dvec3(0.0, 0.0, viewDistance()));
}

} // namespace isoview
