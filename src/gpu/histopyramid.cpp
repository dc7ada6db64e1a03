#include "gpu/histopyramid.h"

#include "core/error.h"
#include "extraction/marching_cubes_tables.h"
#include "gpu/extraction_record.h"
#include "gpu/gl_loader.h"
#include "gpu/gl_state.h"
#include "gpu/texture_units.h"

#include <algorithm>
#include <array>
#include <string>
#include <utility>

namespace isoview::gpu {
namespace {

// Allocates `mips` levels of an RGBA integer texture whose mip 0 is `size` texels; returns the
// bytes allocated.
std::size_t allocateLevels(const Texture& texture, GLint internalFormat, GLenum type,
                           glm::uvec2 size, GLint mips, std::size_t texelBytes, const char* label)
{
    std::size_t bytes = 0;
    glBindTexture(GL_TEXTURE_2D, texture.id());
    texture.label(label);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST_MIPMAP_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_BASE_LEVEL, 0);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, mips - 1);
    for (GLint mip = 0; mip < mips; ++mip) {
        const GLsizei w = GLsizei(std::max(1u, size.x >> mip));
        const GLsizei h = GLsizei(std::max(1u, size.y >> mip));
        glTexImage2D(GL_TEXTURE_2D, mip, internalFormat, w, h, 0, GL_RGBA_INTEGER, type, nullptr);
        bytes += std::size_t(w) * std::size_t(h) * texelBytes;
    }
    return bytes;
}

// Mip 0 size of a texture holding `mips` consecutive levels starting at one of extent `first`:
// rounded up to a multiple of 2^mips, so every mip is exactly half the one below and each level
// is at least its extent rounded up to even, which the reduction above it reads in full.
glm::uvec2 chainSize(glm::uvec2 first, GLint mips)
{
    const std::uint32_t step = 1u << mips;
    return {(first.x + step - 1) / step * step, (first.y + step - 1) / step * step};
}

} // namespace

