#include "extraction/flat3d_layout.h"

#include "core/error.h"

#include <algorithm>
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
        throw GlError("a " + dimsText(dims) +
                      " volume has slices larger than this GPU's "
                      "GL_MAX_TEXTURE_SIZE of " +
                      std::to_string(maxTextureSize) + " texels");
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
        throw GlError("a " + dimsText(dims) +
                      " volume does not fit one flat-3D texture: it needs "
                      "about " +
                      std::to_string(std::uint64_t(side)) + " x " +
                      std::to_string(std::uint64_t(side)) +
                      " texels, more than this GPU's "
                      "GL_MAX_TEXTURE_SIZE of " +
                      std::to_string(maxTextureSize));
    }
    return layout;
}

} // namespace isoview
