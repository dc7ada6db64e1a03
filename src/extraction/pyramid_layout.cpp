#include "extraction/pyramid_layout.h"

#include "core/error.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <string>

namespace isoview {

glm::uvec3 PyramidLayout::cellAt(glm::uvec2 texel, int channel) const
{
    const glm::uvec2 blockTexel = texel / kBlockTexels;
    const glm::uvec2 within = texel % kBlockTexels;
    const std::uint32_t index = blockTexel.x + blocksPerRow * blockTexel.y;
    const glm::uvec3 origin = blockCoordinates(index) * kBlockCells;
    // Quadrant (within / 4) is the slice; the texel inside it covers 2 x 2 cells.
    const std::uint32_t slice = (within.x >> 2) + 2 * (within.y >> 2);
    return origin + glm::uvec3(2 * (within.x & 3u) + std::uint32_t(channel & 1),
                               2 * (within.y & 3u) + std::uint32_t(channel >> 1), slice);
}

PyramidLayout::BaseSlot PyramidLayout::slotOf(glm::uvec3 cell) const
{
    const glm::uvec3 block = cell / kBlockCells;
    const glm::uvec3 within = cell % kBlockCells;
    const glm::uvec2 blockOrigin = blockTexel(blockIndex(block)) * kBlockTexels;
    const glm::uvec2 quadrant(within.z & 1u, within.z >> 1);
    const glm::uvec2 texel = blockOrigin + quadrant * 4u + glm::uvec2(within.x, within.y) / 2u;
    return {texel, int(within.x & 1u) + 2 * int(within.y & 1u)};
}

PyramidLayout PyramidLayout::forVolume(glm::uvec3 dims, std::uint32_t maxTextureSize)
{
    PyramidLayout layout;
    if (dims.x < 2 || dims.y < 2 || dims.z < 2) return layout; // no cells, nothing to extract
    layout.cellCount = dims - glm::uvec3(1);
    layout.blockCount = (layout.cellCount + kBlockCells - glm::uvec3(1)) / kBlockCells;
    const std::uint64_t blocks =
        std::uint64_t(layout.blockCount.x) * layout.blockCount.y * layout.blockCount.z;
    // As near square as the count allows: the fewest levels and the least unused area.
    const std::uint64_t perRow = std::uint64_t(std::ceil(std::sqrt(double(blocks))));
    const std::uint64_t rows = (blocks + perRow - 1) / perRow;
    const std::uint64_t width = perRow * kBlockTexels;
    const std::uint64_t height = rows * kBlockTexels;
    if (width > maxTextureSize || height > maxTextureSize) {
        throw GlError("the HistoPyramid of a " + std::to_string(dims.x) + "x" +
                      std::to_string(dims.y) + "x" + std::to_string(dims.z) +
                      " volume would need a base level of " + std::to_string(width) + " x " +
                      std::to_string(height) + " texels, larger than this GPU's " +
                      "GL_MAX_TEXTURE_SIZE of " + std::to_string(maxTextureSize));
    }
    layout.blocksPerRow = std::uint32_t(perRow);
    layout.blockRows = std::uint32_t(rows);
    layout.baseExtent = {std::uint32_t(width), std::uint32_t(height)};
    layout.levelCount = 1 + std::uint32_t(std::bit_width(std::max(width, height) - 1));
    return layout;
}

} // namespace isoview
