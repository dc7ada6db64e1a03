// The vec4 HistoPyramid of Dyken, Ziegler, Theobalt and Seidel, rebuilt on the GPU for every
// isovalue, over the blocked cell layout of src/extraction/pyramid_layout.h, together with its
// twin, the vertex pyramid, which enumerates the welded vertices (each crossed grid edge once).
//
// Level 0 (the base, shared by both) holds every cell's marching-cubes case, 2 x 2 cells of one
// slice per texel (one per RGBA channel); a cell's triangle vertex count is a lookup of its case
// (the paper caches the case beside the count), its welded vertex count the number of crossed
// edges it owns (extraction/edge_ownership.h). Level l+1 halves level l: channel c of a texel
// holds the total of its child texel c. Level 3 has one texel per block of 8 x 8 x 4 cells; the
// 1 x 1 top levels count the triangle vertices and the welded vertices of the whole surface.
// One pass reduces both pyramids (two render targets). On OpenGL 4.3 compute dispatches do it all
// instead: one classifies the active blocks and writes their levels 1 to 3, then one per level
// above.
//
// Block skipping: a build classifies and reduces only the blocks the isovalue can cross (their
// value ranges straddle it), one instanced quad per block, and clears the block level so every
// other block counts zero there; levels above it are reduced whole. On real scans, where most
// of the box is air, that is a few percent of the cells. Traversal never descends into a block
// that counts zero, and a crossed edge's owner is a crossed cell, so what earlier isovalues left
// below it is never read.
//
// Compact integer levels: counts grow by 4x per level, so each level uses the narrowest
// unsigned format that holds 15 * 4^l: the base RGBA8UI (cases; RGBA16UI cell codes for label
// maps, whose cells count at most 8 triangles), levels 1-2 RGBA8UI, 3-6 RGBA16UI, 7+ RGBA32UI.
// The triangle pyramid stores no level 1 (kFirstStoredTriangleLevel): 1.48 bytes per cell for
// both pyramids instead of 1.73. Levels of one format are the mip levels of one texture, so
// traversal needs four samplers per pyramid whatever its height.
//
// GL side effects of build() and writeRecord(): bind their framebuffers, programs, vertex
// arrays, the array buffer and the transform-feedback buffer, enable GL_RASTERIZER_DISCARD for
// the record pass, and restore them; they also bind texture units kHpBase..kVertexReduceSource,
// which the caller restores (the extractor wraps every pass in ScopedTextureUnits). No CPU wait.
// readRecord() waits for the GPU.
#pragma once

#include "extraction/pyramid_layout.h"
#include "gpu/gl_objects.h"
#include "gpu/shader_program.h"
#include "gpu/texel_buffer_view.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace isoview::gpu {

inline constexpr int kFirst16BitLevel = 3;
inline constexpr int kFirst32BitLevel = 7;
// Level 1 of the triangle pyramid is not stored: a level-1 texel's four counts are the keys of
// four base texels, which traversal sums from their cases (common/histopyramid_traverse.glsl).
// That saves a quarter byte per cell; the vertex pyramid, whose counts per cell take more work,
// keeps its level 1.
inline constexpr std::uint32_t kFirstStoredTriangleLevel = 2;
// Levels a pyramid may have: a base of up to 32768 texels a side (the traversal is unrolled up
// to it).
inline constexpr std::uint32_t kMaxPyramidLevels = 16;

struct HistoPyramidPrograms {
    const ShaderProgram& classify;     // writes level 0 per block (hp_base_level.frag)
    const ShaderProgram& reduceBlocks; // writes levels 1..3 per block (hp_reduce.frag)
    const ShaderProgram& reduce;       // writes level l+1 from level l (hp_reduce.frag)
    // OpenGL 4.3: one dispatch that classifies the active blocks and writes their levels 1..3
    // (hp_classify_blocks.comp) instead; null on the 3.3 path.
    const ShaderProgram* classifyCompute = nullptr;
    // OpenGL 4.3: level l+1 from level l above the block level (hp_reduce_level.comp), writing
    // 16-bit and 32-bit levels; null on the 3.3 path.
    const ShaderProgram* reduceLevel16Compute = nullptr;
    const ShaderProgram* reduceLevel32Compute = nullptr;
};

class HistoPyramid {
public:
    // Allocates every level and its framebuffer. Throws GpuMemoryError (gl_loader.h) when the
    // driver is out of memory for them, GlError when it rejects them otherwise.
    // `wideBase`: the base level is RGBA16UI instead of RGBA8UI, for label maps, whose cell
    // codes take 16 bits (common/marching_cubes_cell.glsl).
    explicit HistoPyramid(const PyramidLayout& layout, bool wideBase = false);

    const PyramidLayout& layout() const { return m_layout; }

    // Runs classify and the reductions of both pyramids, classifying only the listed blocks
    // (PyramidLayout::blockIndex numbers; the others hold no crossing at this isovalue, which
    // the caller knows from BlockRanges). The caller has bound the volume texture to
    // units::kVolume (the case tables are shader constants) and set the programs' uniforms
    // (isovalue, layout). Uploads the block list (4 bytes a block); no CPU wait.
    void build(const HistoPyramidPrograms& programs, GLuint emptyVertexArray,
               std::span<const std::uint32_t> activeBlocks);

