// The vec4 HistoPyramid of Dyken, Ziegler, Theobalt and Seidel, rebuilt on the GPU for every
// isovalue, over the blocked cell layout of src/extraction/pyramid_layout.h.
//
// Level 0 (the base) holds every cell's marching-cubes case, 2 x 2 cells of one slice per texel
// (one per RGBA channel); a cell's vertex count is a lookup of its case (the paper caches the
// case beside the count). Level l+1 halves level l: channel c of a texel holds the total of its
// child texel c. Level 3 has one texel per block of 8 x 8 x 4 cells, and the 1 x 1 top level's
// four channels add up to the number of vertices of the whole isosurface.
//
// Block skipping: a build classifies and reduces only the blocks the isovalue can cross (their
// value ranges straddle it), one instanced quad per block, and clears the block level so every
// other block counts zero there; levels above it are reduced whole. On real scans, where most
// of the box is air, that is a few percent of the cells. Traversal never descends into a block
// that counts zero, so what earlier isovalues left below it is never read.
//
// Compact integer levels: counts grow by 4x per level, so each level uses the narrowest
// unsigned format that holds 15 * 4^l: the base RGBA8UI (cases), levels 1-2 RGBA8UI, 3-6
// RGBA16UI, 7+ RGBA32UI. Levels of one format are the mip levels of one texture, so traversal
// needs four samplers whatever the pyramid's height.
//
// GL side effects of build(): binds its framebuffers, programs, vertex arrays, the array buffer
// and the transform-feedback buffer, enables GL_RASTERIZER_DISCARD for the count pass, and
// restores them; it also binds texture units kHpBase..kReduceSource, which the caller restores
// (the extractor wraps every pass in ScopedTextureUnits). No CPU wait. readVertexCount() waits
// for the GPU.
#pragma once

#include "extraction/pyramid_layout.h"
#include "gpu/gl_objects.h"
#include "gpu/shader_program.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace isoview::gl {

inline constexpr int kFirst16BitLevel = 3;
inline constexpr int kFirst32BitLevel = 7;
// Levels a pyramid may have: a base of up to 32768 texels a side (the traversal is unrolled up
// to it).
inline constexpr std::uint32_t kMaxPyramidLevels = 16;

struct HistoPyramidPrograms {
    const ShaderProgram& classify;     // writes level 0 per block (hp_base_level.frag)
    const ShaderProgram& reduceBlocks; // writes levels 1..3 per block (hp_reduce.frag)
    const ShaderProgram& reduce;       // writes level l+1 from level l (hp_reduce.frag)
    const ShaderProgram& count; // writes the indirect draw command (hp_indirect_count.vert)
};

class HistoPyramid {
public:
    // Allocates every level and its framebuffer. Throws GlError when the driver rejects them.
    explicit HistoPyramid(const PyramidLayout& layout);

    const PyramidLayout& layout() const { return m_layout; }

    // Runs classify, the reductions and the count pass, classifying only the listed blocks
    // (PyramidLayout::blockIndex numbers; the others hold no crossing at this isovalue, which
    // the caller knows from BlockRanges). The caller has bound the volume and case-table
    // textures to units::kVolume and units::kCaseTable and set the programs' uniforms
    // (isovalue, layout). Uploads the block list (4 bytes a block); no CPU wait.
    void build(const HistoPyramidPrograms& programs, GLuint emptyVertexArray,
               std::span<const std::uint32_t> activeBlocks);

    // Binds the four level textures to units kHpBase..kHp32 (for traversal). The caller
    // restores the units (ScopedTextureUnits).
    void bindLevelTextures() const;

    // The buffer holding {count, 1, 0, 0}: a DrawArraysIndirectCommand written by build().
    GLuint countBuffer() const { return m_countBuffer.id(); }

    // A complete framebuffer to bind around draws that rasterise nothing (transform-feedback
    // capture): GL rejects draws into an incomplete framebuffer even then, and a surfaceless
    // context has no default framebuffer.
    GLuint framebufferForDiscardedDraws() const { return m_framebuffers.back().id(); }

    // The vertex count of the last build, read back from the count buffer. Waits for the GPU.
    std::uint32_t readVertexCount() const;

    // The vertex count of the last build once the GPU has produced it, else nullopt; never
    // waits (build() copies the count aside behind a fence). For per-frame statistics.
    std::optional<std::uint32_t> pollVertexCount() const;

    // The texels of one level within its extent, row by row (for tests and debugging). Waits
    // for the GPU.
    std::vector<glm::uvec4> readLevel(std::uint32_t level) const;

    // GPU memory of all levels, in bytes.
    std::size_t bytes() const { return m_bytes; }

private:
    struct LevelStorage {
        const Texture* texture;
        GLint mip;
    };
    LevelStorage storageOf(std::uint32_t level) const;
    void setSampledMipRange(const Texture& texture, GLint first, GLint last) const;

    PyramidLayout m_layout;
    Texture m_base;
    Texture m_levels8;
    Texture m_levels16;
    Texture m_levels32;
    GLint m_mips8 = 0;
    GLint m_mips16 = 0;
    GLint m_mips32 = 0;
    std::vector<Framebuffer> m_framebuffers; // one per level
    Buffer m_countBuffer;
    Buffer m_countCopy; // the count copied aside for pollVertexCount()
    Buffer m_activeBlocks = Buffer::create();          // the blocks the last build classified
    VertexArray m_blockVertexArray = VertexArray::create(); // m_activeBlocks as attribute 0
    SyncFence m_countReady;
    std::size_t m_bytes = 0;
};

} // namespace isoview::gl