HistoPyramid::HistoPyramid(const PyramidLayout& layout, bool wideBase)
    : m_layout(layout), m_baseFormat(wideBase ? GL_RGBA16UI : GL_RGBA8UI)
{
    if (layout.empty()) throw GlError("a HistoPyramid needs at least one cell");
    if (layout.levelCount > kMaxPyramidLevels) {
        throw GlError("a HistoPyramid of " + std::to_string(layout.levelCount) +
                      " levels is more than the traversal handles (" +
                      std::to_string(kMaxPyramidLevels) + ")");
    }
    const std::uint32_t top = layout.levelCount - 1;
    m_mips8 = GLint(std::min<std::uint32_t>(top, kFirst16BitLevel - 1));
    m_mips16 = top >= kFirst16BitLevel ? GLint(std::min<std::uint32_t>(top, kFirst32BitLevel - 1)) -
                                             kFirst16BitLevel + 1
                                       : 0;
    m_mips32 = top >= kFirst32BitLevel ? GLint(top) - kFirst32BitLevel + 1 : 0;

    // allocateLevels binds each texture in turn; the caller's binding comes back at the end.
    std::optional<ScopedTextureBinding> restoreTexture(std::in_place, 0);
    m_base = Texture::create();
    m_bytes += allocateLevels(
        m_base, GLint(m_baseFormat), wideBase ? GL_UNSIGNED_SHORT : GL_UNSIGNED_BYTE,
        chainSize(layout.levelExtent(0), 1), 1, wideBase ? 8 : 4, "histopyramid level 0");
    // Levels 1.. of one pyramid: a texture per count format. The vertex pyramid's levels have
    // the same extents and formats (a cell owns at most 12 edges, fewer than its up to 15
    // triangle vertices, so every count fits where the triangle count does). The triangle
    // pyramid's 8-bit levels start at level 2 (kFirstStoredTriangleLevel).
    const auto allocateChains = [&](Texture& levels8, Texture& levels16, Texture& levels32,
                                    std::uint32_t first8, const std::string& name) {
        levels8 = Texture::create();
        const GLint mips8 = m_mips8 - GLint(first8 - 1);
        m_bytes += allocateLevels(levels8, GL_RGBA8UI, GL_UNSIGNED_BYTE,
                                  chainSize(layout.levelExtent(first8), mips8), mips8, 4,
                                  (name + " 8-bit levels").c_str());
        if (m_mips16 > 0) {
            levels16 = Texture::create();
            m_bytes += allocateLevels(levels16, GL_RGBA16UI, GL_UNSIGNED_SHORT,
                                      chainSize(layout.levelExtent(kFirst16BitLevel), m_mips16),
                                      m_mips16, 8, (name + " 16-bit levels").c_str());
        }
        if (m_mips32 > 0) {
            levels32 = Texture::create();
            m_bytes += allocateLevels(levels32, GL_RGBA32UI, GL_UNSIGNED_INT,
                                      chainSize(layout.levelExtent(kFirst32BitLevel), m_mips32),
                                      m_mips32, 16, (name + " 32-bit levels").c_str());
        }
    };
    allocateChains(m_levels8, m_levels16, m_levels32, kFirstStoredTriangleLevel, "histopyramid");
    allocateChains(m_vertexLevels8, m_vertexLevels16, m_vertexLevels32, 1, "vertex pyramid");
    restoreTexture.reset();
    // Out of memory shows here, not as an incomplete framebuffer below.
    throwOnGlAllocationError("the HistoPyramid levels", m_bytes);

    {
        // The zero fill below is a clear: scissor and colour mask must let it reach every texel.
        ScopedFramebuffer restore(0);
        ScopedCapability noScissor(GL_SCISSOR_TEST, false);
        ScopedColorMask allChannels(true, true, true, true);
        for (std::uint32_t level = 0; level < layout.levelCount; ++level) {
            Framebuffer fb = Framebuffer::create();
            const bool storesTriangles = level != 1;
            glBindFramebuffer(GL_FRAMEBUFFER, fb.id());
            if (storesTriangles) {
                const LevelStorage s = storageOf(level);
                glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D,
                                       s.texture->id(), s.mip);
            }
            // Above the shared base, each level's pass writes both pyramids; level 1 only the
            // vertex pyramid (the triangle counts its pass also computes go nowhere).
            if (level > 0) {
                const LevelStorage v = vertexStorageOf(level);
                glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT1, GL_TEXTURE_2D,
                                       v.texture->id(), v.mip);
                const std::array<GLenum, 2> targets{storesTriangles ? GLenum(GL_COLOR_ATTACHMENT0)
                                                                    : GLenum(GL_NONE),
                                                    GL_COLOR_ATTACHMENT1};
                glDrawBuffers(GLsizei(targets.size()), targets.data());
                glReadBuffer(GL_COLOR_ATTACHMENT1);
            }
            const GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
            if (status != GL_FRAMEBUFFER_COMPLETE) {
                throw GlError("HistoPyramid level " + std::to_string(level) +
                              " cannot be rendered to (framebuffer status " +
                              std::to_string(status) + ")");
            }
            // Texels beyond a level's extent are read by the reduction above but never
            // written: they must hold zero counts.
            const GLuint zero[4] = {0, 0, 0, 0};
            if (storesTriangles) glClearBufferuiv(GL_COLOR, 0, zero);
            if (level > 0) glClearBufferuiv(GL_COLOR, 1, zero);
            m_framebuffers.push_back(std::move(fb));
        }
    }

    m_record = Buffer::create();
    {
        ScopedBufferBinding bind(GL_ARRAY_BUFFER, m_record.id());
        m_record.label("extraction record");
        const std::array<std::uint32_t, record::kUints> zero{};
        glBufferData(GL_ARRAY_BUFFER, record::kBytes, zero.data(), GL_DYNAMIC_COPY);
    }
    {
        ScopedBufferBinding bind(GL_ARRAY_BUFFER, m_blockSlots.id());
        m_blockSlots.label("slot of each active block");
        glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(std::size_t(layout.blockTotal()) * 4), nullptr,
                     GL_DYNAMIC_COPY);
        m_bytes += std::size_t(layout.blockTotal()) * 4;
    }
    m_recordCopy = Buffer::create();
    {
        ScopedBufferBinding bind(GL_ARRAY_BUFFER, m_recordCopy.id());
        m_recordCopy.label("extraction counts for polling");
        glBufferData(GL_ARRAY_BUFFER, record::kBytes, nullptr, GL_STREAM_READ);
    }
    // The block-limited passes draw one instance per active block; attribute 0 is its index.
    {
        ScopedVertexArray vao(m_blockVertexArray.id());
        ScopedBufferBinding bind(GL_ARRAY_BUFFER, m_activeBlocks.id());
        m_activeBlocks.label("histopyramid active blocks");
        glBufferData(GL_ARRAY_BUFFER, sizeof(std::uint32_t), nullptr, GL_STREAM_DRAW);
        glEnableVertexAttribArray(0);
        glVertexAttribIPointer(0, 1, GL_UNSIGNED_INT, sizeof(std::uint32_t), nullptr);
        glVertexAttribDivisor(0, 1);
    }
    throwOnGlAllocationError("the HistoPyramid buffers",
                             2 * record::kBytes + std::size_t(layout.blockTotal()) * 4);
}

