// The generated case table: its shape, which edges it uses, and (by extracting every case
// inside a small volume) that each case and each pair of face-sharing cases closes up into
// consistently oriented surfaces.
#include "extraction/cpu_marching_cubes.h"
#include "extraction/marching_cubes_tables.h"
#include "extraction/mesh_metrics.h"
#include "support/synthetic_volumes.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace isoview {
namespace {

bool cornerInside(int caseIndex, int corner)
{
    return ((caseIndex >> corner) & 1) != 0;
}

std::set<int> crossedEdges(int caseIndex)
{
    std::set<int> edges;
    for (int e = 0; e < 12; ++e) {
        if (cornerInside(caseIndex, mc::kEdgeCorners[std::size_t(e)][0]) !=
            cornerInside(caseIndex, mc::kEdgeCorners[std::size_t(e)][1])) {
            edges.insert(e);
        }
    }
    return edges;
}

void expectClosedAndOutward(const IsoMesh& mesh, const std::string& what)
{
    const MeshTopology topo = analyzeTopology(mesh);
    EXPECT_GT(mesh.triangleCount(), 0u) << what;
    EXPECT_EQ(topo.boundaryEdges, 0u) << what;
    EXPECT_EQ(topo.nonManifoldEdges, 0u) << what;
    EXPECT_EQ(topo.inconsistentlyOrientedEdges, 0u) << what;
    EXPECT_GT(enclosedVolume(mesh), 0.0) << what;
}

TEST(MarchingCubesTables, EdgeConventionsMatchTheCornerLayout)
{
    for (int e = 0; e < 12; ++e) {
        const int lo = mc::kEdgeCorners[std::size_t(e)][0];
        const int hi = mc::kEdgeCorners[std::size_t(e)][1];
        EXPECT_EQ(hi, lo + (1 << mc::edgeAxis(e))) << "edge " << e;
        EXPECT_EQ(mc::cornerOffset(lo, mc::edgeAxis(e)), 0) << "edge " << e;
    }
}

TEST(MarchingCubesTables, EveryCaseHasWholeTrianglesWithinTheLimit)
{
    const mc::CaseTables& tables = mc::caseTables();
    int maxCount = 0;
    for (int c = 0; c < 256; ++c) {
        const int count = tables.vertexCount[std::size_t(c)];
        EXPECT_EQ(count % 3, 0) << "case " << c;
        EXPECT_LE(count, mc::kMaxVerticesPerCell) << "case " << c;
        maxCount = std::max(maxCount, count);
        for (int v = 0; v < 16; ++v) {
            const int edge = tables.triangleEdges[std::size_t(c)][std::size_t(v)];
            if (v < count) {
                EXPECT_LT(edge, 12) << "case " << c << " vertex " << v;
            } else {
                EXPECT_EQ(edge, 0xFF) << "case " << c << " vertex " << v;
            }
        }
        // A triangle's three vertices lie on three different edges.
        for (int t = 0; t < count; t += 3) {
            const auto& row = tables.triangleEdges[std::size_t(c)];
            EXPECT_NE(row[std::size_t(t)], row[std::size_t(t + 1)]) << "case " << c;
            EXPECT_NE(row[std::size_t(t)], row[std::size_t(t + 2)]) << "case " << c;
            EXPECT_NE(row[std::size_t(t + 1)], row[std::size_t(t + 2)]) << "case " << c;
        }
    }
    // Some case needs the full five triangles (e.g. a tunnel), so the limit is tight.
    EXPECT_EQ(maxCount, mc::kMaxVerticesPerCell);
}

TEST(MarchingCubesTables, EmptyAndFullCellsHaveNoTriangles)
{
    EXPECT_EQ(mc::caseTables().vertexCount[0], 0);
    EXPECT_EQ(mc::caseTables().vertexCount[255], 0);
}

TEST(MarchingCubesTables, UsedEdgesAreExactlyTheEdgesWithASignChange)
{
    const mc::CaseTables& tables = mc::caseTables();
    for (int c = 0; c < 256; ++c) {
        std::set<int> used;
        for (int v = 0; v < tables.vertexCount[std::size_t(c)]; ++v) {
            used.insert(tables.triangleEdges[std::size_t(c)][std::size_t(v)]);
        }
        EXPECT_EQ(used, crossedEdges(c)) << "case " << c;
    }
}

TEST(MarchingCubesTables, SingleInsideCornerGivesOneTriangleFacingAwayFromIt)
{
    // Corner 0 alone: the triangle on edges 0, 4, 8 (the x, y and z edges at the origin),
    // wound so that its normal points toward (+1, +1, +1), away from the inside corner.
    const mc::CaseTables& tables = mc::caseTables();
    ASSERT_EQ(tables.vertexCount[1], 3);
    const auto& row = tables.triangleEdges[1];
    glm::vec3 p[3];
    for (int v = 0; v < 3; ++v) {
        const int edge = row[std::size_t(v)];
        ASSERT_TRUE(edge == 0 || edge == 4 || edge == 8) << edge;
        p[v] = glm::vec3(0.0f);
        p[v][mc::edgeAxis(edge)] = 0.5f;
    }
    const glm::vec3 normal = glm::cross(p[1] - p[0], p[2] - p[0]);
    EXPECT_GT(glm::dot(normal, glm::vec3(1.0f)), 0.0f);
}

TEST(MarchingCubesTables, AmbiguousFaceSeparatesTheInsideCorners)
{
    // Corners 0 and 3 (a diagonal of the z = 0 face) inside: two separate corner triangles,
    // never a joining band across the face.
    const int c = (1 << 0) | (1 << 3);
    const mc::CaseTables& tables = mc::caseTables();
    ASSERT_EQ(tables.vertexCount[c], 6);
    const auto& row = tables.triangleEdges[c];
    const std::set<int> first(row.begin(), row.begin() + 3);
    const std::set<int> second(row.begin() + 3, row.begin() + 6);
    const std::set<int> aroundCorner0{0, 4, 8};
    const std::set<int> aroundCorner3{1, 5, 11};
    EXPECT_TRUE((first == aroundCorner0 && second == aroundCorner3) ||
                (first == aroundCorner3 && second == aroundCorner0));
}

TEST(MarchingCubesTables, EveryThreadSeesTheSameTables)
{
    std::vector<const mc::CaseTables*> seen(8, nullptr);
    std::vector<std::thread> threads;
    for (std::size_t n = 0; n < seen.size(); ++n) {
        threads.emplace_back([&seen, n] { seen[n] = &mc::caseTables(); });
    }
    for (std::thread& t : threads)
        t.join();
    for (const mc::CaseTables* p : seen)
        EXPECT_EQ(p, &mc::caseTables());
}

TEST(MarchingCubesTables, EveryCaseAloneInAVolumeIsClosedAndOutward)
{
    // A 4x4x4 volume, all outside (-1) except the corners of the middle cell (1..2)^3, which
    // follow the case bits. The middle cell produces exactly that case's triangles; its
    // neighbours close the surface around the inside corners.
    for (int c = 1; c < 256; ++c) {
        const Volume volume = test::makeFloatField({4, 4, 4}, [c](glm::vec3 p) {
            const glm::ivec3 q(p);
            if (glm::any(glm::lessThan(q, glm::ivec3(1))) ||
                glm::any(glm::greaterThan(q, glm::ivec3(2)))) {
                return -1.0f;
            }
            const glm::ivec3 o = q - 1;
            const int corner = o.x | (o.y << 1) | (o.z << 2);
            return cornerInside(c, corner) ? 1.0f : -1.0f;
        });
        const IsoMesh mesh = extractIsosurfaceCpu(volume, StoredValue(0.0f));
        expectClosedAndOutward(mesh, "case " + std::to_string(c));
    }
}

TEST(MarchingCubesTables, NeighbouringCellsAgreeOnEverySharedFace)
{
    // Two cells sharing a face, in every direction, for every case of the first cell and every
    // sign pattern of the second cell's four other corners: the surface must close up, which
    // needs both cells to build the same segments on the shared face.
    for (int axis = 0; axis < 3; ++axis) {
        glm::uvec3 dims(4, 4, 4);
        dims[axis] = 5;
        for (int c = 0; c < 256; ++c) {
            for (int far = 0; far < 16; ++far) {
                if (c == 0 && far == 0) continue;
                const Volume volume = test::makeFloatField(dims, [&](glm::vec3 p) {
                    const glm::ivec3 q = glm::ivec3(p) - 1;
                    glm::ivec3 hi(1);
                    hi[axis] = 2;
                    if (glm::any(glm::lessThan(q, glm::ivec3(0))) ||
                        glm::any(glm::greaterThan(q, hi))) {
                        return -1.0f;
                    }
                    if (q[axis] == 2) {
                        // The second cell's far face: 4 corners numbered in (u, w) order.
                        const int u = (axis + 1) % 3;
                        const int w = (axis + 2) % 3;
                        const int bit = q[u] | (q[w] << 1);
                        return ((far >> bit) & 1) != 0 ? 1.0f : -1.0f;
                    }
                    const int corner = q.x | (q.y << 1) | (q.z << 2);
                    return cornerInside(c, corner) ? 1.0f : -1.0f;
                });
                const IsoMesh mesh = extractIsosurfaceCpu(volume, StoredValue(0.0f));
                const MeshTopology topo = analyzeTopology(mesh);
                ASSERT_EQ(topo.boundaryEdges, 0u)
                    << "axis " << axis << " case " << c << " far " << far;
                ASSERT_EQ(topo.nonManifoldEdges, 0u) << "axis " << axis << " case " << c;
                ASSERT_EQ(topo.inconsistentlyOrientedEdges, 0u) << "axis " << axis << " case " << c;
                ASSERT_GT(enclosedVolume(mesh), 0.0) << "axis " << axis << " case " << c;
            }
        }
    }
}

} // namespace
} // namespace isoview
