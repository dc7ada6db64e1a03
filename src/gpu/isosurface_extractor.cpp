#include "gpu/isosurface_extractor.h"

#include "core/error.h"
#include "core/log.h"
#include "extraction/block_ranges.h"
#include "extraction/marching_cubes_tables.h"
#include "gpu/gl_objects.h"
#include "gpu/gl_state.h"
#include "gpu/gpu_volume.h"
#include "gpu/histopyramid.h"
#include "gpu/shader_defines.h"
#include "gpu/shader_program.h"
#include "gpu/texture_units.h"

#include <glm/gtc/type_ptr.hpp>

#include <array>
#include <cstring>
#include <optional>

namespace isoview::gl {
namespace {

// One captured vertex as transform feedback writes it (interleaved v_position, v_normal,
// v_edgeKey).
struct CapturedVertex {
    float position[3];
    float normal[3];
    std::uint32_t lowerVoxel;
    std::uint32_t axis;
};
static_assert(sizeof(CapturedVertex) == 32);

void pointSamplersAtUnits(const ShaderProgram& p)
{
    p.setSamplerUnit("u_volume", units::kVolume);
    p.setSamplerUnit("u_caseTable", units::kCaseTable);
    p.setSamplerUnit("u_hpBase", units::kHpBase);
    p.setSamplerUnit("u_hp8", units::kHp8);
    p.setSamplerUnit("u_hp16", units::kHp16);
    p.setSamplerUnit("u_hp32", units::kHp32);
    p.setSamplerUnit("u_source", units::kReduceSource);
    p.setSamplerUnit("u_sliceOrigins", units::kSliceOrigins);
}

// The programs that read the volume depend on its sampler type.
struct VolumePrograms {
    ShaderProgram classify;
    ShaderProgram surface;
};

} // namespace

struct IsosurfaceExtractor::Impl {
    GlCapabilities caps;
    VertexArray emptyVertexArray = VertexArray::create();
    Texture caseTable = Texture::create();
    std::optional<ShaderProgram> reduce;
    std::optional<ShaderProgram> reduceBlocks;
    std::optional<ShaderProgram> count;
    std::array<std::optional<VolumePrograms>, 3> volumePrograms; // by SamplerKind
    Buffer captureBuffer = Buffer::create();
    std::size_t captureBufferBytes = 0;

    const GpuVolume* volume = nullptr; // borrowed (SceneRenderer owns it)
    std::optional<HistoPyramid> pyramid;
    float iso = 0.0f;
    bool extracted = false;
    std::optional<std::uint32_t> knownVertexCount;
    std::vector<std::uint32_t> activeBlocks; // of the last extract (kept to reuse its memory)

    const VolumePrograms& programsFor(SamplerKind kind)
    {
        auto& slot = volumePrograms[std::size_t(kind)];
        if (!slot) {
            const std::string defines = engineShaderDefines(kind);
            slot.emplace(
                VolumePrograms{ShaderProgram("histopyramid classify",
                                             {{GL_VERTEX_SHADER, "hp_block_quad.vert"},
                                              {GL_FRAGMENT_SHADER, "hp_base_level.frag"}},
                                             defines),
                               ShaderProgram("isosurface",
                                             {{GL_VERTEX_SHADER, "isosurface.vert"},
                                              {GL_FRAGMENT_SHADER, "isosurface.frag"}},
                                             defines, {"v_position", "v_normal", "v_edgeKey"})});
            pointSamplersAtUnits(slot->classify);
            pointSamplersAtUnits(slot->surface);
        }
        return *slot;
    }

    std::array<GLuint, units::kCount> boundTextures() const
    {
        std::array<GLuint, units::kCount> ids{};
        ids[units::kVolume] = volume ? volume->texture().id() : 0;
        ids[units::kCaseTable] = caseTable.id();
        ids[units::kSliceOrigins] = volume ? volume->sliceOriginsTexture() : 0;
        return ids;
    }