GLuint HistoPyramid::blockSlotsTexels()
{
    if (!m_blockSlotTexels.id()) {
        m_blockSlotTexels.attach(m_blockSlots.id(), GL_R32UI, m_layout.blockTotal(),
                                 "slot of each active block");
    }
    return m_blockSlotTexels.id();
}

HistoPyramid::LevelStorage HistoPyramid::storageOf(std::uint32_t level) const
{
    if (level == 0) return {&m_base, 0};
    if (level < kFirstStoredTriangleLevel) {
        throw GlError("level " + std::to_string(level) +
                      " of the triangle pyramid is not stored (traversal sums it from the base)");
    }
    if (level < std::uint32_t(kFirst16BitLevel)) {
        return {&m_levels8, GLint(level - kFirstStoredTriangleLevel)};
    }
    if (level < std::uint32_t(kFirst32BitLevel)) {
        return {&m_levels16, GLint(level) - kFirst16BitLevel};
    }
    return {&m_levels32, GLint(level) - kFirst32BitLevel};
}

HistoPyramid::LevelStorage HistoPyramid::vertexStorageOf(std::uint32_t level) const
{
    if (level == 0) return {&m_base, 0}; // shared
    if (level < std::uint32_t(kFirst16BitLevel)) return {&m_vertexLevels8, GLint(level) - 1};
    if (level < std::uint32_t(kFirst32BitLevel)) {
        return {&m_vertexLevels16, GLint(level) - kFirst16BitLevel};
    }
    return {&m_vertexLevels32, GLint(level) - kFirst32BitLevel};
}

void HistoPyramid::setSampledMipRange(const Texture& texture, GLint first, GLint last) const
{
    glBindTexture(GL_TEXTURE_2D, texture.id());
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_BASE_LEVEL, first);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, last);
}

void HistoPyramid::bindLevelTextures() const
{
    const std::array<std::pair<int, GLuint>, 7> bindings{{
        {units::kHpBase, m_base.id()},
        {units::kHp8, m_levels8.id()},
        {units::kHp16, m_levels16.id()},
        {units::kHp32, m_levels32.id()},
        {units::kVp8, m_vertexLevels8.id()},
        {units::kVp16, m_vertexLevels16.id()},
        {units::kVp32, m_vertexLevels32.id()},
    }};
    for (const auto& [unit, texture] : bindings) {
        glActiveTexture(GLenum(GL_TEXTURE0 + unit));
        glBindTexture(GL_TEXTURE_2D, texture);
    }
}

