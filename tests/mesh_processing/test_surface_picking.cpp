// Surface picking (mesh_processing/surface_picking.h): the grid walk finds exactly the hit a
// brute-force test of every triangle finds, on a sphere in anisotropic millimetres, for rays
// from every side, from inside, grazing and missing; the camera's ray through the centre of the
// view passes through its target in both projections.
#include "core/error.h"
#include "extraction/cpu_marching_cubes.h"
#include "mesh_processing/physical_mesh.h"
#include "mesh_processing/surface_picking.h"
#include "scene/orbit_camera.h"
#include "support/synthetic_volumes.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <limits>
#include <numbers>
#include <random>

namespace isoview::test {
namespace {

constexpr float kRadiusMm = 20.0f;

struct SphereFixture {
    glm::dvec3 center;
    IsoMesh mesh; // physical
};

SphereFixture sphereMesh(glm::uvec3 dims = {64, 52, 36})
{
    VolumeGeometry g;
    g.spacing = {0.7, 0.9, 1.3};
    g.origin = {-12.0, 30.0, 5.0};
    const glm::dvec3 center = g.toPhysical(glm::dvec3(dims - glm::uvec3(1)) / 2.0);
    const Volume volume = makeSphere(dims, glm::vec3(center), kRadiusMm, g);
    return {center, toPhysicalMesh(extractIsosurfaceCpu(volume, StoredValue(0.0f)), g)};
}

std::optional<double> bruteForce(const IsoMesh& mesh, const Ray& ray)
{
    std::optional<double> best;
    for (std::size_t t = 0; t < mesh.triangleCount(); ++t) {
        const glm::dvec3 a(mesh.positions[mesh.indices[3 * t]]);
        const glm::dvec3 b(mesh.positions[mesh.indices[3 * t + 1]]);
        const glm::dvec3 c(mesh.positions[mesh.indices[3 * t + 2]]);
        const glm::dvec3 e1 = b - a, e2 = c - a, p = glm::cross(ray.direction, e2);
        const double det = glm::dot(e1, p);
        if (std::abs(det) < 1e-300) continue;
        const glm::dvec3 s = ray.origin - a, q = glm::cross(s, e1);
        const double u = glm::dot(s, p) / det, v = glm::dot(ray.direction, q) / det;
        const double tt = glm::dot(e2, q) / det;
        if (u < 0 || v < 0 || u + v > 1 || tt < 0) continue;
        if (!best || tt < *best) best = tt;
    }
    return best;
}

TEST(SurfacePicking, NearestHitOnASphereFromOutside)
{
    const SphereFixture s = sphereMesh();
    const SurfacePicker picker(s.mesh);
    // From far above, straight down through the centre: the near (upper) pole.
    const Ray down{s.center + glm::dvec3(0, 0, 200), glm::dvec3(0, 0, -1)};
    const auto hit = picker.pick(down);
    ASSERT_TRUE(hit);
    EXPECT_NEAR(hit->point.z - s.center.z, kRadiusMm, 0.05);
    EXPECT_NEAR(hit->t, 200.0 - kRadiusMm, 0.05);
    // The hit lies on the triangle it names.
    EXPECT_LT(hit->triangle, s.mesh.triangleCount());
    // From inside, the first wall met.
    const auto inside = picker.pick({s.center, glm::dvec3(1, 0, 0)});
    ASSERT_TRUE(inside);
    EXPECT_NEAR(glm::length(inside->point - s.center), kRadiusMm, 0.05);
    // Beside the sphere, and pointing away from it: nothing.
    EXPECT_FALSE(picker.pick({s.center + glm::dvec3(0, 30, 200), glm::dvec3(0, 0, -1)}));
    EXPECT_FALSE(picker.pick({s.center + glm::dvec3(0, 0, 200), glm::dvec3(0, 0, 1)}));
    EXPECT_FALSE(picker.pick({s.center, glm::dvec3(0.0)}));
}

TEST(SurfacePicking, GridWalkAgreesWithBruteForce)
{
    const SphereFixture s = sphereMesh({40, 34, 24});
    const SurfacePicker picker(s.mesh);
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    int hits = 0;
    for (int i = 0; i < 300; ++i) {
        // Origins on a shell around the sphere (some inside it), aimed near its centre so
        // that grazing rays and misses are among them.
        const glm::dvec3 dir0 = glm::normalize(glm::dvec3(unit(rng), unit(rng), unit(rng)));
        const double distance = i % 10 == 0 ? 5.0 : 60.0;
        const glm::dvec3 origin = s.center + distance * dir0;
        const glm::dvec3 aim = s.center + 14.0 * glm::dvec3(unit(rng), unit(rng), unit(rng));
        const Ray ray{origin, (aim - origin) * 0.37}; // not unit: t is in its units
        const auto expected = bruteForce(s.mesh, ray);
        const auto got = picker.pick(ray);
        ASSERT_EQ(bool(got), bool(expected)) << "ray " << i;
        if (!got) continue;
        ++hits;
        EXPECT_NEAR(got->t, *expected, 1e-9 * (1.0 + *expected)) << "ray " << i;
        EXPECT_NEAR(glm::length(got->point - (ray.origin + got->t * ray.direction)), 0.0, 1e-9);
    }
    EXPECT_GT(hits, 100);
    EXPECT_LT(hits, 300);
}

TEST(SurfacePicking, CameraRayThroughTheViewCentrePassesThroughTheTarget)
{
    OrbitCamera camera;
    Bounds bounds{{-10, 20, 0}, {50, 90, 40}};
    camera.fitTo(bounds);
    camera.setStandardView(StandardView::Left);
    for (Projection projection : {Projection::Perspective, Projection::Orthographic}) {
        camera.setProjection(projection);
        const float aspect = 1.5f;
        const Ray ray =
            rayThroughNdc({0.0f, 0.0f}, camera.viewMatrix(), camera.projectionMatrix(aspect));
        const glm::dvec3 toTarget = glm::dvec3(camera.target()) - ray.origin;
        const glm::dvec3 along = glm::normalize(ray.direction);
        EXPECT_NEAR(glm::length(toTarget - glm::dot(toTarget, along) * along), 0.0, 1e-3);
        EXPECT_GT(glm::dot(toTarget, along), 0.0); // in front of the near plane
        // A point off-centre projects back to where it was taken.
        const Ray off =
            rayThroughNdc({0.4f, -0.3f}, camera.viewMatrix(), camera.projectionMatrix(aspect));
        const glm::dvec4 clip = glm::dmat4(camera.projectionMatrix(aspect)) *
                                glm::dmat4(camera.viewMatrix()) *
                                glm::dvec4(off.origin + 0.5 * off.direction, 1.0);
        EXPECT_NEAR(clip.x / clip.w, 0.4, 1e-4);
        EXPECT_NEAR(clip.y / clip.w, -0.3, 1e-4);
    }
}

// Two million triangles (a latitude-longitude sphere of radius 100 mm): the grid is built in
// seconds at most and a pick costs well under a millisecond, exact against brute force.
TEST(SurfacePicking, TwoMillionTrianglesPickFast)
{
    constexpr int kRings = 1000;
    constexpr int kSectors = 1000;
    constexpr double kRadius = 100.0;
    IsoMesh mesh;
    for (int r = 0; r <= kRings; ++r) {
        const double theta = std::numbers::pi * r / kRings;
        for (int s = 0; s < kSectors; ++s) {
            const double phi = 2.0 * std::numbers::pi * s / kSectors;
            mesh.positions.emplace_back(kRadius * std::sin(theta) * std::cos(phi),
                                        kRadius * std::sin(theta) * std::sin(phi),
                                        kRadius * std::cos(theta));
        }
    }
    for (std::uint32_t r = 0; r < kRings; ++r) {
        for (std::uint32_t s = 0; s < kSectors; ++s) {
            const std::uint32_t a = r * kSectors + s, b = r * kSectors + (s + 1) % kSectors;
            const std::uint32_t c = a + kSectors, d = b + kSectors;
            mesh.indices.insert(mesh.indices.end(), {a, c, d, a, d, b});
        }
    }
    ASSERT_EQ(mesh.triangleCount(), 2'000'000u);

    using Clock = std::chrono::steady_clock;
    const auto built0 = Clock::now();
    const SurfacePicker picker(mesh);
    const double buildS = std::chrono::duration<double>(Clock::now() - built0).count();
    std::mt19937 rng(3);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    constexpr int kPicks = 2000;
    int hits = 0;
    const auto picks0 = Clock::now();
    for (int i = 0; i < kPicks; ++i) {
        const glm::dvec3 origin =
            300.0 * glm::normalize(glm::dvec3(unit(rng), unit(rng), unit(rng)));
        const glm::dvec3 aim = 80.0 * glm::dvec3(unit(rng), unit(rng), unit(rng));
        if (const auto hit = picker.pick({origin, aim - origin})) {
            ++hits;
            EXPECT_NEAR(glm::length(hit->point), kRadius, 0.01);
        }
    }
    const double pickMs =
        std::chrono::duration<double, std::milli>(Clock::now() - picks0).count() / kPicks;
    std::printf("2 M triangles: grid built in %.2f s, %.4f ms per pick (%d of %d hit)\n", buildS,
                pickMs, hits, kPicks);
    EXPECT_GT(hits, kPicks / 2);
    EXPECT_LT(buildS, 10.0);
    EXPECT_LT(pickMs, 1.0);
    // The nearest of the two walls, as brute force finds it, for a few rays.
    for (int i = 0; i < 5; ++i) {
        const Ray ray{glm::dvec3(250.0, 10.0 * i, -7.0), glm::dvec3(-1.0, 0.01 * i, 0.02)};
        const auto expected = bruteForce(mesh, ray);
        const auto got = picker.pick(ray);
        ASSERT_TRUE(got && expected);
        EXPECT_NEAR(got->t, *expected, 1e-9 * *expected);
    }
}

TEST(SurfacePicking, BadMeshIsAClearError)
{
    IsoMesh bad;
    bad.positions = {glm::vec3(0.0f)};
    bad.indices = {0, 0};
    EXPECT_THROW(SurfacePicker{bad}, InvalidInputError);
    bad.indices = {0, 0, 3};
    EXPECT_THROW(SurfacePicker{bad}, InvalidInputError);
    EXPECT_FALSE(SurfacePicker(IsoMesh{}).pick({glm::dvec3(0.0), glm::dvec3(1, 0, 0)}));
}

// A flat mesh (all triangles in one plane) still gets a grid and is hit.
TEST(SurfacePicking, FlatMeshIsHit)
{
    IsoMesh quad;
    quad.positions = {{0, 0, 0}, {10, 0, 0}, {10, 10, 0}, {0, 10, 0}};
    quad.indices = {0, 1, 2, 0, 2, 3};
    const SurfacePicker picker(quad);
    const auto hit = picker.pick({glm::dvec3(2.5, 7.5, 5.0), glm::dvec3(0, 0, -2)});
    ASSERT_TRUE(hit);
    EXPECT_NEAR(hit->t, 2.5, 1e-12);
    EXPECT_EQ(hit->triangle, 1u);
}

} // namespace
} // namespace isoview::test
