// Edge ownership, the rule behind the GPU's welded vertices: summed over all cells, the crossed
// edges each cell owns are exactly the welded vertices of the CPU reference (every crossed edge
// has one owner, none is counted twice), on volumes whose surface reaches every face and corner.
#include "extraction/cpu_marching_cubes.h"
#include "extraction/edge_ownership.h"
#include "extraction/marching_cubes_tables.h"
#include "support/synthetic_volumes.h"

#include <gtest/gtest.h>

#include <bit>
#include <set>

namespace isoview {
namespace {

unsigned caseOf(const Volume& v, glm::uvec3 cell, float iso)
{
    unsigned caseIndex = 0;
    for (int c = 0; c < 8; ++c) {
        const glm::uvec3 p = cell + glm::uvec3(mc::cornerOffset(c, 0), mc::cornerOffset(c, 1),
                                               mc::cornerOffset(c, 2));
        const float value = v.valueAt(p.x, p.y, p.z);
        if (std::isfinite(value) && value >= iso) caseIndex |= 1u << c;
    }
    return caseIndex;
}

// Owned crossed edges per cell, checked to be distinct grid edges; returns their number.
std::size_t ownedCrossedEdges(const Volume& v, float iso)
{
    const glm::uvec3 cells = v.dims() - glm::uvec3(1);
    std::set<std::pair<glm::uvec3::value_type, std::uint64_t>> seen;
    std::size_t total = 0;
    for (unsigned z = 0; z < cells.z; ++z)
        for (unsigned y = 0; y < cells.y; ++y)
            for (unsigned x = 0; x < cells.x; ++x) {
                const glm::uvec3 cell(x, y, z);
                const std::uint16_t owned = mc::crossedEdgeMask(caseOf(v, cell, iso)) &
                                            mc::ownedEdgeMask(mc::farFacesOf(cell, cells));
                total += std::size_t(std::popcount(owned));
                for (int e = 0; e < 12; ++e) {
                    if (((owned >> e) & 1) == 0) continue;
                    const int c = mc::kEdgeCorners[std::size_t(e)][0];
                    const glm::uvec3 lower =
                        cell + glm::uvec3(mc::cornerOffset(c, 0), mc::cornerOffset(c, 1),
                                          mc::cornerOffset(c, 2));
                    const std::uint64_t key =
                        lower.x +
                        std::uint64_t(v.dims().x) * (lower.y + std::uint64_t(v.dims().y) * lower.z);
                    EXPECT_TRUE(seen.insert({glm::uvec3::value_type(mc::edgeAxis(e)), key}).second)
                        << "edge " << e << " of cell " << x << "," << y << "," << z
                        << " is owned twice";
                }
            }
    return total;
}

TEST(EdgeOwnership, InteriorCellsOwnTheirThreeEdgesAtCornerZero)
{
    EXPECT_EQ(mc::ownedEdgeMask(0), (1u << 0) | (1u << 4) | (1u << 8));
    EXPECT_EQ(mc::ownedEdgeMask(7), 0xFFFu); // the last cell owns all of its edges
    EXPECT_EQ(mc::crossedEdgeMask(0), 0u);
    EXPECT_EQ(mc::crossedEdgeMask(255), 0u);
    EXPECT_EQ(mc::crossedEdgeMask(1), (1u << 0) | (1u << 4) | (1u << 8));
    for (int axis = 0; axis < 3; ++axis)
        for (int k = 0; k < 4; ++k) {
            const int e = 4 * axis + k;
            EXPECT_EQ(mc::edgeAt(axis, mc::kEdgeCorners[std::size_t(e)][0]), e);
        }
    EXPECT_EQ(mc::edgeAt(0, 1), -1); // corner 1 is the upper end of x edge 0
}

TEST(EdgeOwnership, OwnedCrossedEdgesAreTheWeldedVerticesOfTheReference)
{
    struct Case {
        Volume volume;
        float iso;
    };
    std::vector<Case> cases;
    // Random values cross edges on every face, edge and corner of the grid.
    for (std::uint32_t seed : {1u, 2u, 3u})
        cases.push_back({test::makeRandomVolume({7, 6, 5}, ScalarType::Float32, seed), 0.0f});
    cases.push_back({test::makeRandomVolume({2, 2, 2}, ScalarType::UInt8, 4), 128.0f});
    cases.push_back({test::makeRandomVolume({9, 2, 3}, ScalarType::Int16, 5), 500.0f});
    cases.push_back({test::makeSphere({20, 17, 9}, glm::vec3(10.0f, 8.0f, 4.0f), 7.0f), 0.0f});
    for (const Case& c : cases) {
        const IsoMesh reference = extractIsosurfaceCpu(c.volume, StoredValue(c.iso));
        EXPECT_GT(reference.vertexCount(), 0u);
        EXPECT_EQ(ownedCrossedEdges(c.volume, c.iso), reference.vertexCount());
    }
}

} // namespace
} // namespace isoview
