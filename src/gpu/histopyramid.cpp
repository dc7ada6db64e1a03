#include "gpu/histopyramid.h"

#include "core/error.h"
#include "gpu/gl_loader.h"
#include "gpu/gl_state.h"
#include "gpu/texture_units.h"

#include <algorithm>
#include <array>
#include <string>

namespace isoview::gl {
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

HistoPyramid::HistoPyramid(const PyramidLayout& layout) : m_layout(layout)
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
    m_bytes += allocateLevels(m_base, GL_RGBA8UI, GL_UNSIGNED_BYTE,
                              chainSize(layout.levelExtent(0), 1), 1, 4, "histopyramid level 0");
    m_levels8 = Texture::create();
    m_bytes += allocateLevels(m_levels8, GL_RGBA8UI, GL_UNSIGNED_BYTE,
                              chainSize(layout.levelExtent(1), m_mips8), m_mips8, 4,
                              "histopyramid 8-bit levels");
    if (m_mips16 > 0) {
        m_levels16 = Texture::create();
        m_bytes += allocateLevels(m_levels16, GL_RGBA16UI, GL_UNSIGNED_SHORT,
                                  chainSize(layout.levelExtent(kFirst16BitLevel), m_mips16),
                                  m_mips16, 8, "histopyramid 16-bit levels");
    }
    if (m_mips32 > 0) {
        m_levels32 = Texture::create();
        m_bytes += allocateLevels(m_levels32, GL_RGBA32UI, GL_UNSIGNED_INT,
                                  chainSize(layout.levelExtent(kFirst32BitLevel), m_mips32),
                                  m_mips32, 16, "histopyramid 32-bit levels");
    }
    restoreTexture.reset();

    {
        // The zero fill below is a clear: scissor and colour mask must let it reach every texel.
        ScopedFramebuffer restore(0);
        ScopedCapability noScissor(GL_SCISSOR_TEST, false);
        ScopedColorMask allChannels(true, true, true, true);
        for (std::uint32_t level = 0; level < layout.levelCount; ++level) {
            Framebuffer fb = Framebuffer::create();
            const LevelStorage s = storageOf(level);
            glBindFramebuffer(GL_FRAMEBUFFER, fb.id());
            glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D,
                                   s.texture->id(), s.mip);
            const GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
            if (status != GL_FRAMEBUFFER_COMPLETE) {
                throw GlError("HistoPyramid level " + std::to_string(level) +
                              " cannot be rendered to (framebuffer status " +
                              std::to_string(status) + ")");
            }
            // Texels beyond a level's extent are read by the reduction above but never
            // written: they must hold zero counts.
            const GLuint zero[4] = {0, 0, 0, 0};
            glClearBufferuiv(GL_COLOR, 0, zero);
            m_framebuffers.push_back(std::move(fb));
        }
    }

    m_countBuffer = Buffer::create();
    {
        ScopedBufferBinding bind(GL_ARRAY_BUFFER, m_countBuffer.id());
        m_countBuffer.label("histopyramid indirect draw command");
        const std::array<std::uint32_t, 4> zero{0, 1, 0, 0};
        glBufferData(GL_ARRAY_BUFFER, sizeof(zero), zero.data(), GL_DYNAMIC_COPY);
    }
    m_countCopy = Buffer::create();
    {
        ScopedBufferBinding bind(GL_ARRAY_BUFFER, m_countCopy.id());
        m_countCopy.label("histopyramid count for polling");
        glBufferData(GL_ARRAY_BUFFER, sizeof(std::uint32_t), nullptr, GL_STREAM_READ);
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
    throwOnGlError("allocating the HistoPyramid");
}

HistoPyramid::LevelStorage HistoPyramid::storageOf(std::uint32_t level) const
{
    if (level == 0) return {&m_base, 0};
    if (level < std::uint32_t(kFirst16BitLevel)) return {&m_levels8, GLint(level) - 1};
    if (level < std::uint32_t(kFirst32BitLevel)) {
        return {&m_levels16, GLint(level) - kFirst16BitLevel};
    }
    return {&m_levels32, GLint(level) - kFirst32BitLevel};
}

void HistoPyramid::setSampledMipRange(const Texture& texture, GLint first, GLint last) const
{
    glBindTexture(GL_TEXTURE_2D, texture.id());
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_BASE_LEVEL, first);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, last);
}

