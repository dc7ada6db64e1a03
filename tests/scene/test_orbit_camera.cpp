// OrbitCamera and volumeBounds: the standard views in LPS, fitting in both projections and at
// any aspect, near/far planes, pan under the cursor, the trackball's direction, size and
// stability, zoom limits, and the bounds of tilted and rotated geometry.
#include "scene/orbit_camera.h"

#include <glm/gtc/quaternion.hpp>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

namespace isoview {
namespace {

constexpr float kAspects[] = {1.0f, 1.6f, 0.5f};
constexpr Projection kProjections[] = {Projection::Perspective, Projection::Orthographic};
constexpr StandardView kViews[] = {StandardView::Anterior, StandardView::Posterior,
                                   StandardView::Left,     StandardView::Right,
                                   StandardView::Superior, StandardView::Inferior};

// Normalised device coordinates of a physical point; w > 0 is checked (in front of the eye).
glm::dvec3 project(const OrbitCamera& camera, const glm::dvec3& p, float aspect)
{
    const glm::dvec4 clip = glm::dmat4(camera.projectionMatrix(aspect)) *
                            glm::dmat4(camera.viewMatrix()) * glm::dvec4(p, 1.0);
    EXPECT_GT(clip.w, 0.0);
    return glm::dvec3(clip) / clip.w;
}

// The view's axes in physical space.
glm::dvec3 viewAxis(const OrbitCamera& camera, const glm::dvec3& axis)
{
    return glm::dvec3(glm::conjugate(camera.orientation()) * glm::vec3(axis));
}

std::vector<glm::dvec3> corners(const Bounds& b)
{
    std::vector<glm::dvec3> out;
    for (int c = 0; c < 8; ++c) {
        out.emplace_back(c & 1 ? b.max.x : b.min.x, c & 2 ? b.max.y : b.min.y,
                         c & 4 ? b.max.z : b.min.z);
    }
    return out;
}

// The near and far distances encoded in an OpenGL projection matrix.
std::pair<double, double> nearFar(const glm::mat4& p, Projection projection)
{
    const double a = p[2][2], b = p[3][2];
    if (projection == Projection::Perspective) return {b / (a - 1.0), b / (a + 1.0)};
    return {(b + 1.0) / a, (b - 1.0) / a};
}

double depthOf(const OrbitCamera& camera, const glm::dvec3& p)
{
    return -(glm::dmat4(camera.viewMatrix()) * glm::dvec4(p, 1.0)).z;
}

const Bounds kHeadBounds{{-90.0, -120.0, -60.0}, {95.0, 110.0, 140.0}};

TEST(OrbitCamera, StandardViewNames)
{
    EXPECT_EQ(standardViewName(StandardView::Anterior, true), "Anterior");
    EXPECT_EQ(standardViewName(StandardView::Inferior, true), "Inferior");
    EXPECT_EQ(standardViewName(StandardView::Anterior, false), "-Y");
    EXPECT_EQ(standardViewName(StandardView::Posterior, false), "+Y");
    EXPECT_EQ(standardViewName(StandardView::Left, false), "+X");
    EXPECT_EQ(standardViewName(StandardView::Right, false), "-X");
    EXPECT_EQ(standardViewName(StandardView::Superior, false), "+Z");
    EXPECT_EQ(standardViewName(StandardView::Inferior, false), "-Z");
}

TEST(OrbitCamera, AnteriorViewShowsPatientLeftOnTheRightAndSuperiorUp)
{
    OrbitCamera camera;
    camera.fitTo(kHeadBounds);
    camera.setStandardView(StandardView::Anterior);
    const glm::dvec3 t = glm::dvec3(camera.target());
    for (Projection projection : kProjections) {
        camera.setProjection(projection);
        const glm::dvec3 left = project(camera, t + glm::dvec3(20, 0, 0), 1.0f);
        EXPECT_GT(left.x, 0.05); // patient left (+x) on the screen's right
        EXPECT_NEAR(left.y, 0.0, 1e-5);
        const glm::dvec3 superior = project(camera, t + glm::dvec3(0, 0, 20), 1.0f);
        EXPECT_GT(superior.y, 0.05); // superior (+z) up
        EXPECT_NEAR(superior.x, 0.0, 1e-5);
        // Anterior (-y) is nearer to the camera than posterior.
        EXPECT_LT(depthOf(camera, t - glm::dvec3(0, 20, 0)), depthOf(camera, t));
        const glm::dvec3 eye = glm::dvec3(camera.eyePosition());
        EXPECT_LT(eye.y, t.y - 100.0); // the camera is on the patient's anterior (-y) side
        EXPECT_NEAR(eye.x, t.x, 1e-3);
        EXPECT_NEAR(eye.z, t.z, 1e-3);
    }
}

TEST(OrbitCamera, EveryStandardViewHasItsSideUpAndRightAxes)
{
    struct Case {
        StandardView view;
        glm::dvec3 cameraSide; // from the target toward the eye
        glm::dvec3 up;
        glm::dvec3 right;
    };
    const Case cases[] = {
        {StandardView::Anterior, {0, -1, 0}, {0, 0, 1}, {1, 0, 0}},
        {StandardView::Posterior, {0, 1, 0}, {0, 0, 1}, {-1, 0, 0}},
        {StandardView::Left, {1, 0, 0}, {0, 0, 1}, {0, 1, 0}},
        {StandardView::Right, {-1, 0, 0}, {0, 0, 1}, {0, -1, 0}},
        {StandardView::Superior, {0, 0, 1}, {0, -1, 0}, {-1, 0, 0}}, // anterior at the top
        {StandardView::Inferior, {0, 0, -1}, {0, -1, 0}, {1, 0, 0}},
    };
    OrbitCamera camera;
    camera.fitTo(kHeadBounds);
    for (const Case& c : cases) {
        SCOPED_TRACE(std::string(standardViewName(c.view, true)));
        camera.setStandardView(c.view);
        const glm::dvec3 t = glm::dvec3(camera.target());
        for (int a = 0; a < 3; ++a) {
            EXPECT_NEAR(viewAxis(camera, {1, 0, 0})[a], c.right[a], 1e-6);
            EXPECT_NEAR(viewAxis(camera, {0, 1, 0})[a], c.up[a], 1e-6);
            EXPECT_NEAR(viewAxis(camera, {0, 0, 1})[a], c.cameraSide[a], 1e-6);
        }
        const glm::dvec3 toEye = glm::normalize(glm::dvec3(camera.eyePosition()) - t);
        EXPECT_NEAR(glm::dot(toEye, c.cameraSide), 1.0, 1e-6);
        for (Projection projection : kProjections) {
            camera.setProjection(projection);
            for (float aspect : kAspects) {
                const glm::dvec3 centre = project(camera, t, aspect);
                EXPECT_NEAR(centre.x, 0.0, 1e-5);
                EXPECT_NEAR(centre.y, 0.0, 1e-5);
                EXPECT_GT(centre.z, -1.0);
                EXPECT_LT(centre.z, 1.0);
                EXPECT_GT(project(camera, t + 10.0 * c.right, aspect).x, 0.01);
                EXPECT_GT(project(camera, t + 10.0 * c.up, aspect).y, 0.01);
            }
        }
    }
}

TEST(OrbitCamera, FittedBoundsStayInsideTheViewInBothProjectionsAndAtAnyOrientation)
{
    const Bounds boundsList[] = {kHeadBounds,
                                 {{-1.0, -1.0, -1.0}, {1.0, 1.0, 1.0}},
                                 {{1000.0, 20.0, -5.0}, {1300.0, 40.0, 15.0}}, // long and far out
                                 {{0.0, 0.0, 0.0}, {250.0, 250.0, 0.5}}};      // a thin plate
    std::mt19937 rng(99);
    std::uniform_real_distribution<float> ndc(-0.9f, 0.9f);
    for (const Bounds& bounds : boundsList) {
        OrbitCamera camera;
        camera.fitTo(bounds);
        double largest = 0.0;
        for (int orientation = 0; orientation < 12; ++orientation) {
            if (orientation < 6)
                camera.setStandardView(kViews[orientation]);
            else
                camera.rotateByDrag({ndc(rng), ndc(rng)}, {ndc(rng), ndc(rng)}, 1.3f);
            for (Projection projection : kProjections) {
                camera.setProjection(projection);
                for (float aspect : kAspects) {
                    for (const glm::dvec3& corner : corners(bounds)) {
                        const glm::dvec3 p = project(camera, corner, aspect);
                        EXPECT_LT(std::abs(p.x), 1.0);
                        EXPECT_LT(std::abs(p.y), 1.0);
                        EXPECT_GT(p.z, -1.0); // between near and far
                        EXPECT_LT(p.z, 1.0);
                        largest = std::max({largest, std::abs(p.x), std::abs(p.y)});
                    }
                }
            }
        }
        // Fitted, not merely inside: the bounds fill most of the view somewhere.
        EXPECT_GT(largest, 0.6);
    }
}

TEST(OrbitCamera, NearIsPositiveAndNearFarEncloseTheBoundsWhereverTheCameraIs)
{
    OrbitCamera camera;
    camera.fitTo(kHeadBounds);
    const double radius = kHeadBounds.radius();
    for (Projection projection : kProjections) {
        camera.setProjection(projection);
        camera.reset();
        for (float zoom : {1.0f, 1e6f, 1e-6f}) {
            camera.zoom(zoom);
            for (int step = 0; step < 5; ++step) {
                camera.rotateByDrag({0.1f, 0.2f}, {0.5f, -0.3f}, 1.0f);
                camera.pan({0.3f, -0.2f}, 1.0f);
                const auto [zNear, zFar] = nearFar(camera.projectionMatrix(1.0f), projection);
                EXPECT_GT(zNear, 0.0);
                EXPECT_GT(zFar, zNear);
                const double centreDepth = depthOf(camera, kHeadBounds.center());
                EXPECT_GE(zFar, centreDepth + radius);
                // The near plane may cut the sphere only in perspective, with the eye inside it
                // or beside it (zoomed in, or orbiting a target panned far off the volume).
                const bool sphereInFront = centreDepth - radius > 0.01 * radius;
                if (projection == Projection::Orthographic || sphereInFront) {
                    EXPECT_LE(zNear, centreDepth - radius);
                }
            }
        }
    }
}

TEST(OrbitCamera, PanKeepsThePointUnderTheCursorAtTheTargetDepth)
{
    for (Projection projection : kProjections) {
        for (float aspect : kAspects) {
            OrbitCamera camera;
            camera.setProjection(projection);
            camera.fitTo(kHeadBounds);
            camera.rotateByDrag({0.0f, 0.0f}, {0.3f, 0.4f}, aspect);
            camera.zoom(1.7f);
            const glm::dvec3 t = glm::dvec3(camera.target());
            // Points in the plane through the target facing the camera.
            const glm::dvec3 points[] = {t, t + 40.0 * viewAxis(camera, {1, 0, 0}) -
                                                25.0 * viewAxis(camera, {0, 1, 0})};
            std::vector<glm::dvec3> before;
            for (const glm::dvec3& p : points)
                before.push_back(project(camera, p, aspect));
            const glm::vec2 delta(0.25f, -0.4f);
            camera.pan(delta, aspect);
            for (std::size_t i = 0; i < before.size(); ++i) {
                const glm::dvec3 after = project(camera, points[i], aspect);
                EXPECT_NEAR(after.x - before[i].x, delta.x, 1e-4) << int(projection) << aspect;
                EXPECT_NEAR(after.y - before[i].y, delta.y, 1e-4) << int(projection) << aspect;
            }
            // The target itself moved, along the view plane only.
            const glm::dvec3 moved = glm::dvec3(camera.target()) - t;
            EXPECT_GT(glm::length(moved), 1.0);
            EXPECT_NEAR(glm::dot(moved, viewAxis(camera, {0, 0, 1})), 0.0, 1e-3);
        }
    }
}

TEST(OrbitCamera, OrthographicMatchesPerspectiveSizeAtTheTargetDepth)
{
    OrbitCamera camera;
    camera.fitTo(kHeadBounds);
    camera.rotateByDrag({-0.2f, 0.1f}, {0.4f, 0.3f}, 1.0f);
    for (float zoom : {1.0f, 2.5f, 0.3f}) {
        camera.zoom(zoom);
        const glm::dvec3 t = glm::dvec3(camera.target());
        const glm::dvec3 p =
            t + 60.0 * viewAxis(camera, {1, 0, 0}) + 35.0 * viewAxis(camera, {0, 1, 0});
        for (float aspect : kAspects) {
            camera.setProjection(Projection::Perspective);
            const glm::dvec3 persp = project(camera, p, aspect);
            camera.setProjection(Projection::Orthographic);
            const glm::dvec3 ortho = project(camera, p, aspect);
            EXPECT_GT(std::abs(persp.x), 0.02);
            EXPECT_NEAR(ortho.x, persp.x, 1e-5);
            EXPECT_NEAR(ortho.y, persp.y, 1e-5);
        }
    }
}

TEST(OrbitCamera, DraggingRightTurnsTheSceneRightAboutTheViewsUpAxis)
{
    OrbitCamera camera;
    camera.fitTo(kHeadBounds);
    camera.setStandardView(StandardView::Anterior);
    const glm::dvec3 t = glm::dvec3(camera.target());
    const glm::dvec3 upBefore = viewAxis(camera, {0, 1, 0});
    // The point of the scene nearest the viewer, on the view axis.
    const glm::dvec3 front = t + 50.0 * viewAxis(camera, {0, 0, 1});
    camera.rotateByDrag({0.0f, 0.0f}, {0.2f, 0.0f}, 1.0f);
    // The up axis is the rotation axis: it stays put.
    const glm::dvec3 upAfter = viewAxis(camera, {0, 1, 0});
    EXPECT_NEAR(glm::dot(upBefore, upAfter), 1.0, 1e-6);
    const glm::dvec3 p = project(camera, front, 1.0f);
    EXPECT_GT(p.x, 0.02); // it followed the pointer to the right
    EXPECT_NEAR(p.y, 0.0, 1e-5);
    // Superior stays up on the screen.
    EXPECT_NEAR(project(camera, t + glm::dvec3(0, 0, 30), 1.0f).x, 0.0, 1e-5);

    // Dragging up turns the front upward about the view's right axis.
    camera.setStandardView(StandardView::Anterior);
    const glm::dvec3 rightBefore = viewAxis(camera, {1, 0, 0});
    camera.rotateByDrag({0.0f, 0.0f}, {0.0f, 0.2f}, 1.0f);
    EXPECT_NEAR(glm::dot(rightBefore, viewAxis(camera, {1, 0, 0})), 1.0, 1e-6);
    EXPECT_GT(project(camera, front, 1.0f).y, 0.02);
}

double turnDegrees(const glm::quat& from, const glm::quat& to)
{
    const glm::dquat delta = glm::dquat(to) * glm::conjugate(glm::dquat(from));
    // atan2 rather than acos(w): exact near zero, where w rounds to 1 in float.
    const double sinHalf = glm::length(glm::dvec3(delta.x, delta.y, delta.z));
    return glm::degrees(2.0 * std::atan2(sinHalf, std::abs(delta.w)));
}

TEST(OrbitCamera, ADragAcrossTheViewTurnsAboutHalfATurn)
{
    for (float aspect : kAspects) {
        OrbitCamera camera;
        camera.fitTo(kHeadBounds);
        const glm::quat start = camera.orientation();
        // Across the narrower side, through the centre, in 200 mouse moves.
        const glm::vec2 dir = aspect >= 1.0f ? glm::vec2(0, 1) : glm::vec2(1, 0);
        for (int s = 0; s < 200; ++s) {
            camera.rotateByDrag(dir * (-1.0f + 2.0f * float(s) / 200.0f),
                                dir * (-1.0f + 2.0f * float(s + 1) / 200.0f), aspect);
        }
        EXPECT_NEAR(turnDegrees(start, camera.orientation()), 180.0, 1.0) << aspect;
        // In one move it is the same turn.
        OrbitCamera once;
        once.rotateByDrag(-0.5f * dir, 0.5f * dir, aspect);
        OrbitCamera steps;
        for (int s = 0; s < 10; ++s) {
            steps.rotateByDrag(dir * (-0.5f + float(s) / 10.0f),
                               dir * (-0.5f + float(s + 1) / 10.0f), aspect);
        }
        EXPECT_NEAR(turnDegrees(once.orientation(), steps.orientation()), 0.0, 0.05);
        EXPECT_GT(turnDegrees(glm::quat(1, 0, 0, 0), once.orientation()), 30.0);
    }
}

TEST(OrbitCamera, TheTrackballIsRoundOnScreenAtAnyAspect)
{
    // The same pointer travel in pixels turns the scene as far horizontally as vertically: on
    // a viewport twice as wide as high, 0.1 NDC across is as many pixels as 0.2 NDC up.
    for (float aspect : {2.0f, 0.5f}) {
        const glm::vec2 across = aspect > 1.0f ? glm::vec2(0.1f, 0.0f) : glm::vec2(0.2f, 0.0f);
        const glm::vec2 up = aspect > 1.0f ? glm::vec2(0.0f, 0.2f) : glm::vec2(0.0f, 0.1f);
        OrbitCamera horizontal, vertical;
        horizontal.rotateByDrag({0.0f, 0.0f}, across, aspect);
        vertical.rotateByDrag({0.0f, 0.0f}, up, aspect);
        const glm::quat start = OrbitCamera().orientation();
        const double h = turnDegrees(start, horizontal.orientation());
        EXPECT_GT(h, 5.0) << aspect;
        EXPECT_NEAR(turnDegrees(start, vertical.orientation()), h, 1e-3) << aspect;
    }
}

TEST(OrbitCamera, CirclingNearTheRimTurnsAboutTheViewAxis)
{
    OrbitCamera camera;
    const glm::quat before = camera.orientation();
    const float r = 1.3f; // the corners of a square viewport
    camera.rotateByDrag({r * std::cos(0.7f), r * std::sin(0.7f)},
                        {r * std::cos(0.8f), r * std::sin(0.8f)}, 1.0f);
    // The turn applied in view space; its axis is mostly the view axis, counter-clockwise
    // (toward the viewer) like the pointer.
    const glm::quat turn = camera.orientation() * glm::conjugate(before);
    const glm::dvec3 axis = glm::normalize(glm::dvec3(turn.x, turn.y, turn.z));
    EXPECT_GT(axis.z * (turn.w >= 0.0f ? 1.0 : -1.0), 0.9);
    EXPECT_GT(turnDegrees(before, camera.orientation()), 3.0);

    // Near the centre the same small drag tilts the view instead.
    OrbitCamera centre;
    centre.rotateByDrag({0.1f * std::cos(0.7f), 0.1f * std::sin(0.7f)},
                        {0.1f * std::cos(0.8f), 0.1f * std::sin(0.8f)}, 1.0f);
    const glm::quat tilt = centre.orientation() * glm::conjugate(before);
    EXPECT_LT(std::abs(glm::normalize(glm::dvec3(tilt.x, tilt.y, tilt.z)).z), 0.5);
}

TEST(OrbitCamera, RotationStaysOrthonormalAfterTenThousandSmallDrags)
{
    OrbitCamera camera;
    camera.fitTo(kHeadBounds);
    std::mt19937 rng(2024);
    std::uniform_real_distribution<float> pos(-1.0f, 1.0f);
    std::uniform_real_distribution<float> step(-0.01f, 0.01f);
    for (int i = 0; i < 10000; ++i) {
        const glm::vec2 from(pos(rng), pos(rng));
        camera.rotateByDrag(from, from + glm::vec2(step(rng), step(rng)), 1.4f);
    }
    EXPECT_NEAR(glm::length(camera.orientation()), 1.0f, 1e-6f);
    const glm::dmat3 r = glm::dmat3(glm::mat3(camera.viewMatrix()));
    const glm::dmat3 rtr = glm::transpose(r) * r;
    for (int c = 0; c < 3; ++c) {
        for (int row = 0; row < 3; ++row)
            EXPECT_NEAR(rtr[c][row], c == row ? 1.0 : 0.0, 1e-6);
    }
    EXPECT_NEAR(glm::determinant(r), 1.0, 1e-6);
    // The target still sits at the viewport centre, the eye at the orbit distance.
    const glm::dvec3 centre = project(camera, glm::dvec3(camera.target()), 1.4f);
    EXPECT_NEAR(centre.x, 0.0, 1e-4);
    EXPECT_NEAR(centre.y, 0.0, 1e-4);
    EXPECT_NEAR(glm::length(glm::dvec3(camera.eyePosition()) - glm::dvec3(camera.target())),
                camera.distance(), 1e-3);
}

TEST(OrbitCamera, ZoomMovesCloserAndClampsRelativeToTheFit)
{
    OrbitCamera camera;
    camera.fitTo(kHeadBounds);
    const double fitted = camera.distance();
    EXPECT_GT(fitted, kHeadBounds.radius());
    camera.zoom(2.0f);
    EXPECT_NEAR(camera.distance(), fitted / 2.0, 1e-9 * fitted);
    camera.zoom(1e6f);
    EXPECT_NEAR(camera.distance(), fitted / 50.0, 1e-9 * fitted);
    camera.zoom(1e-9f);
    EXPECT_NEAR(camera.distance(), fitted * 20.0, 1e-9 * fitted);
    for (float bad : {0.0f, -2.0f, std::nanf(""), INFINITY}) {
        camera.zoom(bad);
        EXPECT_NEAR(camera.distance(), fitted * 20.0, 1e-9 * fitted);
    }
    // Orthographic zoom magnifies.
    camera.fitTo(kHeadBounds);
    camera.setProjection(Projection::Orthographic);
    const glm::dvec3 p = glm::dvec3(camera.target()) + 30.0 * viewAxis(camera, {1, 0, 0});
    const double before = project(camera, p, 1.0f).x;
    camera.zoom(2.0f);
    EXPECT_NEAR(project(camera, p, 1.0f).x, 2.0 * before, 1e-5);
}

TEST(OrbitCamera, FitKeepsTheOrientationAndResetReturnsToAnteriorFitted)
{
    OrbitCamera camera;
    camera.fitTo(kHeadBounds);
    const double fitted = camera.distance();
    camera.setStandardView(StandardView::Left);
    camera.rotateByDrag({0.1f, 0.1f}, {0.3f, -0.2f}, 1.0f);
    const glm::quat turned = camera.orientation();
    camera.pan({0.4f, 0.4f}, 1.0f);
    camera.zoom(3.0f);
    camera.fitTo(kHeadBounds);
    EXPECT_NEAR(turnDegrees(turned, camera.orientation()), 0.0, 1e-3);
    EXPECT_NEAR(camera.distance(), fitted, 1e-9 * fitted);
    for (int a = 0; a < 3; ++a)
        EXPECT_NEAR(camera.target()[a], kHeadBounds.center()[a], 1e-4);

    camera.pan({0.4f, 0.4f}, 1.0f);
    camera.zoom(3.0f);
    camera.reset();
    OrbitCamera anterior;
    anterior.fitTo(kHeadBounds);
    anterior.setStandardView(StandardView::Anterior);
    EXPECT_NEAR(turnDegrees(anterior.orientation(), camera.orientation()), 0.0, 1e-3);
    EXPECT_NEAR(camera.distance(), fitted, 1e-9 * fitted);
    for (int a = 0; a < 3; ++a)
        EXPECT_NEAR(camera.target()[a], kHeadBounds.center()[a], 1e-4);
    // A new camera starts anterior too.
    EXPECT_NEAR(turnDegrees(anterior.orientation(), OrbitCamera().orientation()), 0.0, 1e-3);
}

TEST(OrbitCamera, DegenerateBoundsAndInputsKeepTheMatricesFinite)
{
    OrbitCamera camera;
    camera.fitTo(volumeBounds(VolumeGeometry{}, {1, 1, 1})); // a single voxel: a point
    camera.setOrientation(glm::quat(0, 0, 0, 0));            // ignored
    camera.rotateByDrag({0.2f, 0.2f}, {0.2f, 0.2f}, 1.0f);   // no drag
    camera.rotateByDrag({0.0f, 0.0f}, {std::nanf(""), 0.0f}, 1.0f);
    camera.pan({std::nanf(""), 0.0f}, 1.0f);
    for (Projection projection : kProjections) {
        camera.setProjection(projection);
        for (float aspect : {1.0f, 0.0f, -3.0f}) {
            const glm::mat4 m = camera.projectionMatrix(aspect) * camera.viewMatrix();
            for (int c = 0; c < 4; ++c) {
                for (int r = 0; r < 4; ++r)
                    EXPECT_TRUE(std::isfinite(m[c][r]));
            }
            EXPECT_GT(nearFar(camera.projectionMatrix(aspect), projection).first, 0.0);
        }
    }
    const glm::dvec3 centre = project(camera, glm::dvec3(0.0), 1.0f);
    EXPECT_NEAR(centre.x, 0.0, 1e-6);
    EXPECT_NEAR(centre.y, 0.0, 1e-6);
}

TEST(OrbitCamera, HomeViewIsAnteriorExceptForASlabSeenFaceOn)
{
    EXPECT_EQ(homeViewFor(kHeadBounds), StandardView::Anterior);
    // Six axial slices 2.4 mm apart of a 216 mm field (the shared Siemens XA10 phantom): edge
    // on from the front, its disc is a rod.
    const Bounds axialSlab{{0, 0, 0}, {216, 216, 12}};
    EXPECT_EQ(homeViewFor(axialSlab), StandardView::Superior);
    EXPECT_EQ(homeViewFor(Bounds{{0, 0, 0}, {10, 200, 180}}), StandardView::Left);
    EXPECT_EQ(homeViewFor(Bounds{{0, 0, 0}, {200, 10, 180}}), StandardView::Anterior);
    // A third is the limit; a single slice (no depth) is a slab too; a point is not.
    EXPECT_EQ(homeViewFor(Bounds{{0, 0, 0}, {90, 90, 31}}), StandardView::Anterior);
    EXPECT_EQ(homeViewFor(Bounds{{0, 0, 0}, {90, 90, 30}}), StandardView::Superior);
    EXPECT_EQ(homeViewFor(Bounds{{0, 0, 5}, {90, 90, 5}}), StandardView::Superior);
    EXPECT_EQ(homeViewFor(Bounds{}), StandardView::Anterior);

    OrbitCamera camera;
    camera.fitTo(axialSlab);
    camera.setStandardView(StandardView::Left);
    camera.reset();
    OrbitCamera superior;
    superior.setStandardView(StandardView::Superior);
    EXPECT_NEAR(turnDegrees(superior.orientation(), camera.orientation()), 0.0, 1e-3);
}

TEST(VolumeBounds, RegularGridWithSpacingAndOrigin)
{
    VolumeGeometry g;
    g.spacing = {1.0, 2.0, 3.0};
    g.origin = {5.0, 6.0, 7.0};
    const Bounds b = volumeBounds(g, {10, 20, 30});
    for (int a = 0; a < 3; ++a) {
        EXPECT_DOUBLE_EQ(b.min[a], g.origin[a]);
        EXPECT_DOUBLE_EQ(b.max[a], glm::dvec3(14.0, 44.0, 94.0)[a]);
    }
    EXPECT_DOUBLE_EQ(b.radius(), 0.5 * std::sqrt(9.0 * 9.0 + 38.0 * 38.0 + 87.0 * 87.0));
    EXPECT_DOUBLE_EQ(b.center().y, 25.0);
}

TEST(VolumeBounds, DirectionMatrixRotatesAndMirrorsTheBox)
{
    VolumeGeometry g;
    g.spacing = {2.0, 1.0, 4.0};
    g.origin = {100.0, 0.0, -50.0};
    // i runs toward -y, j toward +x, k toward -z (columns are the axes' physical directions).
    g.direction = glm::dmat3(glm::dvec3(0, -1, 0), glm::dvec3(1, 0, 0), glm::dvec3(0, 0, -1));
    const Bounds b = volumeBounds(g, {11, 6, 5});
    const glm::dvec3 expectedMin(100.0, -20.0, -66.0);
    const glm::dvec3 expectedMax(105.0, 0.0, -50.0);
    for (int a = 0; a < 3; ++a) {
        EXPECT_DOUBLE_EQ(b.min[a], expectedMin[a]);
        EXPECT_DOUBLE_EQ(b.max[a], expectedMax[a]);
    }
}

TEST(VolumeBounds, TiltedStackCountsEverySliceOrigin)
{
    VolumeGeometry g;
    g.spacing = {0.5, 0.5, 2.0};
    // Slice 2 sticks out in x and slice 3 in -y: the end slices alone would miss both.
    g.sliceOrigins = {{0, 0, 0}, {1, 0, 2}, {10, 0, 4}, {3, -7, 6}, {4, 0, 8}};
    const Bounds b = volumeBounds(g, {9, 5, 5});
    EXPECT_DOUBLE_EQ(b.min.x, 0.0);
    EXPECT_DOUBLE_EQ(b.max.x, 10.0 + 8 * 0.5);
    EXPECT_DOUBLE_EQ(b.min.y, -7.0);
    EXPECT_DOUBLE_EQ(b.max.y, 4 * 0.5);
    EXPECT_DOUBLE_EQ(b.min.z, 0.0);
    EXPECT_DOUBLE_EQ(b.max.z, 8.0);

    // Gantry tilt with a rotated in-plane direction: each slice shifted along y.
    VolumeGeometry tilt;
    tilt.direction = glm::dmat3(glm::dvec3(0, 1, 0), glm::dvec3(-1, 0, 0), glm::dvec3(0, 0, 1));
    for (int k = 0; k < 4; ++k)
        tilt.sliceOrigins.push_back({0.0, 3.0 * k, 5.0 * k});
    const Bounds t = volumeBounds(tilt, {4, 4, 4});
    EXPECT_DOUBLE_EQ(t.min.x, -3.0);
    EXPECT_DOUBLE_EQ(t.max.x, 0.0);
    EXPECT_DOUBLE_EQ(t.min.y, 0.0);
    EXPECT_DOUBLE_EQ(t.max.y, 9.0 + 3.0);
    EXPECT_DOUBLE_EQ(t.max.z, 15.0);
}

} // namespace
} // namespace isoview
