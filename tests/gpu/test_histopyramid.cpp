// The pyramid itself, level by level, against a CPU build of the same pyramid: classification
// (count and cached case per cell), every reduction level, the total, and the level formats.
#include "extraction/marching_cubes_tables.h"
#include "gpu/histopyramid.h"
#include "support/gl_test_context.h"
#include "support/gpu_extractor.h"
#include "support/synthetic_volumes.h"

#include <cmath>

namespace isoview::test {
namespace {

using Level = std::vector<glm::uvec4>;

// The base level as the GPU should build it: per cell (count | case << 4) at its flat position.
Level cpuBaseLevel(const Volume& volume, const PyramidLayout& layout, float iso)
{
    const mc::CaseTables& tables = mc::caseTables();
    const glm::uvec2 extent = layout.levelExtent(0);
    Level base(std::size_t(extent.x) * extent.y, glm::uvec4(0));
    const glm::uvec3 cells = layout.cellCount;
    for (std::uint32_t z = 0; z < cells.z; ++z) {
        for (std::uint32_t y = 0; y < cells.y; ++y) {
            for (std::uint32_t x = 0; x < cells.x; ++x) {
                unsigned caseIndex = 0;
                for (int c = 0; c < 8; ++c) {
                    const float v = volume.valueAt(x + mc::cornerOffset(c, 0),
                                                   y + mc::cornerOffset(c, 1),
                                                   z + mc::cornerOffset(c, 2));
                    if (std::isfinite(v) && v >= iso) caseIndex |= 1u << c;
                }
                const std::uint32_t fx = (z % layout.cellTilesPerRow) * cells.x + x;
                const std::uint32_t fy = (z / layout.cellTilesPerRow) * cells.y + y;
                const int channel = int(fx & 1) + 2 * int(fy & 1);
                base[(fy / 2) * extent.x + fx / 2][channel] =
                    tables.vertexCount[caseIndex] | (caseIndex << 4);
            }
        }
    }
    return base;
}

// Children outside the level below's extent count zero.
Level cpuReduce(const Level& below, glm::uvec2 belowExtent, glm::uvec2 extent, bool belowIsBase)
{
    Level level(std::size_t(extent.x) * extent.y, glm::uvec4(0));
    for (std::uint32_t y = 0; y < extent.y; ++y) {
        for (std::uint32_t x = 0; x < extent.x; ++x) {
            for (int c = 0; c < 4; ++c) {
                const glm::uvec2 p(2 * x + (c & 1), 2 * y + (c >> 1));
                if (p.x >= belowExtent.x || p.y >= belowExtent.y) continue;
                glm::uvec4 child = below[p.y * belowExtent.x + p.x];
                if (belowIsBase) child &= glm::uvec4(15u);
                level[y * extent.x + x][c] = child.x + child.y + child.z + child.w;
            }
        }
    }
    return level;
}

void expectPyramidMatchesCpu(const Volume& volume, float iso, bool limitToGl33)
{
    GpuExtractor extractor(limitToGl33);
    extractor.setVolume(volume);
    extractor->extract(iso);
    const PyramidLayout layout = extractor->pyramidLayout();
    ASSERT_FALSE(layout.empty());

    Level expected = cpuBaseLevel(volume, layout, iso);
    for (std::uint32_t level = 0; level < layout.levelCount; ++level) {
        SCOPED_TRACE("level " + std::to_string(level));
        if (level > 0) {
            expected = cpuReduce(expected, layout.levelExtent(level - 1), layout.levelExtent(level),
                                 level == 1);
        }
        const Level actual = extractor->readPyramidLevel(level);
        ASSERT_EQ(actual.size(), expected.size());
        std::size_t mismatches = 0;
        for (std::size_t i = 0; i < actual.size(); ++i) mismatches += actual[i] != expected[i];
        EXPECT_EQ(mismatches, 0u);
    }
    const glm::uvec4 top = expected.front();
    EXPECT_EQ(layout.levelExtent(layout.levelCount - 1), glm::uvec2(1, 1));
    EXPECT_EQ(extractor->vertexCount(), top.x + top.y + top.z + top.w);
    EXPECT_GT(extractor->vertexCount(), 0u);
}

class HistoPyramidTest : public GlPathTest {};

TEST_P(HistoPyramidTest, EveryLevelMatchesCpuForRandomVolume)
{
    expectPyramidMatchesCpu(makeRandomVolume({23, 17, 11}, ScalarType::UInt8, 7), 128.0f,
                            limitToGl33());
}

TEST_P(HistoPyramidTest, EveryLevelMatchesCpuForSphereWithAllLevelFormats)
{
    // 100 x 90 x 80 cells: a base of about 470 x 400 texels, 10 levels, so all three classes
    // (8-, 16- and 32-bit) of levels are used, with odd extents along the way.
    const Volume v = makeSphere({101, 91, 81}, glm::vec3(50.0f, 45.0f, 40.0f), 35.0f);
    ASSERT_GT(PyramidLayout::forVolume(v.dims(), 16384).levelCount,
              std::uint32_t(gl::kFirst32BitLevel + 1));
    expectPyramidMatchesCpu(v, 0.0f, limitToGl33());
}

INSTANTIATE_TEST_SUITE_P(GlPaths, HistoPyramidTest, ::testing::Values(false, true), glPathName);

TEST(PyramidLayout, ThirtyTwoBitLevelsAppearForLargeBases)
{
    const PyramidLayout layout = PyramidLayout::forVolume({512, 512, 512}, 16384);
    EXPECT_GT(layout.levelCount - 1, std::uint32_t(gl::kFirst32BitLevel));
    // The largest per-channel count of each class must fit its format.
    EXPECT_LE(15u * (1u << (2 * (gl::kFirst16BitLevel - 1))), 255u);
    EXPECT_LE(15u * (1u << (2 * (gl::kFirst32BitLevel - 1))), 65535u);
}

} // namespace
} // namespace isoview::test