void HistoPyramid::bindLevelTextures() const
{
    glActiveTexture(GL_TEXTURE0 + units::kHpBase);
    glBindTexture(GL_TEXTURE_2D, m_base.id());
    glActiveTexture(GL_TEXTURE0 + units::kHp8);
    glBindTexture(GL_TEXTURE_2D, m_levels8.id());
    glActiveTexture(GL_TEXTURE0 + units::kHp16);
    glBindTexture(GL_TEXTURE_2D, m_levels16.id());
    glActiveTexture(GL_TEXTURE0 + units::kHp32);
    glBindTexture(GL_TEXTURE_2D, m_levels32.id());
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
    if (instances > 0) {
        ScopedProgram program(programs.classify.id());
        ScopedVertexArray blocks(m_blockVertexArray.id());
        setBlockQuad(programs.classify, 0);
        glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, instances);
    }

    // Pass 2..n: reduce level l into level l+1. The source level is made the only sampled mip
    // of its texture while the next level (possibly a mip of the same texture) is rendered. Up
    // to the block level only the active blocks are reduced; the block level is cleared first,
    // so every other block counts zero there; above it the whole level is reduced.
    glActiveTexture(GL_TEXTURE0 + units::kReduceSource);
    for (std::uint32_t level = 1; level < m_layout.levelCount; ++level) {
        const LevelStorage source = storageOf(level - 1);
        setSampledMipRange(*source.texture, source.mip, source.mip);
        glBindFramebuffer(GL_FRAMEBUFFER, m_framebuffers[level].id());
        const glm::uvec2 extent = m_layout.levelExtent(level);
        glViewport(0, 0, GLsizei(extent.x), GLsizei(extent.y));
        if (level <= PyramidLayout::kBlockLevel) {
            if (level == PyramidLayout::kBlockLevel) {
                const GLuint zero[4] = {0, 0, 0, 0};
                glClearBufferuiv(GL_COLOR, 0, zero);
            }
            if (instances == 0) continue;
            ScopedProgram program(programs.reduceBlocks.id());
            ScopedVertexArray blocks(m_blockVertexArray.id());
            setBlockQuad(programs.reduceBlocks, level);
            glUniform1i(programs.reduceBlocks.uniform("u_sourceIsBase"), level == 1 ? 1 : 0);
            glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, instances);
        } else {
            ScopedProgram program(programs.reduce.id());
            glUniform1i(programs.reduce.uniform("u_sourceIsBase"), 0);
            glDrawArrays(GL_TRIANGLES, 0, 3);
        }
    }
    glBindTexture(GL_TEXTURE_2D, 0);
    setSampledMipRange(m_levels8, 0, m_mips8 - 1);
    if (m_mips16 > 0) setSampledMipRange(m_levels16, 0, m_mips16 - 1);
    if (m_mips32 > 0) setSampledMipRange(m_levels32, 0, m_mips32 - 1);
    glBindTexture(GL_TEXTURE_2D, 0);

    // Last pass: sum the top level into the indirect draw command, on the GPU.
    {
        bindLevelTextures();
        ScopedProgram program(programs.count.id());
        ScopedCapability discard(GL_RASTERIZER_DISCARD, true);
        ScopedIndexedBufferBinding command(GL_TRANSFORM_FEEDBACK_BUFFER, 0, m_countBuffer.id());
        glBeginTransformFeedback(GL_POINTS);
        glDrawArrays(GL_POINTS, 0, 1);
        glEndTransformFeedback();
    }

    // Copy the count aside, behind a fence, so statistics can read it later without a stall.
    {
        ScopedBufferBinding read(GL_COPY_READ_BUFFER, m_countBuffer.id());
        ScopedBufferBinding write(GL_COPY_WRITE_BUFFER, m_countCopy.id());
        glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 0, 0,
                            sizeof(std::uint32_t));
    }
    m_countReady.insert();
}

std::optional<std::uint32_t> HistoPyramid::pollVertexCount() const
{
    if (!m_countReady.signaled()) return std::nullopt;
    std::uint32_t count = 0;
    ScopedBufferBinding read(GL_COPY_READ_BUFFER, m_countCopy.id());
    glGetBufferSubData(GL_COPY_READ_BUFFER, 0, sizeof(count), &count);
    return count;
}

std::vector<glm::uvec4> HistoPyramid::readLevel(std::uint32_t level) const
{
    const glm::uvec2 extent = m_layout.levelExtent(level);
    std::vector<glm::uvec4> texels(std::size_t(extent.x) * std::size_t(extent.y));
    ScopedFramebuffer framebuffer(m_framebuffers.at(level).id());
    ScopedPixelStore alignment(GL_PACK_ALIGNMENT, 4);
    glReadPixels(0, 0, GLsizei(extent.x), GLsizei(extent.y), GL_RGBA_INTEGER, GL_UNSIGNED_INT,
                 texels.data());
    return texels;
}

std::uint32_t HistoPyramid::readVertexCount() const
{
    std::array<std::uint32_t, 4> command{};
    ScopedBufferBinding read(GL_COPY_READ_BUFFER, m_countBuffer.id());
    glGetBufferSubData(GL_COPY_READ_BUFFER, 0, sizeof(command), command.data());
    return command[0];
}

} // namespace isoview::gl