void HistoPyramid::sampleAllMips() const
{
    setSampledMipRange(m_levels8, 0, m_mips8 - GLint(kFirstStoredTriangleLevel));
    setSampledMipRange(m_vertexLevels8, 0, m_mips8 - 1);
    if (m_mips16 > 0) {
        setSampledMipRange(m_levels16, 0, m_mips16 - 1);
        setSampledMipRange(m_vertexLevels16, 0, m_mips16 - 1);
    }
    if (m_mips32 > 0) {
        setSampledMipRange(m_levels32, 0, m_mips32 - 1);
        setSampledMipRange(m_vertexLevels32, 0, m_mips32 - 1);
    }
}

void HistoPyramid::build(const HistoPyramidPrograms& programs, GLuint emptyVertexArray,
                         std::span<const std::uint32_t> activeBlocks)
{
    ScopedVertexArray vao(emptyVertexArray);
    ScopedFramebuffer framebuffer(m_framebuffers[0].id());
    const glm::uvec2 base = m_layout.levelExtent(0);
    ScopedViewport viewport(0, 0, GLsizei(base.x), GLsizei(base.y));
    ScopedCapability noDepth(GL_DEPTH_TEST, false);
    ScopedCapability noBlend(GL_BLEND, false);
    ScopedCapability noCull(GL_CULL_FACE, false);
    ScopedCapability noScissor(GL_SCISSOR_TEST, false);
    ScopedColorMask allChannels(true, true, true, true); // every channel holds counts
    const auto instances = GLsizei(activeBlocks.size());
    if (instances > 0) {
        ScopedBufferBinding bind(GL_ARRAY_BUFFER, m_activeBlocks.id());
        // Orphan and refill: the previous build may still be reading the old list.
        glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(activeBlocks.size_bytes()), activeBlocks.data(),
                     GL_STREAM_DRAW);
    }
    // u_blocksPerRow is a layout uniform, set once per volume by the extractor.
    const auto setBlockQuad = [&](const ShaderProgram& p, std::uint32_t level) {
        const glm::uvec2 extent = m_layout.levelExtent(level);
        glUniform1i(p.uniform("u_blockSide"), GLint(PyramidLayout::kBlockTexels >> level));
        glUniform2f(p.uniform("u_targetExtent"), float(extent.x), float(extent.y));
    };

    // Pass 1: classify the cells of the active blocks into the base level. Texels of the other
    // blocks keep whatever an earlier isovalue left: the block level above says they hold
    // nothing, so traversal never reads them.
    if (programs.classifyCompute != nullptr) {
        buildBlocksByCompute(*programs.classifyCompute, instances); // levels 0 to 3
    } else if (instances > 0) {
        ScopedProgram program(programs.classify.id());
        ScopedVertexArray blocks(m_blockVertexArray.id());
        setBlockQuad(programs.classify, 0);
        glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, instances);
    }

    // Pass 2..n: reduce level l into level l+1. The source level is made the only sampled mip
    // of its texture while the next level (possibly a mip of the same texture) is rendered. Up
    // to the block level only the active blocks are reduced; the block level is cleared first,
    // so every other block counts zero there; above it the whole level is reduced.
    for (std::uint32_t level = 1; level < m_layout.levelCount; ++level) {
        if (programs.reduceLevel16Compute != nullptr) {
            if (level <= PyramidLayout::kBlockLevel) continue; // buildBlocksByCompute wrote it
            reduceLevelByCompute(level < std::uint32_t(kFirst32BitLevel)
                                     ? *programs.reduceLevel16Compute
                                     : *programs.reduceLevel32Compute,
                                 level);
            continue;
        }
        // Level 2's triangle counts come from the base: level 1 of the triangle pyramid is not
        // stored (its pass writes the vertex pyramid only).
        const bool trianglesFromBase = level == kFirstStoredTriangleLevel;
        const LevelStorage source =
            storageOf(level - 1 < kFirstStoredTriangleLevel ? 0 : level - 1);
        glActiveTexture(GL_TEXTURE0 + units::kReduceSource);
        setSampledMipRange(*source.texture, source.mip, source.mip);
        glActiveTexture(GL_TEXTURE0 + units::kVertexReduceSource);
        if (level > 1) {
            const LevelStorage vertexSource = vertexStorageOf(level - 1);
            setSampledMipRange(*vertexSource.texture, vertexSource.mip, vertexSource.mip);
        } else {
            glBindTexture(GL_TEXTURE_2D, 0); // from the base, vertex counts come from the cases
        }
        glBindFramebuffer(GL_FRAMEBUFFER, m_framebuffers[level].id());
        const glm::uvec2 extent = m_layout.levelExtent(level);
        glViewport(0, 0, GLsizei(extent.x), GLsizei(extent.y));
        if (level <= PyramidLayout::kBlockLevel) {
            if (level == PyramidLayout::kBlockLevel) {
                const GLuint zero[4] = {0, 0, 0, 0};
                glClearBufferuiv(GL_COLOR, 0, zero);
                glClearBufferuiv(GL_COLOR, 1, zero);
            }
            if (instances == 0) continue;
            ScopedProgram program(programs.reduceBlocks.id());
            ScopedVertexArray blocks(m_blockVertexArray.id());
            setBlockQuad(programs.reduceBlocks, level);
            glUniform1i(programs.reduceBlocks.uniform("u_sourceIsBase"), level == 1 ? 1 : 0);
            glUniform1i(programs.reduceBlocks.uniform("u_trianglesFromBase"),
                        trianglesFromBase ? 1 : 0);
            glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, instances);
        } else {
            ScopedProgram program(programs.reduce.id());
            glUniform1i(programs.reduce.uniform("u_sourceIsBase"), 0);
            glUniform1i(programs.reduce.uniform("u_trianglesFromBase"), 0);
            glDrawArrays(GL_TRIANGLES, 0, 3);
        }
    }
    glBindTexture(GL_TEXTURE_2D, 0);
    glActiveTexture(GL_TEXTURE0 + units::kReduceSource);
    glBindTexture(GL_TEXTURE_2D, 0);
    sampleAllMips();
    glBindTexture(GL_TEXTURE_2D, 0);
}

