#include "extraction/brick_plan.h"

#include "core/error.h"

#include <algorithm>
#include <string>

namespace isoview {

std::uint32_t slicesPerTexture(glm::uvec3 dims, std::uint32_t maxTextureSize)
{
    if (dims.x == 0 || dims.y == 0) return 0;
    return (maxTextureSize / dims.x) * (maxTextureSize / dims.y);
}

std::vector<BrickSlab> planBricks(glm::uvec3 dims, std::uint32_t maxTextureSize)
{
    const std::uint32_t capacity = slicesPerTexture(dims, maxTextureSize);
    if (dims.z <= capacity) return {{0, dims.z - 1, 0, dims.z - 1}};
    if (capacity < 4) {
        throw GlError("slices of " + std::to_string(dims.x) + " x " + std::to_string(dims.y) +
                      " voxels are too large to brick with GL_MAX_TEXTURE_SIZE " +
                      std::to_string(maxTextureSize) + " (fewer than four fit one texture)");
    }
    // A slab of `span` slices plus a margin slice on each side fills a texture.
    const std::uint32_t span = capacity - 2;
    std::vector<BrickSlab> slabs;
    std::uint32_t first = 0;
    while (true) {
        const std::uint32_t last = std::min(first + span - 1, dims.z - 1);
        slabs.push_back({first, last, first > 0 ? first - 1 : 0, std::min(last + 1, dims.z - 1)});
        if (last == dims.z - 1) break;
        first = last; // the shared slice
    }
    return slabs;
}

} // namespace isoview
