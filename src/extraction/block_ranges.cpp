#include "extraction/block_ranges.h"

#include "extraction/pyramid_layout.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace isoview {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

struct Range {
    float min = kInf;
    float max = -kInf;

    // NaN is outside for every isovalue, as -Inf is, so it counts as -Inf; +Inf (inside for
    // every isovalue) counts as itself. min/max alone then say whether a block may hold both.
    void add(float v)
    {
        if (std::isnan(v)) v = -kInf;
        min = std::min(min, v);
        max = std::max(max, v);
    }
    void add(const Range& r)
    {
        min = std::min(min, r.min);
        max = std::max(max, r.max);
    }
};

// Block b along an axis touches voxels [b * cells, b * cells + cells], clamped to the volume.
struct Span {
    std::uint32_t first;
    std::uint32_t last; // inclusive
};
Span voxelSpan(std::uint32_t block, std::uint32_t blockCells, std::uint32_t voxels)
{
    const std::uint32_t first = block * blockCells;
    return {first, std::min(first + blockCells, voxels - 1)};
}

// Pass 1: along each row (fixed y, z), the range of every block's x span. Typed, so that the
// values are the floats Volume::valueAt gives.
template <class T>
void rowRanges(const Volume& volume, std::uint32_t blocksX, std::vector<Range>& out)
{
    const glm::uvec3 d = volume.dims();
    const std::byte* bytes = volume.bytes();
    std::vector<T> row(d.x);
    for (std::uint64_t r = 0; r < std::uint64_t(d.y) * d.z; ++r) {
        std::memcpy(row.data(), bytes + r * d.x * sizeof(T), d.x * sizeof(T));
        for (std::uint32_t bx = 0; bx < blocksX; ++bx) {
            const Span s = voxelSpan(bx, PyramidLayout::kBlockCells.x, d.x);
            Range range;
            for (std::uint32_t x = s.first; x <= s.last; ++x)
                range.add(static_cast<float>(row[x]));
            out[r * blocksX + bx] = range;
        }
    }
}

} // namespace

BlockRanges BlockRanges::compute(const Volume& volume, glm::uvec3 blockCount)
{
    BlockRanges result;
    result.m_blockCount = blockCount;
    const glm::uvec3 d = volume.dims();
    const std::uint64_t total = std::uint64_t(blockCount.x) * blockCount.y * blockCount.z;
    if (total == 0) return result;
    const glm::uvec3 cells = PyramidLayout::kBlockCells;

    // Pass 1: rows (x).
    std::vector<Range> rows(std::uint64_t(d.y) * d.z * blockCount.x);
    switch (volume.type()) {
    case ScalarType::UInt8: rowRanges<std::uint8_t>(volume, blockCount.x, rows); break;
    case ScalarType::Int8: rowRanges<std::int8_t>(volume, blockCount.x, rows); break;
    case ScalarType::UInt16: rowRanges<std::uint16_t>(volume, blockCount.x, rows); break;
    case ScalarType::Int16: rowRanges<std::int16_t>(volume, blockCount.x, rows); break;
    case ScalarType::UInt32: rowRanges<std::uint32_t>(volume, blockCount.x, rows); break;
    case ScalarType::Int32: rowRanges<std::int32_t>(volume, blockCount.x, rows); break;
    case ScalarType::Float32: rowRanges<float>(volume, blockCount.x, rows); break;
    case ScalarType::Float64: rowRanges<double>(volume, blockCount.x, rows); break;
    }

    // Pass 2: columns (y) of row ranges, per slice.
    std::vector<Range> columns(std::uint64_t(d.z) * blockCount.y * blockCount.x);
    for (std::uint32_t z = 0; z < d.z; ++z) {
        for (std::uint32_t by = 0; by < blockCount.y; ++by) {
            const Span s = voxelSpan(by, cells.y, d.y);
            for (std::uint32_t bx = 0; bx < blockCount.x; ++bx) {
                Range range;
                for (std::uint32_t y = s.first; y <= s.last; ++y)
                    range.add(rows[(std::uint64_t(z) * d.y + y) * blockCount.x + bx]);
                columns[(std::uint64_t(z) * blockCount.y + by) * blockCount.x + bx] = range;
            }
        }
    }

    // Pass 3: slices (z) of column ranges.
    result.m_min.resize(total);
    result.m_max.resize(total);
    const std::uint64_t plane = std::uint64_t(blockCount.x) * blockCount.y;
    for (std::uint32_t bz = 0; bz < blockCount.z; ++bz) {
        const Span s = voxelSpan(bz, cells.z, d.z);
        for (std::uint64_t i = 0; i < plane; ++i) {
            Range range;
            for (std::uint32_t z = s.first; z <= s.last; ++z)
                range.add(columns[z * plane + i]);
            result.m_min[bz * plane + i] = range.min;
            result.m_max[bz * plane + i] = range.max;
        }
    }
    result.computeGroupRanges();
    return result;
}

