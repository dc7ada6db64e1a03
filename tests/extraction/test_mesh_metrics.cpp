// Mesh metrics on hand-built meshes whose answers are known exactly.
#include "core/error.h"
#include "extraction/mesh_metrics.h"

#include <glm/gtc/constants.hpp>
#include <glm/gtc/matrix_transform.hpp>
#include <gtest/gtest.h>

#include <cmath>
#include <utility>

namespace isoview {
namespace {

// The unit cube [0,1]^3 as 12 triangles, counter-clockwise seen from outside.
IsoMesh unitCube()
{
    IsoMesh mesh;
    for (int c = 0; c < 8; ++c) {
        mesh.positions.emplace_back(float(c & 1), float((c >> 1) & 1), float((c >> 2) & 1));
    }
    mesh.normals.assign(8, glm::vec3(0.0f));
    // Each face as a quad a b c d, counter-clockwise about its outward normal.
    const std::uint32_t quads[6][4] = {
        {0, 2, 3, 1}, // z = 0, normal -z
        {4, 5, 7, 6}, // z = 1, normal +z
        {0, 1, 5, 4}, // y = 0, normal -y
        {2, 6, 7, 3}, // y = 1, normal +y
        {0, 4, 6, 2}, // x = 0, normal -x
        {1, 3, 7, 5}, // x = 1, normal +x
    };
    for (const auto& q : quads) {
        mesh.indices.insert(mesh.indices.end(), {q[0], q[1], q[2], q[0], q[2], q[3]});
    }
    return mesh;
}

IsoMesh openSquare()
{
    IsoMesh mesh;
    mesh.positions = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
    mesh.indices = {0, 1, 2, 0, 2, 3};
    return mesh;
}

// A torus as an n x m grid of quads (Euler characteristic 0).
IsoMesh torus(int n, int m)
{
    IsoMesh mesh;
    for (int a = 0; a < n; ++a) {
        for (int b = 0; b < m; ++b) {
            const float u = glm::two_pi<float>() * float(a) / float(n);
            const float v = glm::two_pi<float>() * float(b) / float(m);
            mesh.positions.emplace_back((3.0f + std::cos(v)) * std::cos(u),
                                        (3.0f + std::cos(v)) * std::sin(u), std::sin(v));
        }
    }
    const auto id = [m, n](int a, int b) { return std::uint32_t((a % n) * m + (b % m)); };
    for (int a = 0; a < n; ++a) {
        for (int b = 0; b < m; ++b) {
            mesh.indices.insert(mesh.indices.end(), {id(a, b), id(a + 1, b), id(a + 1, b + 1),
                                                     id(a, b), id(a + 1, b + 1), id(a, b + 1)});
        }
    }
    return mesh;
}

TEST(MeshMetrics, UnitCubeHasAreaSixVolumeOneEulerTwo)
{
    const IsoMesh cube = unitCube();
    const MeshTopology topo = analyzeTopology(cube);
    EXPECT_EQ(topo.edges, 18u);
    EXPECT_EQ(topo.boundaryEdges, 0u);
    EXPECT_EQ(topo.nonManifoldEdges, 0u);
    EXPECT_EQ(topo.inconsistentlyOrientedEdges, 0u);
    EXPECT_EQ(topo.eulerCharacteristic, 2);
    EXPECT_DOUBLE_EQ(surfaceArea(cube), 6.0);
    EXPECT_DOUBLE_EQ(enclosedVolume(cube), 1.0);
}

TEST(MeshMetrics, TransformScalesAreaAndVolume)
{
    const IsoMesh cube = unitCube();
    const glm::dmat4 m = glm::translate(glm::dmat4(1.0), glm::dvec3(1e4, -3e4, 7e4)) *
                         glm::scale(glm::dmat4(1.0), glm::dvec3(2.0, 3.0, 4.0));
    EXPECT_NEAR(surfaceArea(cube, m), 2.0 * (6.0 + 8.0 + 12.0), 1e-9);
    EXPECT_NEAR(enclosedVolume(cube, m), 24.0, 1e-9);
}

TEST(MeshMetrics, MirroringTransformFlipsTheVolumeSign)
{
    const glm::dmat4 mirror = glm::scale(glm::dmat4(1.0), glm::dvec3(-1.0, 1.0, 1.0));
    EXPECT_NEAR(enclosedVolume(unitCube(), mirror), -1.0, 1e-12);
    EXPECT_NEAR(surfaceArea(unitCube(), mirror), 6.0, 1e-12);
}

TEST(MeshMetrics, ReversedWindingGivesNegativeVolume)
{
    IsoMesh cube = unitCube();
    for (std::size_t t = 0; t < cube.indices.size(); t += 3) {
        std::swap(cube.indices[t + 1], cube.indices[t + 2]);
    }
    EXPECT_DOUBLE_EQ(enclosedVolume(cube), -1.0);
    EXPECT_EQ(analyzeTopology(cube).inconsistentlyOrientedEdges, 0u);
}

TEST(MeshMetrics, OneFlippedTriangleIsInconsistentlyOriented)
{
    IsoMesh cube = unitCube();
    std::swap(cube.indices[1], cube.indices[2]);
    const MeshTopology topo = analyzeTopology(cube);
    EXPECT_EQ(topo.inconsistentlyOrientedEdges, 3u);
    EXPECT_EQ(topo.boundaryEdges, 0u);
    EXPECT_EQ(topo.nonManifoldEdges, 0u);
}

TEST(MeshMetrics, OpenSquareHasFourBoundaryEdges)
{
    const IsoMesh square = openSquare();
    const MeshTopology topo = analyzeTopology(square);
    EXPECT_EQ(topo.edges, 5u);
    EXPECT_EQ(topo.boundaryEdges, 4u);
    EXPECT_EQ(topo.nonManifoldEdges, 0u);
    EXPECT_EQ(topo.eulerCharacteristic, 1);
    EXPECT_DOUBLE_EQ(surfaceArea(square), 1.0);
}

TEST(MeshMetrics, ThreeTrianglesOnOneEdgeAreNonManifold)
{
    IsoMesh fan;
    fan.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0, -1, 0}};
    fan.indices = {0, 1, 2, 1, 0, 3, 0, 1, 4};
    const MeshTopology topo = analyzeTopology(fan);
    EXPECT_EQ(topo.nonManifoldEdges, 1u);
    EXPECT_EQ(topo.inconsistentlyOrientedEdges, 1u); // 0->1 is used twice
    EXPECT_EQ(topo.boundaryEdges, 6u);
}