    // Layout uniforms, set once per volume on each program that reads them.
    void setLayoutUniforms(const ShaderProgram& p) const
    {
        ScopedProgram use(p.id());
        const VolumeGeometry& geometry = volume->geometry();
        const Flat3DLayout& vl = volume->texture().layout();
        const PyramidLayout& pl = pyramid->layout();
        const glm::ivec3 dims(volume->dims());
        glUniform3i(p.uniform("u_volumeDims"), dims.x, dims.y, dims.z);
        glUniform1i(p.uniform("u_volumeTilesPerRow"), GLint(vl.tilesPerRow));
        const glm::ivec3 cells(pl.cellCount);
        glUniform3i(p.uniform("u_cellCount"), cells.x, cells.y, cells.z);
        const glm::ivec3 blocks(pl.blockCount);
        glUniform3i(p.uniform("u_blockCount"), blocks.x, blocks.y, blocks.z);
        glUniform1i(p.uniform("u_blocksPerRow"), GLint(pl.blocksPerRow));
        glUniform1i(p.uniform("u_hpLevelCount"), GLint(pl.levelCount));
        const glm::mat3 toPhysical(geometry.gradientToPhysical());
        glUniformMatrix3fv(p.uniform("u_gradientToPhysical"), 1, GL_FALSE,
                           glm::value_ptr(toPhysical));
        const glm::mat4 indexToPhysical(geometry.indexToPhysical());
        glUniformMatrix4fv(p.uniform("u_indexToPhysical"), 1, GL_FALSE,
                           glm::value_ptr(indexToPhysical));
        glUniform1i(p.uniform("u_hasSliceOrigins"), geometry.hasSliceOrigins() ? 1 : 0);
    }
};

IsosurfaceExtractor::IsosurfaceExtractor() : IsosurfaceExtractor(Options{}) {}

IsosurfaceExtractor::IsosurfaceExtractor(const Options& options) : m_impl(std::make_unique<Impl>())
{
    Impl& d = *m_impl;
    d.caps = queryCapabilities(GlFeatureLimits{options.limitToGl33});

    // The case table as a 16 x 256 R8UI texture: row = case, columns 0..14 = edges, 15 = count.
    const mc::CaseTables& tables = mc::caseTables();
    std::array<std::uint8_t, 16 * 256> texels{};
    for (std::size_t c = 0; c < 256; ++c) {
        for (std::size_t v = 0; v < 15; ++v)
            texels[c * 16 + v] = tables.triangleEdges[c][v];
        texels[c * 16 + 15] = tables.vertexCount[c];
    }
    {
        ScopedTextureBinding bind(d.caseTable.id());
        ScopedPixelStore alignment(GL_UNPACK_ALIGNMENT, 1);
        d.caseTable.label("marching cubes case table");
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, 0);
        glTexImage2D(GL_TEXTURE_2D, 0, GL_R8UI, 16, 256, 0, GL_RED_INTEGER, GL_UNSIGNED_BYTE,
                     texels.data());
    }

    const std::string defines = engineShaderDefines(SamplerKind::Unsigned);
    d.reduce.emplace("histopyramid reduce",
                     std::vector<ShaderStage>{{GL_VERTEX_SHADER, "fullscreen_triangle.vert"},
                                              {GL_FRAGMENT_SHADER, "hp_reduce.frag"}},
                     defines);
    d.reduceBlocks.emplace("histopyramid reduce blocks",
                           std::vector<ShaderStage>{{GL_VERTEX_SHADER, "hp_block_quad.vert"},
                                                    {GL_FRAGMENT_SHADER, "hp_reduce.frag"}},
                           defines);
    d.count.emplace(
        "histopyramid count",
        std::vector<ShaderStage>{{GL_VERTEX_SHADER, "hp_indirect_count.vert"}}, defines,
        std::vector<std::string>{"v_count", "v_instanceCount", "v_first", "v_baseInstance"});
    pointSamplersAtUnits(*d.reduce);
    pointSamplersAtUnits(*d.reduceBlocks);
    pointSamplersAtUnits(*d.count);
    throwOnGlError("setting up the isosurface extractor");
    log::get("engine")->info("isosurface extractor on {}", d.caps.summary());
}

IsosurfaceExtractor::~IsosurfaceExtractor() = default;

