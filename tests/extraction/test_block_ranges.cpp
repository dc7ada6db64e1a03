// Block value ranges: each block's range is exactly the min and max of the voxels its cells
// touch (checked against brute force), non-finite voxels keep a block for every isovalue, and a
// block is active exactly when a cell in it can cross (checked against the cells' cases).
#include "extraction/block_ranges.h"
#include "extraction/pyramid_layout.h"
#include "support/synthetic_volumes.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace isoview {
namespace {

// Brute force: the range over the voxels of block b's cells and their far corners.
std::pair<float, float> bruteRange(const Volume& v, glm::uvec3 block)
{
    const glm::uvec3 cells = PyramidLayout::kBlockCells;
    const glm::uvec3 first = block * cells;
    const glm::uvec3 last = glm::min(first + cells, v.dims() - glm::uvec3(1));
    float lo = std::numeric_limits<float>::infinity();
    float hi = -lo;
    for (unsigned z = first.z; z <= last.z; ++z)
        for (unsigned y = first.y; y <= last.y; ++y)
            for (unsigned x = first.x; x <= last.x; ++x) {
                // NaN is outside for every isovalue, as -Inf is.
                const float value = std::isnan(v.valueAt(x, y, z)) ? -INFINITY : v.valueAt(x, y, z);
                lo = std::min(lo, value);
                hi = std::max(hi, value);
            }
    return {lo, hi};
}

TEST(BlockRanges, MatchBruteForceOnEveryVoxelType)
{
    for (ScalarType type : {ScalarType::UInt8, ScalarType::Int16, ScalarType::UInt32,
                            ScalarType::Float32, ScalarType::Float64}) {
        SCOPED_TRACE(std::string(scalarTypeName(type)));
        const Volume v = test::makeRandomVolume({21, 18, 11}, type, 3);
        const glm::uvec3 blocks = PyramidLayout::blockCountFor(v.dims());
        const BlockRanges r = BlockRanges::compute(v, blocks);
        ASSERT_EQ(r.size(), blocks.x * blocks.y * blocks.z);
        const PyramidLayout l = PyramidLayout::forVolume(v.dims(), 16384);
        for (unsigned b = 0; b < r.size(); ++b) {
            const auto [lo, hi] = bruteRange(v, l.blockCoordinates(b));
            EXPECT_EQ(r.min(b), lo) << b;
            EXPECT_EQ(r.max(b), hi) << b;
        }
    }
}

TEST(BlockRanges, NonFiniteVoxelsFollowTheInsideRule)
{
    // 1.0 everywhere; +Inf in block 1 (cells 8..15 in x: voxel 12 is in it only), NaN in
    // block 0 (voxel 3).
    Volume v = test::makeTypedVolume<float>({20, 20, 10}, [](auto, auto, auto) { return 1.0f; });
    std::vector<std::byte> bytes(v.bytes(), v.bytes() + v.voxelCount() * sizeof(float));
    const auto put = [&](unsigned x, float value) {
        std::memcpy(bytes.data() + (x + 20 * (3 + 20 * 2)) * sizeof(float), &value, sizeof(float));
    };
    put(12, std::numeric_limits<float>::infinity());
    put(3, std::numeric_limits<float>::quiet_NaN());
    const Volume withNonFinite(v.dims(), ScalarType::Float32, std::move(bytes));
    const BlockRanges r =
        BlockRanges::compute(withNonFinite, PyramidLayout::blockCountFor(withNonFinite.dims()));
    std::vector<std::uint32_t> active;
    // Every finite voxel is outside, +Inf is inside: only the block holding +Inf can cross (the
    // min/max must not skip it).
    r.activeBlocks(5.0f, active);
    EXPECT_EQ(active, std::vector<std::uint32_t>{1});
    EXPECT_EQ(r.max(1), std::numeric_limits<float>::infinity());
    // Every finite voxel is inside, NaN outside: only the NaN's block can cross.
    r.activeBlocks(0.5f, active);
    EXPECT_EQ(active, std::vector<std::uint32_t>{0});
    EXPECT_EQ(r.min(0), -std::numeric_limits<float>::infinity());
    r.activeBlocks(std::numeric_limits<float>::quiet_NaN(), active);
    EXPECT_TRUE(active.empty());
}

// Also on a volume of several groups of blocks in each direction, partial ones at the far
// faces (activeBlocks' coarse pass skips whole groups).
TEST(BlockRanges, ActiveExactlyWhereACellCanCross)
{
    for (const glm::uvec3 dims : {glm::uvec3(40, 36, 30), glm::uvec3(90, 75, 70)}) {
        const Volume v = test::makeSphere(dims, glm::vec3(dims - 1u) / 2.0f, float(dims.z) * 0.3f);
        const PyramidLayout l = PyramidLayout::forVolume(v.dims(), 16384);
        const BlockRanges r = BlockRanges::compute(v, l.blockCount);
        for (float iso : {-3.0f, 0.0f, 4.5f}) {
            std::vector<std::uint32_t> active;
            r.activeBlocks(iso, active);
            ASSERT_TRUE(std::is_sorted(active.begin(), active.end()));
            // A block with a cell whose corners disagree must be active; one whose cells all agree
            // (all corners inside or all outside) must not.
            for (unsigned b = 0; b < r.size(); ++b) {
                const glm::uvec3 first = l.blockCoordinates(b) * PyramidLayout::kBlockCells;
                const glm::uvec3 last =
                    glm::min(first + PyramidLayout::kBlockCells, v.dims() - glm::uvec3(1));
                bool anyInside = false;
                bool anyOutside = false;
                for (unsigned z = first.z; z <= last.z; ++z)
                    for (unsigned y = first.y; y <= last.y; ++y)
                        for (unsigned x = first.x; x <= last.x; ++x)
                            (v.valueAt(x, y, z) >= iso ? anyInside : anyOutside) = true;
                const bool listed = std::binary_search(active.begin(), active.end(), b);
                EXPECT_EQ(listed, anyInside && anyOutside) << "block " << b << " iso " << iso;
            }
        }
    }
}

// A crop's block ranges never call a block inactive that holds a crossing: checked cell by
// cell against the cases of the crop's cells, for boxes aligned with the blocks and not.
TEST(BlockRanges, CroppedRangesKeepEveryCrossingBlock)
{
    const Volume v = test::makeRandomVolume({29, 23, 17}, ScalarType::Int16, 11);
    const BlockRanges whole = BlockRanges::compute(v, PyramidLayout::blockCountFor(v.dims()));
    for (const auto& [first, last] : {std::pair{glm::uvec3(0), glm::uvec3(28, 22, 16)},
                                      std::pair{glm::uvec3(3, 9, 2), glm::uvec3(20, 22, 13)},
                                      std::pair{glm::uvec3(8, 8, 4), glm::uvec3(15, 15, 7)}}) {
        const glm::uvec3 cells = last - first;
        const BlockRanges crop = whole.cropped(first, cells);
        ASSERT_EQ(crop.blockCount(), PyramidLayout::blockCountFor(cells + glm::uvec3(1)));
        for (float iso : {-500.0f, 1000.0f, 2500.0f}) {
            std::size_t crossing = 0;
            for (unsigned z = 0; z < cells.z; ++z)
                for (unsigned y = 0; y < cells.y; ++y)
                    for (unsigned x = 0; x < cells.x; ++x) {
                        bool in = false, out = false;
                        for (int c = 0; c < 8; ++c) {
                            const glm::uvec3 p = first + glm::uvec3(x, y, z) +
                                                 glm::uvec3(c & 1, (c >> 1) & 1, c >> 2);
                            (v.valueAt(p.x, p.y, p.z) >= iso ? in : out) = true;
                        }
                        if (!(in && out)) continue;
                        ++crossing;
                        const glm::uvec3 b = glm::uvec3(x, y, z) / PyramidLayout::kBlockCells;
                        const std::uint32_t index =
                            b.x + crop.blockCount().x * (b.y + crop.blockCount().y * b.z);
                        EXPECT_TRUE(crop.isActive(index, iso));
                    }
            EXPECT_GT(crossing, 0u);
        }
    }
}

} // namespace
} // namespace isoview