    // Sums both top levels into the extraction record (gpu/extraction_record.h) with the
    // record program (extraction_record.vert, whose capacity uniforms the caller set), and
    // copies the counts aside behind a fence for pollCounts(). Run after build(), and again
    // after the mesh buffers grew.
    void writeRecord(const ShaderProgram& recordProgram, GLuint emptyVertexArray);
    // Copies the record aside behind a fence, so statistics can read it later without a stall
    // (writeRecord() does; the compute path calls it after its own pass wrote the record).
    void copyRecordAside();

    // Binds the level textures of both pyramids to units kHpBase..kHp32 and kVp8..kVp32 (for
    // traversal and rank queries). The caller restores the units (ScopedTextureUnits).
    void bindLevelTextures() const;

    // The extraction record (writeRecord(), or block_starts.comp on the compute path): draw
    // command and counts.
    GLuint recordBuffer() const { return m_record.id(); }

    // The blocks the last build classified (uint each), and room for a uint per block of the
    // layout: the compute path stores each active block's place in that list there.
    GLuint activeBlocksBuffer() const { return m_activeBlocks.id(); }
    GLuint blockSlotsBuffer() const { return m_blockSlots.id(); }
    // The slots as a buffer texture, which the compute index pass reads (units::kBlockSlots);
    // made on the first call (the 3.3 path never asks). Throws GlError when the driver's texel
    // buffers are too small for the layout's blocks.
    GLuint blockSlotsTexels();

    // A complete framebuffer to bind around draws that rasterise nothing (transform-feedback
    // capture): GL rejects draws into an incomplete framebuffer even then, and a surfaceless
    // context has no default framebuffer.
    GLuint framebufferForDiscardedDraws() const { return m_framebuffers.back().id(); }

    struct Counts {
        std::uint32_t indices = 0;  // triangle corners: 3 x triangles
        std::uint32_t vertices = 0; // welded vertices
    };
    // The counts of the last writeRecord(), read back. Waits for the GPU.
    Counts readCounts() const;

    // The same once the GPU has produced them, else nullopt; never waits. For per-frame
    // statistics and for sizing the mesh buffers ahead.
    std::optional<Counts> pollCounts() const;

    // The texels of one level within its extent, row by row (for tests and debugging): of the
    // triangle pyramid (level 1 summed here from the base, as traversal does), or of the vertex
    // pyramid (levels >= 1). Waits for the GPU.
    std::vector<glm::uvec4> readLevel(std::uint32_t level) const;
    std::vector<glm::uvec4> readVertexLevel(std::uint32_t level) const;

    // GPU memory of all levels, in bytes.
    std::size_t bytes() const { return m_bytes; }

private:
    struct LevelStorage {
        const Texture* texture;
        GLint mip;
    };
    LevelStorage storageOf(std::uint32_t level) const;
    // Levels 0 to the block level of the active blocks by hp_classify_blocks.comp, after clearing
    // the block level.
    void buildBlocksByCompute(const ShaderProgram& program, GLsizei activeBlockCount);
    // Level `level` (above the block level) of both pyramids by hp_reduce_level.comp.
    void reduceLevelByCompute(const ShaderProgram& program, std::uint32_t level);
    // One invocation per active block of `program`, the block list at storage binding 3.
    void dispatchPerActiveBlock(const ShaderProgram& program, GLsizei activeBlockCount) const;
    LevelStorage vertexStorageOf(std::uint32_t level) const;
    void setSampledMipRange(const Texture& texture, GLint first, GLint last) const;
    void sampleAllMips() const;
    std::vector<glm::uvec4> readAttachment(std::uint32_t level, GLenum attachment) const;

    PyramidLayout m_layout;
    GLenum m_baseFormat = GL_RGBA8UI;
    Texture m_base;
    Texture m_levels8; // from level 2 (kFirstStoredTriangleLevel)
    Texture m_levels16;
    Texture m_levels32;
    Texture m_vertexLevels8; // the vertex pyramid's levels 1.., same sizes and formats
    Texture m_vertexLevels16;
    Texture m_vertexLevels32;
    GLint m_mips8 = 0; // levels 1.. in 8 bits (the triangle pyramid stores one fewer)
    GLint m_mips16 = 0;
    GLint m_mips32 = 0;
    std::vector<Framebuffer> m_framebuffers; // one per level (both pyramids from level 1)
    Buffer m_record;
    Buffer m_recordCopy;                      // the counts copied aside for pollCounts()
    Buffer m_activeBlocks = Buffer::create(); // the blocks the last build classified
    VertexArray m_blockVertexArray = VertexArray::create(); // m_activeBlocks as attribute 0
    Buffer m_blockSlots = Buffer::create();
    TexelBufferView m_blockSlotTexels;
    SyncFence m_recordReady;
    std::size_t m_bytes = 0;
};

} // namespace isoview::gpu
