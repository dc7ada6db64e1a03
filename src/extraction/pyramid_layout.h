// Where the HistoPyramid keeps each marching-cubes cell: blocks of cells, so that a build can
// skip whole blocks that cannot hold the surface.
//
// The (W-1) x (H-1) x (D-1) cells are cut into blocks of 8 x 8 x 4 cells. A block is an 8 x 8
// square of base-level texels: each texel covers 2 x 2 cells of one slice (RGBA channel c holds
// the cell at offset (c & 1, c >> 1)), and the block's 4 slices sit in its 2 x 2 quadrants of
// 4 x 4 texels (slice s in quadrant (s & 1, s >> 1)). Halving three times (levels 1, 2, 3) ends
// in one texel per block at the block level, where blocks lie row by row, blocksPerRow to a row
// (block b = bx + Bx * (by + By * bz) at texel (b % blocksPerRow, b / blocksPerRow)), as near
// square as possible. Above it the levels halve as in the paper, to a 1 x 1 top.
//
// Every level is only as large as the texels in use (levelExtent), rounded up when halving:
// traversal only descends into non-empty children, so the plain scheme's square power-of-two
// base is not needed. Cells beyond the volume in partial blocks are padding (never crossed).
//
// Pure arithmetic, no GL: the CPU reference, the tests and the shaders (through uniforms) agree
// on it.
#pragma once

#include <glm/glm.hpp>

#include <cstdint>

namespace isoview {

struct PyramidLayout {
    static constexpr glm::uvec3 kBlockCells{8, 8, 4};
    static constexpr std::uint32_t kBlockTexels = 8; // side of a block at the base level
    static constexpr std::uint32_t kBlockLevel = 3;  // the level with one texel per block

    glm::uvec3 cellCount{0, 0, 0};  // (W-1) x (H-1) x (D-1); zero when a dimension is 1
    glm::uvec3 blockCount{0, 0, 0}; // blocks along x, y, z (partial blocks included)
    std::uint32_t blocksPerRow = 0; // block-level texels per row
    std::uint32_t blockRows = 0;
    glm::uvec2 baseExtent{0, 0};  // texels of level 0 in use: kBlockTexels * (per row, rows)
    std::uint32_t levelCount = 0; // level levelCount-1 is 1 x 1; at least kBlockLevel + 1

    bool empty() const { return levelCount == 0; }
    std::uint64_t cells() const { return std::uint64_t(cellCount.x) * cellCount.y * cellCount.z; }
    std::uint32_t blockTotal() const { return blockCount.x * blockCount.y * blockCount.z; }

    // Texels in use at a level: the base extent halved (rounding up) once per level.
    glm::uvec2 levelExtent(std::uint32_t level) const
    {
        const std::uint32_t round = (1u << level) - 1u;
        return {(baseExtent.x + round) >> level, (baseExtent.y + round) >> level};
    }

    std::uint32_t blockIndex(glm::uvec3 block) const
    {
        return block.x + blockCount.x * (block.y + blockCount.y * block.z);
    }
    glm::uvec3 blockCoordinates(std::uint32_t index) const
    {
        return {index % blockCount.x, (index / blockCount.x) % blockCount.y,
                index / (blockCount.x * blockCount.y)};
    }
    // The block's texel at the block level.
    glm::uvec2 blockTexel(std::uint32_t index) const
    {
        return {index % blocksPerRow, index / blocksPerRow};
    }

    // The cell that channel `channel` of base texel `texel` holds; it may lie beyond cellCount
    // (padding of a partial block, or a texel past the last block).
    glm::uvec3 cellAt(glm::uvec2 texel, int channel) const;
    // Where a cell's case lives in the base level.
    struct BaseSlot {
        glm::uvec2 texel;
        int channel;
    };
    BaseSlot slotOf(glm::uvec3 cell) const;

    // Blocks along each axis of a volume of these dimensions (zero without cells).
    static glm::uvec3 blockCountFor(glm::uvec3 dims)
    {
        if (dims.x < 2 || dims.y < 2 || dims.z < 2) return glm::uvec3(0);
        return (dims - glm::uvec3(1) + kBlockCells - glm::uvec3(1)) / kBlockCells;
    }

    // The layout of a volume of these dimensions. Throws GlError naming GL_MAX_TEXTURE_SIZE when
    // the base level would exceed it. A volume with a dimension of 1 has no cells: an empty
    // layout.
    static PyramidLayout forVolume(glm::uvec3 dims, std::uint32_t maxTextureSize);
};

} // namespace isoview