const GlCapabilities& IsosurfaceExtractor::capabilities() const
{
    return m_impl->caps;
}

void IsosurfaceExtractor::setVolume(const GpuVolume& volume)
{
    Impl& d = *m_impl;
    // Build everything new before replacing anything, so a volume whose pyramid does not fit
    // leaves the previous one usable.
    const glm::uvec3 dims = volume.dims();
    const PyramidLayout pyramidLayout = PyramidLayout::forVolume(dims, d.caps.maxTextureSize);
    const VolumePrograms& programs = d.programsFor(volume.samplerKind());
    std::optional<HistoPyramid> pyramid;
    if (!pyramidLayout.empty()) pyramid.emplace(pyramidLayout);

    d.volume = &volume;
    d.pyramid = std::move(pyramid);
    d.extracted = false;
    d.knownVertexCount = 0;
    if (d.pyramid) {
        d.setLayoutUniforms(programs.classify);
        d.setLayoutUniforms(programs.surface);
        d.setLayoutUniforms(*d.reduce);
        d.setLayoutUniforms(*d.reduceBlocks);
        d.setLayoutUniforms(*d.count);
    }
    const glm::uvec2 textureSize = volume.texture().layout().textureSize();
    log::get("engine")->info(
        "volume {}x{}x{}: texture {}x{}, pyramid base {}x{} ({} levels), {} + {} bytes", dims.x,
        dims.y, dims.z, textureSize.x, textureSize.y, pyramidLayout.baseExtent.x,
        pyramidLayout.baseExtent.y, pyramidLayout.levelCount, volume.bytes(),
        d.pyramid ? d.pyramid->bytes() : 0);
}

bool IsosurfaceExtractor::hasVolume() const
{
    return m_impl->volume != nullptr;
}

void IsosurfaceExtractor::extract(float isovalue)
{
    Impl& d = *m_impl;
    d.iso = isovalue;
    d.extracted = true;
    if (!d.pyramid) {
        d.knownVertexCount = 0;
        return;
    }
    d.knownVertexCount.reset();
    const VolumePrograms& programs = d.programsFor(d.volume->samplerKind());
    {
        ScopedProgram use(programs.classify.id());
        glUniform1f(programs.classify.uniform("u_isovalue"), isovalue);
    }
    {
        ScopedProgram use(programs.surface.id());
        glUniform1f(programs.surface.uniform("u_isovalue"), isovalue);
    }
    // Only the blocks whose value range straddles the isovalue can hold a crossing.
    d.volume->blockRanges().activeBlocks(isovalue, d.activeBlocks);
    ScopedTextureUnits<units::kCount> restoreUnits(d.boundTextures());
    d.pyramid->build({programs.classify, *d.reduceBlocks, *d.reduce, *d.count},
                     d.emptyVertexArray.id(), d.activeBlocks);
}

float IsosurfaceExtractor::isovalue() const
{
    return m_impl->iso;
}

std::uint32_t IsosurfaceExtractor::vertexCount()
{
    Impl& d = *m_impl;
    if (!d.extracted || !d.pyramid) return 0;
    if (!d.knownVertexCount) d.knownVertexCount = d.pyramid->readVertexCount();
    return *d.knownVertexCount;
}

std::optional<std::uint32_t> IsosurfaceExtractor::pollVertexCount() const
{
    const Impl& d = *m_impl;
    if (!d.extracted || !d.pyramid) return 0;
    if (d.knownVertexCount) return d.knownVertexCount;
    return d.pyramid->pollVertexCount();
}

