// The value range of every pyramid block (PyramidLayout::kBlockCells cells), so that a build
// classifies only the blocks an isovalue can cross: on real scans most of the box is air.
//
// A block's range covers every voxel its cells touch (one voxel more than its cells along each
// axis, clamped to the volume), in the float values the classification compares (as
// Volume::valueAt gives them). Under the one inside rule (inside <=> v >= iso: +Inf inside, -Inf
// and NaN outside) a block holds a crossing only if one of its corners is inside and another is
// not, so it is skipped when min >= iso (all inside) or max < iso (all outside). +Inf and -Inf
// enter the range as themselves and NaN as -Inf (outside for every isovalue), so a block
// holding +Inf has max +Inf and is kept wherever its other corners are outside.
//
// Cost: one pass over the voxels (separable: rows, then columns, then slices), at upload. Per
// isovalue, activeBlocks visits only the groups of 4 x 4 x 4 blocks whose joint range the
// isovalue crosses: a 1024³ volume has 4.2 million blocks and 65,536 groups. The blob at 1024³
// lists its 47,383 active blocks in 1.4 ms instead of 6.6 (this 2-core machine), and on an H200
// the pyramid build fell from 7.3 to 4.5 ms (docs/benchmarks/gpu.md).
//
// Example:
//   const BlockRanges ranges = BlockRanges::compute(volume, layout.blockCount);
//   std::vector<std::uint32_t> active;
//   ranges.activeBlocks(isoStored, active); // indices as PyramidLayout::blockIndex numbers them
#pragma once

#include "volume/volume.h"

#include <glm/glm.hpp>

#include <cstdint>
#include <vector>

namespace isoview {

class BlockRanges {
public:
    BlockRanges() = default;
    // Ranges of blocks of PyramidLayout::kBlockCells cells; blockCount as the layout has it.
    static BlockRanges compute(const Volume& volume, glm::uvec3 blockCount);

    // The ranges of the blocks of a crop whose cells start at firstCell (cellCount of them), from
    // these whole-volume ranges: each crop block takes the union of the whole-volume blocks its
    // cells overlap, so it is active whenever it may hold a crossing (sometimes when it holds
    // none, never the other way).
    BlockRanges cropped(glm::uvec3 firstCell, glm::uvec3 cellCount) const;

    // The blocks that may hold a crossing at this isovalue (stored units), in ascending index
    // order. A NaN isovalue keeps none (no corner is inside).
    void activeBlocks(float isovalue, std::vector<std::uint32_t>& out) const;
    // For a label map: the blocks whose voxels hold more than one label, the only ones where a
    // label's surface can pass (ascending).
    void blocksWithLabelBoundaries(std::vector<std::uint32_t>& out) const;
    bool isActive(std::uint32_t block, float isovalue) const
    {
        return mayCross(m_min[block], m_max[block], isovalue);
    }

    glm::uvec3 blockCount() const { return m_blockCount; }
    std::uint32_t size() const { return std::uint32_t(m_min.size()); }
    float min(std::uint32_t block) const { return m_min[block]; }
    float max(std::uint32_t block) const { return m_max[block]; }

    // Blocks per group side, for activeBlocks' coarse pass.
    static constexpr std::uint32_t kGroupBlocks = 4;

private:
    // Whether values in [min, max] may hold a crossing at isovalue: some inside, some not.
    static bool mayCross(float min, float max, float isovalue)
    {
        return max >= isovalue && min < isovalue;
    }
    // The groups' ranges (the union of their blocks'), from m_min and m_max.
    void computeGroupRanges();

    glm::uvec3 m_blockCount{0};
    std::vector<float> m_min;
    std::vector<float> m_max;
    glm::uvec3 m_groupCount{0};
    std::vector<float> m_groupMin;
    std::vector<float> m_groupMax;
};

} // namespace isoview
