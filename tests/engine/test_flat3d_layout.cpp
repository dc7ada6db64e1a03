// Flat-3D tiling of the volume texture and the pyramid's flat cell grid: pure arithmetic, so
// every limit is checked here without a GPU.
#include "core/error.h"
#include "extraction/flat3d_layout.h"

#include <gtest/gtest.h>

#include <set>

namespace isoview {
namespace {

TEST(Flat3DLayout, TilesEverySliceWithoutOverlapInsideTheLimit)
{
    for (glm::uvec3 dims : {glm::uvec3(64, 64, 64), glm::uvec3(103, 94, 161),
                            glm::uvec3(256, 256, 113), glm::uvec3(7, 5, 3),
                            glm::uvec3(512, 512, 512), glm::uvec3(16, 16, 1)}) {
        const Flat3DLayout l = Flat3DLayout::forVolume(dims, 16384);
        SCOPED_TRACE(std::to_string(dims.x) + "x" + std::to_string(dims.y) + "x" +
                     std::to_string(dims.z));
        EXPECT_LE(l.textureSize().x, 16384u);
        EXPECT_LE(l.textureSize().y, 16384u);
        EXPECT_GE(l.tilesPerRow * l.tileRows, dims.z);
        std::set<std::pair<unsigned, unsigned>> origins;
        for (unsigned z = 0; z < dims.z; ++z) {
            const glm::uvec2 o = l.texelOf({0, 0, z});
            const glm::uvec2 last = l.texelOf({dims.x - 1, dims.y - 1, z});
            EXPECT_LT(last.x, l.textureSize().x);
            EXPECT_LT(last.y, l.textureSize().y);
            EXPECT_TRUE(origins.insert({o.x, o.y}).second);
        }
    }
}

TEST(Flat3DLayout, NearSquareTexture)
{
    const Flat3DLayout l = Flat3DLayout::forVolume({256, 256, 113}, 16384);
    const double ratio = double(l.textureSize().x) / double(l.textureSize().y);
    EXPECT_GT(ratio, 0.5);
    EXPECT_LT(ratio, 2.0);
}

TEST(Flat3DLayout, TooLargeNamesTheLimit)
{
    for (glm::uvec3 dims : {glm::uvec3(1024, 1024, 1024), glm::uvec3(20000, 4, 4)}) {
        try {
            Flat3DLayout::forVolume(dims, 16384);
            ADD_FAILURE() << "accepted";
        } catch (const GlError& e) {
            EXPECT_NE(std::string(e.what()).find("GL_MAX_TEXTURE_SIZE of 16384"),
                      std::string::npos)
                << e.what();
        }
    }
}

TEST(PyramidLayout, NearSquareCellGridHoldingEveryCell)
{
    const PyramidLayout l = PyramidLayout::forVolume({256, 256, 113}, 16384);
    EXPECT_EQ(l.cellCount, glm::uvec3(255, 255, 112));
    EXPECT_EQ(l.cellTilesPerRow, 11u); // ceil(sqrt(112)): 11 x 11 tiles for 112 slices
    EXPECT_EQ(l.baseExtent, glm::uvec2(1403, 1403)); // 11 * 255 = 2805 cells, 2 per texel
    EXPECT_EQ(l.levelCount, 12u);                      // 1403 -> 702 -> ... -> 1 in 11 halvings
    EXPECT_EQ(l.levelExtent(1), glm::uvec2(702, 702));
    EXPECT_EQ(l.levelExtent(11), glm::uvec2(1, 1));
    EXPECT_EQ(l.levelExtent(10), glm::uvec2(2, 2));
}

TEST(PyramidLayout, ElongatedAndTinyVolumes)
{
    const PyramidLayout flat = PyramidLayout::forVolume({512, 8, 4}, 16384);
    EXPECT_EQ(flat.cellTilesPerRow, 1u);
    EXPECT_EQ(flat.baseExtent, glm::uvec2(256, 11)); // 511 x (3 * 7) cells
    EXPECT_EQ(flat.levelExtent(flat.levelCount - 1), glm::uvec2(1, 1));
    EXPECT_NE(flat.levelExtent(flat.levelCount - 2), glm::uvec2(1, 1));
    const PyramidLayout one = PyramidLayout::forVolume({2, 2, 2}, 16384);
    EXPECT_EQ(one.baseExtent, glm::uvec2(1, 1));
    EXPECT_EQ(one.levelCount, 2u); // always one reduction: the top is never the base
}

TEST(PyramidLayout, NoCellsMeansEmpty)
{
    EXPECT_TRUE(PyramidLayout::forVolume({16, 16, 1}, 16384).empty());
    EXPECT_TRUE(PyramidLayout::forVolume({1, 16, 16}, 16384).empty());
}

TEST(PyramidLayout, BaseBeyondLimitNamesIt)
{
    try {
        PyramidLayout::forVolume({2000, 2000, 2000}, 16384);
        ADD_FAILURE() << "accepted";
    } catch (const GlError& e) {
        EXPECT_NE(std::string(e.what()).find("GL_MAX_TEXTURE_SIZE"), std::string::npos);
    }
}

} // namespace
} // namespace isoview