void HistoPyramid::dispatchPerActiveBlock(const ShaderProgram& program,
                                          GLsizei activeBlockCount) const
{
    ScopedProgram use(program.id());
    ScopedIndexedBufferBinding blocks(GL_SHADER_STORAGE_BUFFER, 3, m_activeBlocks.id());
    glUniform1ui(program.uniform("u_activeBlockCount"), GLuint(activeBlockCount));
    // 64-wide groups; at least one, also when no block is active (its invocations return at
    // once): drivers that compile a pass at its first dispatch (llvmpipe) then do so on the first
    // build, not on a later one that may run short of memory.
    const auto groups = std::max((GLuint(activeBlockCount) + 63) / 64, 1u);
    const GLuint perRow = 32768;
    glDispatchCompute(std::min(groups, perRow), (groups + perRow - 1) / perRow, 1);
}

void HistoPyramid::reduceLevelByCompute(const ShaderProgram& program, std::uint32_t level)
{
    // The sources are read at their mip; every build ends with sampleAllMips(), and the compute
    // path changes no mip range, so every level is in range for sampling and image access.
    const LevelStorage source = storageOf(level - 1);
    const LevelStorage vertexSource = vertexStorageOf(level - 1);
    const LevelStorage target = storageOf(level);
    const LevelStorage vertexTarget = vertexStorageOf(level);
    const GLenum format = level < std::uint32_t(kFirst32BitLevel) ? GL_RGBA16UI : GL_RGBA32UI;
    glActiveTexture(GL_TEXTURE0 + units::kReduceSource);
    glBindTexture(GL_TEXTURE_2D, source.texture->id());
    glActiveTexture(GL_TEXTURE0 + units::kVertexReduceSource);
    glBindTexture(GL_TEXTURE_2D, vertexSource.texture->id());
    glBindImageTexture(0, target.texture->id(), target.mip, GL_FALSE, 0, GL_WRITE_ONLY, format);
    glBindImageTexture(1, vertexTarget.texture->id(), vertexTarget.mip, GL_FALSE, 0, GL_WRITE_ONLY,
                       format);
    const glm::uvec2 extent = m_layout.levelExtent(level);
    {
        ScopedProgram use(program.id());
        glUniform1i(program.uniform("u_sourceLod"), source.mip);
        glUniform2i(program.uniform("u_targetExtent"), GLint(extent.x), GLint(extent.y));
        glDispatchCompute((extent.x + 7) / 8, (extent.y + 7) / 8, 1); // 8 x 8 groups
    }
    glBindImageTexture(0, 0, 0, GL_FALSE, 0, GL_WRITE_ONLY, format);
    glBindImageTexture(1, 0, 0, GL_FALSE, 0, GL_WRITE_ONLY, format);
    glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT); // the next level and traversal read it
}

