// The pyramid itself, level by level, against a CPU build of the same pyramid: classification
// (the case per cell in the blocks the isovalue can cross), every reduction level, the total,
// the level formats, and blocks left behind by an earlier isovalue; likewise the vertex pyramid
// that shares its base.
#include "extraction/block_ranges.h"
#include "extraction/cpu_marching_cubes.h"
#include "extraction/edge_ownership.h"
#include "extraction/marching_cubes_tables.h"
#include "gpu/histopyramid.h"
#include "support/gl_test_context.h"
#include "support/gpu_extractor.h"
#include "support/synthetic_volumes.h"

#include <bit>
#include <cmath>
#include <functional>
#include <optional>

namespace isoview::test {
namespace {

using Level = std::vector<glm::uvec4>;

// The base level as the GPU should build it: per cell its case at its slot. Texels of blocks
// the isovalue cannot cross are not built (they keep what earlier builds left): `built` says
// which texels the comparison covers.
Level cpuBaseLevel(const Volume& volume, const PyramidLayout& layout, float iso,
                   std::vector<bool>& built)
{
    const glm::uvec2 extent = layout.levelExtent(0);
    Level base(std::size_t(extent.x) * extent.y, glm::uvec4(0));
    const BlockRanges ranges = BlockRanges::compute(volume, layout.blockCount);
    built.assign(base.size(), false);
    for (std::uint32_t y = 0; y < extent.y; ++y) {
        for (std::uint32_t x = 0; x < extent.x; ++x) {
            const glm::uvec2 block = glm::uvec2(x, y) / PyramidLayout::kBlockTexels;
            const std::uint32_t index = block.x + layout.blocksPerRow * block.y;
            if (index >= layout.blockTotal() || !ranges.isActive(index, iso)) continue;
            built[y * extent.x + x] = true;
            for (int channel = 0; channel < 4; ++channel) {
                const glm::uvec3 cell = layout.cellAt({x, y}, channel);
                if (!glm::all(glm::lessThan(cell, layout.cellCount))) continue;
                unsigned caseIndex = 0;
                for (int c = 0; c < 8; ++c) {
                    const float v = volume.valueAt(cell.x + mc::cornerOffset(c, 0),
                                                   cell.y + mc::cornerOffset(c, 1),
                                                   cell.z + mc::cornerOffset(c, 2));
                    if (isInsideIsosurface(v, iso)) caseIndex |= 1u << c;
                }
                base[y * extent.x + x][channel] = caseIndex;
            }
        }
    }
    return base;
}

// What a base texel counts: triangle vertices (from the case table) or welded vertices (the
// crossed edges its cells own).
using BaseCounts = std::function<glm::uvec4(glm::uvec2 texel, glm::uvec4 cases)>;

BaseCounts triangleVertexCounts()
{
    return [](glm::uvec2, glm::uvec4 cases) {
        const mc::CaseTables& tables = mc::caseTables();
        for (int k = 0; k < 4; ++k)
            cases[k] = tables.vertexCount[cases[k]];
        return cases;
    };
}

BaseCounts weldedVertexCounts(const PyramidLayout& layout)
{
    return [layout](glm::uvec2 texel, glm::uvec4 cases) {
        glm::uvec4 counts(0);
        for (int k = 0; k < 4; ++k) {
            const glm::uvec3 cell = layout.cellAt(texel, k);
            if (!glm::all(glm::lessThan(cell, layout.cellCount))) continue;
            counts[k] = std::uint32_t(
                std::popcount(unsigned(mc::crossedEdgeMask(cases[k]) &
                                       mc::ownedEdgeMask(mc::farFacesOf(cell, layout.cellCount)))));
        }
        return counts;
    };
}

// Children outside the level below's extent count zero; base texels hold cases, which
// baseCounts turns into counts (null above the base).
Level cpuReduce(const Level& below, glm::uvec2 belowExtent, glm::uvec2 extent,
                const BaseCounts* baseCounts)
{
    Level level(std::size_t(extent.x) * extent.y, glm::uvec4(0));
    for (std::uint32_t y = 0; y < extent.y; ++y) {
        for (std::uint32_t x = 0; x < extent.x; ++x) {
            for (int c = 0; c < 4; ++c) {
                const glm::uvec2 p(2 * x + (c & 1), 2 * y + (c >> 1));
                if (p.x >= belowExtent.x || p.y >= belowExtent.y) continue;
                glm::uvec4 child = below[p.y * belowExtent.x + p.x];
                if (baseCounts) child = (*baseCounts)(p, child);
                level[y * extent.x + x][c] = child.x + child.y + child.z + child.w;
            }
        }
    }
    return level;
}

// Below the block level only the texels of built blocks are compared.
void expectLevel(const Level& actual, const Level& expected, const std::vector<bool>& built,
                 std::uint32_t level, glm::uvec2 extent)
{
    ASSERT_EQ(actual.size(), expected.size());
    std::size_t mismatches = 0;
    std::size_t compared = 0;
    const std::uint32_t shrink = 1u << level;
    const glm::uvec2 baseExtent = extent * shrink;
    for (std::uint32_t y = 0; y < extent.y; ++y) {
        for (std::uint32_t x = 0; x < extent.x; ++x) {
            if (level < PyramidLayout::kBlockLevel) {
                const glm::uvec2 b(x * shrink, y * shrink);
                if (b.x >= baseExtent.x || !built[b.y * (baseExtent.x) + b.x]) continue;
            }
            ++compared;
            const std::size_t i = y * extent.x + x;
            mismatches += actual[i] != expected[i];
        }
    }
    EXPECT_EQ(mismatches, 0u) << "of " << compared << " texels compared";
}

void expectPyramidMatchesCpu(const Volume& volume, float iso, bool limitToGl33,
                             std::optional<float> earlierIso = std::nullopt)
{
    GpuExtractor extractor(limitToGl33);
    extractor.setVolume(volume);
    // An earlier isovalue leaves its blocks behind below the block level; they must not count.
    if (earlierIso) extractor->extract(StoredValue(*earlierIso));
    extractor->extract(StoredValue(iso));
    const PyramidLayout layout = extractor->pyramidLayout();
    ASSERT_FALSE(layout.empty());

    std::vector<bool> built;
    const Level base = cpuBaseLevel(volume, layout, iso, built);
    expectLevel(extractor->readPyramidLevel(0), base, built, 0, layout.levelExtent(0));
    // Both pyramids over the shared base: the triangle pyramid and the vertex pyramid.
    const BaseCounts triangles = triangleVertexCounts();
    const BaseCounts welded = weldedVertexCounts(layout);
    Level expected = base;
    Level expectedVertices = base;
    for (std::uint32_t level = 1; level < layout.levelCount; ++level) {
        SCOPED_TRACE("level " + std::to_string(level));
        const glm::uvec2 below = layout.levelExtent(level - 1);
        const glm::uvec2 extent = layout.levelExtent(level);
        expected = cpuReduce(expected, below, extent, level == 1 ? &triangles : nullptr);
        expectedVertices =
            cpuReduce(expectedVertices, below, extent, level == 1 ? &welded : nullptr);
        expectLevel(extractor->readPyramidLevel(level), expected, built, level, extent);
        expectLevel(extractor->readVertexPyramidLevel(level), expectedVertices, built, level,
                    extent);
    }
    const glm::uvec4 top = expected.front();
    const glm::uvec4 topVertices = expectedVertices.front();
    EXPECT_EQ(layout.levelExtent(layout.levelCount - 1), glm::uvec2(1, 1));
    EXPECT_EQ(extractor->vertexCount(), top.x + top.y + top.z + top.w);
    EXPECT_EQ(extractor->weldedVertexCount(),
              topVertices.x + topVertices.y + topVertices.z + topVertices.w);
    EXPECT_GT(extractor->vertexCount(), 0u);
    EXPECT_GT(extractor->weldedVertexCount(), 0u);
}

class HistoPyramidTest : public GlPathTest {};

TEST_P(HistoPyramidTest, EveryLevelMatchesCpuForRandomVolume)
{
    expectPyramidMatchesCpu(makeRandomVolume({23, 17, 11}, ScalarType::UInt8, 7), 128.0f,
                            limitToGl33());
}

TEST_P(HistoPyramidTest, BlocksOfAnEarlierIsovalueDoNotCount)
{
    // At 20 the sphere's blocks differ from those at -20: what -20 left below the block level
    // must be ignored.
    const Volume v = makeSphere({41, 37, 33}, glm::vec3(20.0f, 18.0f, 16.0f), 14.0f);
    expectPyramidMatchesCpu(v, 4.0f, limitToGl33(), -6.0f);
    expectPyramidMatchesCpu(v, -6.0f, limitToGl33(), 4.0f);
}

TEST_P(HistoPyramidTest, EveryLevelMatchesCpuForSphereWithAllLevelFormats)
{
    // 100 x 90 x 80 cells: 13 x 12 x 20 blocks in a 56 x 56 block level, a base of 448 x 448
    // texels, 10 levels, so all three classes (8-, 16- and 32-bit) of levels are used, with odd
    // extents along the way.
    const Volume v = makeSphere({101, 91, 81}, glm::vec3(50.0f, 45.0f, 40.0f), 35.0f);
    ASSERT_GT(PyramidLayout::forVolume(v.dims(), 16384).levelCount,
              std::uint32_t(gpu::kFirst32BitLevel + 1));
    expectPyramidMatchesCpu(v, 0.0f, limitToGl33());
}

INSTANTIATE_TEST_SUITE_P(GlPaths, HistoPyramidTest, ::testing::Values(false, true), glPathName);

TEST(PyramidLayout, ThirtyTwoBitLevelsAppearForLargeBases)
{
    const PyramidLayout layout = PyramidLayout::forVolume({512, 512, 512}, 16384);
    EXPECT_GT(layout.levelCount - 1, std::uint32_t(gpu::kFirst32BitLevel));
    // The largest per-channel count of each class must fit its format.
    EXPECT_LE(15u * (1u << (2 * (gpu::kFirst16BitLevel - 1))), 255u);
    EXPECT_LE(15u * (1u << (2 * (gpu::kFirst32BitLevel - 1))), 65535u);
}

} // namespace
} // namespace isoview::test