void BlockRanges::computeGroupRanges()
{
    const glm::uvec3 b = m_blockCount;
    m_groupCount = (b + kGroupBlocks - 1u) / kGroupBlocks;
    const std::size_t groups = std::size_t(m_groupCount.x) * m_groupCount.y * m_groupCount.z;
    m_groupMin.assign(groups, kInf);
    m_groupMax.assign(groups, -kInf);
    for (std::uint32_t z = 0; z < b.z; ++z)
        for (std::uint32_t y = 0; y < b.y; ++y)
            for (std::uint32_t x = 0; x < b.x; ++x) {
                const std::size_t block = x + std::size_t(b.x) * (y + std::size_t(b.y) * z);
                const std::size_t group =
                    x / kGroupBlocks +
                    std::size_t(m_groupCount.x) *
                        (y / kGroupBlocks + std::size_t(m_groupCount.y) * (z / kGroupBlocks));
                m_groupMin[group] = std::min(m_groupMin[group], m_min[block]);
                m_groupMax[group] = std::max(m_groupMax[group], m_max[block]);
            }
}

void BlockRanges::activeBlocks(float isovalue, std::vector<std::uint32_t>& out) const
{
    out.clear();
    const glm::uvec3 b = m_blockCount;
    const glm::uvec3 g = m_groupCount;
    // Per layer of groups: the active groups of each group row (x), then the layer's blocks in
    // ascending index order (z, then y, then x), visiting only those active groups' blocks.
    std::vector<std::uint32_t> activeX;
    std::vector<std::uint32_t> rowStart(std::size_t(g.y) + 1);
    for (std::uint32_t gz = 0; gz < g.z; ++gz) {
        activeX.clear();
        for (std::uint32_t gy = 0; gy < g.y; ++gy) {
            rowStart[gy] = std::uint32_t(activeX.size());
            const std::size_t row = std::size_t(g.x) * (gy + std::size_t(g.y) * gz);
            for (std::uint32_t gx = 0; gx < g.x; ++gx) {
                if (mayCross(m_groupMin[row + gx], m_groupMax[row + gx], isovalue))
                    activeX.push_back(gx);
            }
        }
        rowStart[g.y] = std::uint32_t(activeX.size());
        if (activeX.empty()) continue;
        const std::uint32_t zEnd = std::min(b.z, (gz + 1) * kGroupBlocks);
        for (std::uint32_t z = gz * kGroupBlocks; z < zEnd; ++z)
            for (std::uint32_t y = 0; y < b.y; ++y) {
                const std::uint32_t gy = y / kGroupBlocks;
                const std::uint32_t rowFirst = b.x * (y + b.y * z);
                for (std::uint32_t k = rowStart[gy]; k < rowStart[gy + 1]; ++k) {
                    const std::uint32_t xEnd = std::min(b.x, (activeX[k] + 1) * kGroupBlocks);
                    for (std::uint32_t x = activeX[k] * kGroupBlocks; x < xEnd; ++x) {
                        if (isActive(rowFirst + x, isovalue)) out.push_back(rowFirst + x);
                    }
                }
            }
    }
}

void BlockRanges::blocksWithLabelBoundaries(std::vector<std::uint32_t>& out) const
{
    out.clear();
    const std::uint32_t n = size();
    for (std::uint32_t b = 0; b < n; ++b) {
        if (m_min[b] < m_max[b]) out.push_back(b);
    }
}

BlockRanges BlockRanges::cropped(glm::uvec3 firstCell, glm::uvec3 cellCount) const
{
    BlockRanges out;
    out.m_blockCount = PyramidLayout::blockCountFor(cellCount + glm::uvec3(1));
    const std::size_t n = std::size_t(out.m_blockCount.x) * out.m_blockCount.y * out.m_blockCount.z;
    out.m_min.assign(n, std::numeric_limits<float>::infinity());
    out.m_max.assign(n, -std::numeric_limits<float>::infinity());
    const glm::uvec3 size = PyramidLayout::kBlockCells;
    for (std::uint32_t z = 0; z < out.m_blockCount.z; ++z)
        for (std::uint32_t y = 0; y < out.m_blockCount.y; ++y)
            for (std::uint32_t x = 0; x < out.m_blockCount.x; ++x) {
                // The crop block's cells, in whole-volume cells, and the whole-volume blocks
                // holding them.
                const glm::uvec3 lo = firstCell + glm::uvec3(x, y, z) * size;
                const glm::uvec3 hi =
                    firstCell + glm::min((glm::uvec3(x, y, z) + 1u) * size, cellCount) - 1u;
                const glm::uvec3 b0 = lo / size;
                const glm::uvec3 b1 = glm::min(hi / size, m_blockCount - 1u);
                const std::size_t i =
                    x + std::size_t(out.m_blockCount.x) * (y + std::size_t(out.m_blockCount.y) * z);
                for (std::uint32_t bz = b0.z; bz <= b1.z; ++bz)
                    for (std::uint32_t by = b0.y; by <= b1.y; ++by)
                        for (std::uint32_t bx = b0.x; bx <= b1.x; ++bx) {
                            const std::size_t b = bx + std::size_t(m_blockCount.x) *
                                                           (by + std::size_t(m_blockCount.y) * bz);
                            out.m_min[i] = std::min(out.m_min[i], m_min[b]);
                            out.m_max[i] = std::max(out.m_max[i], m_max[b]);
                        }
            }
    out.computeGroupRanges();
    return out;
}

} // namespace isoview