void HistoPyramid::buildBlocksByCompute(const ShaderProgram& program, GLsizei activeBlockCount)
{
    // The levels' storage formats are what hp_classify_blocks.comp declares for its images.
    static_assert(PyramidLayout::kBlockLevel == 3 && kFirst16BitLevel == 3);
    glBindFramebuffer(GL_FRAMEBUFFER, m_framebuffers[PyramidLayout::kBlockLevel].id());
    const GLuint zero[4] = {0, 0, 0, 0};
    glClearBufferuiv(GL_COLOR, 0, zero);
    glClearBufferuiv(GL_COLOR, 1, zero);
    // Every build ends with sampleAllMips(), and the compute path changes no mip range, so each
    // level bound here lies in its texture's sampled range, as image access requires.
    struct ImageLevel {
        const Texture& texture;
        GLint mip;
        GLenum format;
    };
    const std::array<ImageLevel, 6> images{{
        {m_base, 0, m_baseFormat},
        {m_levels8, 0, GL_RGBA8UI}, // level 2 (level 1 is not stored)
        {m_levels16, 0, GL_RGBA16UI},
        {m_vertexLevels8, 0, GL_RGBA8UI},
        {m_vertexLevels8, 1, GL_RGBA8UI},
        {m_vertexLevels16, 0, GL_RGBA16UI},
    }};
    for (std::size_t unit = 0; unit < images.size(); ++unit) {
        glBindImageTexture(GLuint(unit), images[unit].texture.id(), images[unit].mip, GL_FALSE, 0,
                           GL_WRITE_ONLY, images[unit].format);
    }
    dispatchPerActiveBlock(program, activeBlockCount);
    for (std::size_t unit = 0; unit < images.size(); ++unit) {
        glBindImageTexture(GLuint(unit), 0, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA8UI);
    }
    // The reduction above and every traversal read these levels as textures.
    glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT);
}

void HistoPyramid::writeRecord(const ShaderProgram& recordProgram, GLuint emptyVertexArray)
{
    ScopedVertexArray vao(emptyVertexArray);
    ScopedFramebuffer framebuffer(framebufferForDiscardedDraws());
    bindLevelTextures();
    {
        ScopedProgram program(recordProgram.id());
        ScopedCapability discard(GL_RASTERIZER_DISCARD, true);
        ScopedIndexedBufferBinding target(GL_TRANSFORM_FEEDBACK_BUFFER, 0, m_record.id());
        glBeginTransformFeedback(GL_POINTS);
        glDrawArrays(GL_POINTS, 0, 1);
        glEndTransformFeedback();
    }
    copyRecordAside();
}

void HistoPyramid::copyRecordAside()
{
    {
        ScopedBufferBinding read(GL_COPY_READ_BUFFER, m_record.id());
        ScopedBufferBinding write(GL_COPY_WRITE_BUFFER, m_recordCopy.id());
        glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 0, 0, record::kBytes);
    }
    m_recordReady.insert();
}

