// How a volume too large for one flat-3D texture is cut into bricks: slabs of whole slices,
// each its own texture and pyramid. Neighbouring slabs share one slice (the cells are split
// between them, every cell in exactly one slab), and each texture carries one more slice beyond
// its slab on either side where the volume has one, so that central-difference normals at a
// slab's faces are those of the whole volume: the bricked surface is the unbricked one.
//
// Pure arithmetic, no GL.
#pragma once

#include <glm/glm.hpp>

#include <cstdint>
#include <vector>

namespace isoview {

struct BrickSlab {
    std::uint32_t first = 0; // the slab's slices first..last: its cells' corners
    std::uint32_t last = 0;
    std::uint32_t textureFirst = 0; // the slices its texture holds (the slab plus margins)
    std::uint32_t textureLast = 0;
};

// Slices of W x H that one flat-3D texture of maxTextureSize texels a side holds.
std::uint32_t slicesPerTexture(glm::uvec3 dims, std::uint32_t maxTextureSize);

// One slab for a volume that fits one texture; else as few slabs as the texture allows. Throws
// GlError when not even four slices fit one texture (slices this large cannot be bricked
// along z).
std::vector<BrickSlab> planBricks(glm::uvec3 dims, std::uint32_t maxTextureSize);

} // namespace isoview