TEST(MeshMetrics, TorusHasEulerCharacteristicZero)
{
    const IsoMesh t = torus(12, 8);
    const MeshTopology topo = analyzeTopology(t);
    EXPECT_EQ(topo.eulerCharacteristic, 0);
    EXPECT_EQ(topo.boundaryEdges, 0u);
    EXPECT_EQ(topo.inconsistentlyOrientedEdges, 0u);
    // The coarse polyhedral torus is a little smaller than the smooth one (2 pi^2 R r^2).
    const double smooth = 2.0 * glm::pi<double>() * glm::pi<double>() * 3.0;
    EXPECT_GT(enclosedVolume(t), 0.8 * smooth);
    EXPECT_LT(enclosedVolume(t), smooth);
}

TEST(MeshMetrics, UnreferencedVerticesDoNotCountTowardEuler)
{
    IsoMesh cube = unitCube();
    cube.positions.emplace_back(5.0f, 5.0f, 5.0f);
    EXPECT_EQ(analyzeTopology(cube).eulerCharacteristic, 2);
}

TEST(MeshMetrics, EmptyMeshMeasuresZero)
{
    const IsoMesh empty;
    const MeshTopology topo = analyzeTopology(empty);
    EXPECT_EQ(topo.edges, 0u);
    EXPECT_EQ(topo.eulerCharacteristic, 0);
    EXPECT_EQ(surfaceArea(empty), 0.0);
    EXPECT_EQ(enclosedVolume(empty), 0.0);
}

TEST(MeshMetrics, RejectsBadIndices)
{
    IsoMesh mesh = openSquare();
    mesh.indices.push_back(0);
    EXPECT_THROW(analyzeTopology(mesh), InvalidInputError);
    mesh.indices = {0, 1, 9};
    EXPECT_THROW(surfaceArea(mesh), InvalidInputError);
    EXPECT_THROW(enclosedVolume(mesh), InvalidInputError);
}

} // namespace
} // namespace isoview
