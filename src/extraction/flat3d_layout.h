// Flat-3D layouts: how a 3D grid is laid out as tiles in one 2D texture.
//
// The volume texture holds D tiles of W x H voxels, tilesPerRow tiles to a row (slice z sits in
// tile (z % tilesPerRow, z / tilesPerRow)). The HistoPyramid base level uses the same idea for
// the (W-1) x (H-1) x (D-1) marching-cubes cells: each base texel covers 2 x 2 cells of this
// flat cell grid (one RGBA channel each), and every level above halves the one below.
//
// Both layouts are pure arithmetic (no GL) so the CPU reference, the tests and the shaders
// agree on them; the shaders receive the numbers as uniforms.
#pragma once

#include <glm/glm.hpp>

#include <cstdint>

namespace isoview {

struct Flat3DLayout {
    glm::uvec2 tileSize{0, 0};  // one slice: W x H
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

struct PyramidLayout {
    glm::uvec3 cellCount{0, 0, 0};     // (W-1) x (H-1) x (D-1); zero when a dimension is 1
    std::uint32_t cellTilesPerRow = 0; // cell tiles (W-1) x (H-1) per row of the flat cell grid
    glm::uvec2 baseExtent{0, 0};       // texels of level 0 that hold cells (2 x 2 cells each)
    std::uint32_t levelCount = 0;      // level levelCount-1 is 1 x 1; at least 2 levels

    bool empty() const { return levelCount == 0; }
    std::uint64_t cells() const { return std::uint64_t(cellCount.x) * cellCount.y * cellCount.z; }
    // Texels in use at a level: the base extent halved (rounding up) once per level. Only these
    // are ever written or traversed; the plain scheme's square power-of-two base is not needed,
    // because traversal only descends into children with a non-zero count.
    glm::uvec2 levelExtent(std::uint32_t level) const
    {
        const std::uint32_t round = (1u << level) - 1u;
        return {(baseExtent.x + round) >> level, (baseExtent.y + round) >> level};
    }

    // A near-square flat cell grid holding every cell of a volume of these dimensions. Throws
    // GlError naming GL_MAX_TEXTURE_SIZE when its base level would exceed it. A volume with a
    // dimension of 1 has no cells: an empty layout.
    static PyramidLayout forVolume(glm::uvec3 dims, std::uint32_t maxTextureSize);
};

} // namespace isoview
