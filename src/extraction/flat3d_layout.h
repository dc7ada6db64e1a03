// The flat-3D layout of the volume texture: D tiles of W x H voxels in one 2D texture,
// tilesPerRow tiles to a row (slice z sits in tile (z % tilesPerRow, z / tilesPerRow)). The
// HistoPyramid's own layout of cells is in pyramid_layout.h.
//
// Pure arithmetic (no GL) so the CPU reference, the tests and the shaders agree on it; the
// shaders receive the numbers as uniforms.
#pragma once

#include <glm/glm.hpp>

#include <cstdint>

namespace isoview {

struct Flat3DLayout {
    glm::uvec2 tileSize{0, 0};   // one slice: W x H
    std::uint32_t tileCount = 0; // D
    std::uint32_t tilesPerRow = 0;
    std::uint32_t tileRows = 0;

    glm::uvec2 textureSize() const { return {tilesPerRow * tileSize.x, tileRows * tileSize.y}; }
    // Texel of grid point (x, y, z).
    glm::uvec2 texelOf(glm::uvec3 p) const
    {
        return {(p.z % tilesPerRow) * tileSize.x + p.x, (p.z / tilesPerRow) * tileSize.y + p.y};
    }

    // A near-square tiling of dims that fits maxTextureSize. Throws GlError naming the limit
    // (and the size that would have been needed) when no tiling fits.
    static Flat3DLayout forVolume(glm::uvec3 dims, std::uint32_t maxTextureSize);
};

} // namespace isoview
