#include "extraction/flat3d_layout.h"

#include "core/error.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <string>

namespace isoview {
namespace {

std::string dimsText(glm::uvec3 d)
{
    return std::to_string(d.x) + "x" + std::to_string(d.y) + "x" + std::to_string(d.z);
}

} // namespace

Flat3DLayout Flat3DLayout::forVolume(glm::uvec3 dims, std::uint32_t maxTextureSize)
{
    if (dims.x > maxTextureSize || dims.y > maxTextureSize) {
        throw GlError("a " + dimsText(dims) + " volume has slices larger than this GPU's "
                      "GL_MAX_TEXTURE_SIZE of " + std::to_string(maxTextureSize) + " texels");
    }
    Flat3DLayout layout;
    layout.tileSize = {dims.x, dims.y};
    layout.tileCount = dims.z;
    // Aim for a square texture: tilesPerRow * W ~ tileRows * H.
    const double ideal = std::ceil(std::sqrt(double(dims.z) * dims.y / dims.x));
    const std::uint32_t maxPerRow = maxTextureSize / dims.x;
    layout.tilesPerRow = std::uint32_t(std::clamp(ideal, 1.0, double(std::min(maxPerRow, dims.z))));
    layout.tileRows = (dims.z + layout.tilesPerRow - 1) / layout.tilesPerRow;
    if (std::uint64_t(layout.tileRows) * dims.y > maxTextureSize) {
        const double side = std::ceil(std::sqrt(double(dims.x) * dims.y * dims.z));
        throw GlError("a " + dimsText(dims) + " volume does not fit one flat-3D texture: it needs "
                      "about " + std::to_string(std::uint64_t(side)) + " x " +
                      std::to_string(std::uint64_t(side)) + " texels, more than this GPU's "
                      "GL_MAX_TEXTURE_SIZE of " + std::to_string(maxTextureSize) +
                      " (volumes this large need bricking, which is not implemented yet)");
    }
    return layout;
}

PyramidLayout PyramidLayout::forVolume(glm::uvec3 dims, std::uint32_t maxTextureSize)
{
    PyramidLayout layout;
    if (dims.x < 2 || dims.y < 2 || dims.z < 2) return layout; // no cells, nothing to extract
    layout.cellCount = dims - glm::uvec3(1);
    const glm::uvec3 c = layout.cellCount;
    // Whole cell tiles only, so that a cell's flat position maps back by division; as many to a
    // row as makes the grid near square (fewest levels, least padding).
    const double ideal = std::ceil(std::sqrt(double(c.z) * c.y / c.x));
    layout.cellTilesPerRow = std::uint32_t(std::clamp(ideal, 1.0, double(c.z)));
    const std::uint64_t rows = (c.z + layout.cellTilesPerRow - 1) / layout.cellTilesPerRow;
    const std::uint64_t width = (std::uint64_t(layout.cellTilesPerRow) * c.x + 1) / 2;
    const std::uint64_t height = (rows * c.y + 1) / 2;
    // The base is allocated rounded up to even sizes.
    if (width + 1 > maxTextureSize || height + 1 > maxTextureSize) {
        throw GlError("the HistoPyramid of a " + dimsText(dims) + " volume would need a base "
                      "level of " + std::to_string(width) + " x " + std::to_string(height) +
                      " texels, larger than this GPU's GL_MAX_TEXTURE_SIZE of " +
                      std::to_string(maxTextureSize) +
                      " (volumes this large need bricking, which is not implemented yet)");
    }
    layout.baseExtent = {std::uint32_t(width), std::uint32_t(height)};
    layout.levelCount = 1 + std::uint32_t(std::bit_width(std::max(width, height) - 1));
    layout.levelCount = std::max(layout.levelCount, 2u);
    return layout;
}

} // namespace isoview
