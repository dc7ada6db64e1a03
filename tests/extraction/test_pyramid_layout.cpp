// The pyramid's blocked cell layout: every cell has one slot, slots and cells map both ways,
// blocks lie row by row at the block level, and the limits are named. Pure arithmetic.
#include "core/error.h"
#include "extraction/pyramid_layout.h"

#include <gtest/gtest.h>

#include <set>
#include <tuple>

namespace isoview {
namespace {

TEST(PyramidLayout, EveryCellHasItsOwnSlotAndMapsBack)
{
    for (glm::uvec3 dims : {glm::uvec3(2, 2, 2), glm::uvec3(23, 17, 11), glm::uvec3(9, 9, 5),
                            glm::uvec3(40, 3, 30)}) {
        SCOPED_TRACE(std::to_string(dims.x) + "x" + std::to_string(dims.y) + "x" +
                     std::to_string(dims.z));
        const PyramidLayout l = PyramidLayout::forVolume(dims, 16384);
        ASSERT_FALSE(l.empty());
        EXPECT_EQ(l.cellCount, dims - glm::uvec3(1));
        EXPECT_EQ(l.blockCount, PyramidLayout::blockCountFor(dims));
        std::set<std::tuple<unsigned, unsigned, int>> slots;
        for (unsigned z = 0; z < l.cellCount.z; ++z) {
            for (unsigned y = 0; y < l.cellCount.y; ++y) {
                for (unsigned x = 0; x < l.cellCount.x; ++x) {
                    const PyramidLayout::BaseSlot s = l.slotOf({x, y, z});
                    ASSERT_LT(s.texel.x, l.baseExtent.x);
                    ASSERT_LT(s.texel.y, l.baseExtent.y);
                    ASSERT_TRUE(slots.insert({s.texel.x, s.texel.y, s.channel}).second);
                    ASSERT_EQ(l.cellAt(s.texel, s.channel), glm::uvec3(x, y, z));
                }
            }
        }
    }
}

TEST(PyramidLayout, BlocksAreEightByEightTexelSquaresAtTheBase)
{
    const PyramidLayout l = PyramidLayout::forVolume({33, 17, 9}, 16384); // 32 x 16 x 8 cells
    EXPECT_EQ(l.blockCount, glm::uvec3(4, 2, 2));
    EXPECT_EQ(l.blocksPerRow, 4u); // ceil(sqrt(16))
    EXPECT_EQ(l.blockRows, 4u);
    EXPECT_EQ(l.baseExtent, glm::uvec2(32, 32));
    EXPECT_EQ(l.levelCount, 6u); // 32, 16, 8, 4 (one texel per block), 2, 1
    EXPECT_EQ(l.levelExtent(PyramidLayout::kBlockLevel), glm::uvec2(4, 4));
    // Every cell of a block sits in that block's square, and the block's texel at the block
    // level is its square shrunk three times.
    for (unsigned b = 0; b < l.blockTotal(); ++b) {
        const glm::uvec3 origin = l.blockCoordinates(b) * PyramidLayout::kBlockCells;
        EXPECT_EQ(l.blockIndex(l.blockCoordinates(b)), b);
        for (unsigned c = 0; c < 256; ++c) {
            const glm::uvec3 cell = origin + glm::uvec3(c % 8, (c / 8) % 8, c / 64);
            EXPECT_EQ(l.slotOf(cell).texel / PyramidLayout::kBlockTexels, l.blockTexel(b));
        }
    }
}

TEST(PyramidLayout, LevelsHalveToOneTexel)
{
    const PyramidLayout l = PyramidLayout::forVolume({256, 256, 113}, 16384);
    EXPECT_EQ(l.blockCount, glm::uvec3(32, 32, 28));
    EXPECT_EQ(l.levelExtent(l.levelCount - 1), glm::uvec2(1, 1));
    EXPECT_NE(l.levelExtent(l.levelCount - 2), glm::uvec2(1, 1));
    // Near square: 28,672 blocks in 170 x 169.
    EXPECT_EQ(l.blocksPerRow, 170u);
    EXPECT_EQ(l.blockRows, 169u);
}

TEST(PyramidLayout, NoCellsMeansEmpty)
{
    EXPECT_TRUE(PyramidLayout::forVolume({16, 16, 1}, 16384).empty());
    EXPECT_TRUE(PyramidLayout::forVolume({1, 16, 16}, 16384).empty());
    EXPECT_EQ(PyramidLayout::blockCountFor({1, 16, 16}), glm::uvec3(0));
}

TEST(PyramidLayout, BaseBeyondLimitNamesIt)
{
    try {
        PyramidLayout::forVolume({2000, 2000, 2000}, 16384);
        ADD_FAILURE() << "accepted";
    } catch (const GlError& e) {
        EXPECT_NE(std::string(e.what()).find("GL_MAX_TEXTURE_SIZE"), std::string::npos);
    }
    // 512 x 512 x 1100: 1.1 M blocks fit a 16384 base (8192 x 8800).
    EXPECT_NO_THROW(PyramidLayout::forVolume({512, 512, 1100}, 16384));
}

} // namespace
} // namespace isoview
