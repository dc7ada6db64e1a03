// Brick plans: one slab when the volume fits; otherwise slabs whose cells partition the
// volume's (neighbours share one slice), each texture within the limit and carrying a margin
// slice on each side where the volume has one; slices too large are a clear error.
#include "core/error.h"
#include "extraction/brick_plan.h"

#include <gtest/gtest.h>

namespace isoview {
namespace {

TEST(BrickPlan, AVolumeThatFitsIsOneSlab)
{
    const auto slabs = planBricks({512, 512, 1024}, 16384);
    ASSERT_EQ(slabs.size(), 1u);
    EXPECT_EQ(slabs[0].first, 0u);
    EXPECT_EQ(slabs[0].last, 1023u);
    EXPECT_EQ(slabs[0].textureFirst, 0u);
    EXPECT_EQ(slabs[0].textureLast, 1023u);
}

TEST(BrickPlan, SlabsPartitionTheCellsWithinTheLimit)
{
    for (const glm::uvec3 dims : {glm::uvec3(512, 512, 1100), glm::uvec3(40, 36, 30),
                                  glm::uvec3(40, 36, 11), glm::uvec3(64, 64, 200)}) {
        for (std::uint32_t maxTexture : {128u, 256u, 16384u}) {
            const std::uint32_t capacity = slicesPerTexture(dims, maxTexture);
            if (capacity < 4) continue;
            const auto slabs = planBricks(dims, maxTexture);
            ASSERT_FALSE(slabs.empty());
            EXPECT_EQ(slabs.front().first, 0u);
            EXPECT_EQ(slabs.back().last, dims.z - 1);
            for (std::size_t i = 0; i < slabs.size(); ++i) {
                const BrickSlab& s = slabs[i];
                EXPECT_LT(s.first, s.last);
                EXPECT_LE(s.textureLast - s.textureFirst + 1, capacity);
                EXPECT_EQ(s.textureFirst, s.first == 0 ? 0 : s.first - 1);
                EXPECT_EQ(s.textureLast, std::min(s.last + 1, dims.z - 1));
                if (i > 0) {
                    EXPECT_EQ(s.first, slabs[i - 1].last);
                }
            }
            if (dims.z > capacity) {
                EXPECT_GT(slabs.size(), 1u);
            }
        }
    }
    EXPECT_EQ(planBricks({512, 512, 1100}, 16384).size(), 2u);
}

TEST(BrickPlan, SlicesTooLargeAreAClearError)
{
    EXPECT_THROW(planBricks({20000, 10, 100}, 16384), GlError);
    EXPECT_THROW(planBricks({100, 100, 100}, 150), GlError);
}

} // namespace
} // namespace isoview