namespace {
HistoPyramid::Counts countsIn(const std::array<std::uint32_t, record::kUints>& r)
{
    return {r[record::kIndexCount], r[record::kVertexCount]};
}
} // namespace

std::optional<HistoPyramid::Counts> HistoPyramid::pollCounts() const
{
    if (!m_recordReady.signaled()) return std::nullopt;
    std::array<std::uint32_t, record::kUints> r{};
    ScopedBufferBinding read(GL_COPY_READ_BUFFER, m_recordCopy.id());
    glGetBufferSubData(GL_COPY_READ_BUFFER, 0, record::kBytes, r.data());
    return countsIn(r);
}

std::vector<glm::uvec4> HistoPyramid::readAttachment(std::uint32_t level, GLenum attachment) const
{
    const glm::uvec2 extent = m_layout.levelExtent(level);
    std::vector<glm::uvec4> texels(std::size_t(extent.x) * std::size_t(extent.y));
    ScopedFramebuffer framebuffer(m_framebuffers.at(level).id());
    ScopedPixelStore alignment(GL_PACK_ALIGNMENT, 4);
    glReadBuffer(attachment);
    glReadPixels(0, 0, GLsizei(extent.x), GLsizei(extent.y), GL_RGBA_INTEGER, GL_UNSIGNED_INT,
                 texels.data());
    glReadBuffer(GL_COLOR_ATTACHMENT0); // the framebuffer's default read buffer
    return texels;
}

std::vector<glm::uvec4> HistoPyramid::readLevel(std::uint32_t level) const
{
    if (level == 0 || level >= kFirstStoredTriangleLevel) {
        return readAttachment(level, GL_COLOR_ATTACHMENT0);
    }
    // Level 1 as traversal sees it: each channel the keys of one base texel's four cells.
    const std::vector<glm::uvec4> base = readAttachment(0, GL_COLOR_ATTACHMENT0);
    const glm::uvec2 baseExtent = m_layout.levelExtent(0);
    const glm::uvec2 extent = m_layout.levelExtent(1);
    const mc::CaseTables& tables = mc::caseTables();
    const bool labels = m_baseFormat == GL_RGBA16UI;
    const auto keysOfTexel = [&](glm::uvec2 t) {
        if (t.x >= baseExtent.x || t.y >= baseExtent.y) return 0u;
        const glm::uvec4 cells = base[std::size_t(t.y) * baseExtent.x + t.x];
        std::uint32_t keys = 0;
        for (int c = 0; c < 4; ++c) {
            // Label maps keep each cell's triangle count in bits 12-15 of its code.
            keys += labels ? cells[c] >> 12 : std::uint32_t(tables.vertexCount[cells[c] & 255u]);
        }
        return keys;
    };
    std::vector<glm::uvec4> texels(std::size_t(extent.x) * std::size_t(extent.y));
    for (std::uint32_t y = 0; y < extent.y; ++y) {
        for (std::uint32_t x = 0; x < extent.x; ++x) {
            glm::uvec4& out = texels[std::size_t(y) * extent.x + x];
            for (int c = 0; c < 4; ++c) {
                out[c] = keysOfTexel(2u * glm::uvec2(x, y) + glm::uvec2(c & 1, c >> 1));
            }
        }
    }
    return texels;
}

std::vector<glm::uvec4> HistoPyramid::readVertexLevel(std::uint32_t level) const
{
    if (level == 0) throw GlError("the vertex pyramid shares the base level (read level 0)");
    return readAttachment(level, GL_COLOR_ATTACHMENT1);
}

HistoPyramid::Counts HistoPyramid::readCounts() const
{
    std::array<std::uint32_t, record::kUints> r{};
    ScopedBufferBinding read(GL_COPY_READ_BUFFER, m_record.id());
    glGetBufferSubData(GL_COPY_READ_BUFFER, 0, record::kBytes, r.data());
    return countsIn(r);
}

} // namespace isoview::gpu