void IsosurfaceExtractor::draw(const SurfaceDrawParams& params)
{
    Impl& d = *m_impl;
    if (!d.extracted || !d.pyramid) return;
    // On the 3.3 floor the count comes back to the CPU once per isovalue (cached).
    const std::uint32_t count = d.caps.indirectDraw ? 0 : vertexCount();
    if (!d.caps.indirectDraw && count == 0) return;

    const ShaderProgram& surface = d.programsFor(d.volume->samplerKind()).surface;
    ScopedTextureUnits<units::kCount> restoreUnits(d.boundTextures());
    d.pyramid->bindLevelTextures();
    ScopedProgram use(surface.id());
    ScopedVertexArray vao(d.emptyVertexArray.id());
    glUniformMatrix4fv(surface.uniform("u_physicalToClip"), 1, GL_FALSE,
                       glm::value_ptr(params.physicalToClip));
    glUniformMatrix3fv(surface.uniform("u_physicalToViewNormal"), 1, GL_FALSE,
                       glm::value_ptr(params.physicalToViewNormal));
    glUniform3fv(surface.uniform("u_surfaceColor"), 1, glm::value_ptr(params.color));
    if (d.caps.indirectDraw) {
        ScopedBufferBinding command(GL_DRAW_INDIRECT_BUFFER, d.pyramid->countBuffer());
        glDrawArraysIndirect(GL_TRIANGLES, nullptr);
    } else {
        glDrawArrays(GL_TRIANGLES, 0, GLsizei(count));
    }
}

IsoMesh IsosurfaceExtractor::capture()
{
    Impl& d = *m_impl;
    const std::uint32_t count = vertexCount();
    if (count == 0) return {};

    const std::size_t bytes = std::size_t(count) * sizeof(CapturedVertex);
    // Binding index 0 and the generic binding both point at the capture buffer for the scope.
    ScopedIndexedBufferBinding target(GL_TRANSFORM_FEEDBACK_BUFFER, 0, d.captureBuffer.id());
    if (bytes > d.captureBufferBytes) {
        glBufferData(GL_TRANSFORM_FEEDBACK_BUFFER, GLsizeiptr(bytes), nullptr, GL_STREAM_READ);
        d.captureBufferBytes = bytes;
        d.captureBuffer.label("isosurface capture");
        // Re-attach: the binding index still refers to the old storage's size otherwise.
        glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, d.captureBuffer.id());
    }
    {
        const ShaderProgram& surface = d.programsFor(d.volume->samplerKind()).surface;
        ScopedTextureUnits<units::kCount> restoreUnits(d.boundTextures());
        d.pyramid->bindLevelTextures();
        ScopedProgram use(surface.id());
        ScopedVertexArray vao(d.emptyVertexArray.id());
        ScopedCapability discard(GL_RASTERIZER_DISCARD, true);
        ScopedFramebuffer framebuffer(d.pyramid->framebufferForDiscardedDraws());
        glBeginTransformFeedback(GL_TRIANGLES);
        glDrawArrays(GL_TRIANGLES, 0, GLsizei(count));
        glEndTransformFeedback();
    }
    std::vector<CapturedVertex> captured(count);
    glGetBufferSubData(GL_TRANSFORM_FEEDBACK_BUFFER, 0, GLsizeiptr(bytes), captured.data());
    throwOnGlError("capturing the isosurface");

    std::vector<SoupVertex> soup;
    soup.reserve(count);
    for (const CapturedVertex& v : captured) {
        soup.push_back({glm::vec3(v.position[0], v.position[1], v.position[2]),
                        glm::vec3(v.normal[0], v.normal[1], v.normal[2]),
                        makeEdgeKey(v.lowerVoxel, int(v.axis))});
    }
    return weldByEdgeKey(soup);
}

GpuMemoryUse IsosurfaceExtractor::memoryUse() const
{
    const Impl& d = *m_impl;
    GpuMemoryUse use;
    if (d.volume) {
        use.volumeTextureBytes = d.volume->bytes();
        use.voxels = d.volume->voxelCount();
    }
    if (d.pyramid) use.pyramidBytes = d.pyramid->bytes();
    return use;
}

} // namespace isoview::gl

namespace isoview::gl {

PyramidLayout IsosurfaceExtractor::pyramidLayout() const
{
    return m_impl->pyramid ? m_impl->pyramid->layout() : PyramidLayout{};
}

std::vector<glm::uvec4> IsosurfaceExtractor::readPyramidLevel(std::uint32_t level) const
{
    if (!m_impl->pyramid) return {};
    return m_impl->pyramid->readLevel(level);
}

} // namespace isoview::gl
