#include "gpu/isosurface_extractor.h"

#include "core/error.h"
#include "core/log.h"
#include "extraction/block_ranges.h"
#include "extraction/voxel_box.h"
#include "gpu/extraction_programs.h"
#include "gpu/extraction_record.h"
#include "gpu/gl_objects.h"
#include "gpu/gl_state.h"
#include "gpu/gpu_volume.h"
#include "gpu/histopyramid.h"
#include "gpu/shader_defines.h"
#include "gpu/shader_program.h"
#include "gpu/surface_buffers.h"
#include "gpu/surface_programs.h"
#include "gpu/texture_units.h"

#include <glm/gtc/type_ptr.hpp>

#include <algorithm>
#include <array>
#include <initializer_list>
#include <optional>
#include <string>

namespace isoview::gpu {
namespace {

// Active blocks per work group of the vertex and index passes (common/block_work_group.glsl).
constexpr std::uint32_t kBlocksPerWorkGroup = 8;

} // namespace

struct IsosurfaceExtractor::Impl {
    explicit Impl(const Options& options)
        : caps(queryCapabilities(GlFeatureLimits{options.limitToGl33})),
          programs(caps.computeExtraction)
    {
    }

    // Created first, before the capabilities are asked and the programs compiled.
    VertexArray emptyVertexArray = VertexArray::create();
    SurfaceBuffers buffers;
    BlockMeshIndex blockIndex; // compute path
    GlCapabilities caps;
    ExtractionPrograms programs;

    const GpuVolume* volume = nullptr; // borrowed (SceneRenderer owns it)
    std::optional<HistoPyramid> pyramid;
    VoxelBox crop;          // the voxels whose cells the pyramid covers
    BlockRanges cropRanges; // the crop's block ranges (when cropped)
    bool cropped = false;
    float iso = 0.0f;
    bool extracted = false;
    // The counts of the last extract once read back, and whether the mesh buffers hold its
    // mesh in full (compute path: checked, or provably big enough; 3.3 path: passes run).
    std::optional<HistoPyramid::Counts> knownCounts;
    bool meshComplete = false;
    // Why the last extract's mesh is not drawn (its buffers could not grow), logged once.
    std::optional<std::string> meshError;
    // Compute path: the last extract could not allocate its per-block buffers, so no pass ran and
    // the record and mesh buffers still hold an earlier isovalue's; counts() runs them first.
    bool passesPending = false;
    std::vector<std::uint32_t> activeBlocks; // of the last extract (kept to reuse its memory)

    std::array<GLuint, units::kCount> boundTextures() const
    {
        std::array<GLuint, units::kCount> ids{};
        ids[units::kVolume] = volume ? volume->texture().id() : 0;
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
        const glm::ivec3 origin(crop.first);
        glUniform3i(p.uniform("u_cellOrigin"), origin.x, origin.y, origin.z);
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
    }

    void setCapacityUniforms(const ShaderProgram& p) const
    {
        ScopedProgram use(p.id());
        glUniform1ui(p.uniform("u_vertexCapacity"), buffers.vertexCapacity());
        glUniform1ui(p.uniform("u_indexCapacity"), buffers.indexCapacity());
    }

    // The record (draw command, dispatch sizes) for the current buffer capacities.
    void writeRecord()
    {
        setCapacityUniforms(programs.record());
        ScopedTextureUnits<units::kCount> restoreUnits(boundTextures());
        pyramid->writeRecord(programs.record(), emptyVertexArray.id());
    }

    // `groups` work groups of 64, as rows of at most 32768 (the x limit is 65535). At least one,
    // also when no block is active (its invocations return at once): drivers that compile a
    // pass at its first dispatch (llvmpipe) then do so on the first extract, not on a later one
    // that may run short of memory.
    static void dispatchGroups(std::uint32_t groups)
    {
        groups = std::max(groups, 1u);
        const std::uint32_t perRow = 32768;
        glDispatchCompute(std::min(groups, perRow), (groups + perRow - 1) / perRow, 1);
    }

    // OpenGL 4.3: where each active block's mesh starts (and the record), then the vertex and
    // index passes, 8 invocations per active block.
    void runComputePasses()
    {
        blockIndex.reserve(activeBlocks.size()); // first: when it throws, nothing has run
        const auto blocks = std::uint32_t(activeBlocks.size());
        const ShaderProgram& vertices = programs.forVolume(*volume).vertices;
        setCapacityUniforms(vertices);
        const ShaderProgram& indices = programs.indices();
        const ShaderProgram& blockStarts = programs.blockStarts();
        setCapacityUniforms(indices);
        setCapacityUniforms(blockStarts);
        for (const ShaderProgram* p : {&blockStarts, &vertices, &indices}) {
            ScopedProgram use(p->id());
            glUniform1ui(p->uniform("u_activeBlockCount"), blocks);
        }
        ScopedTextureUnits<units::kCount> restoreUnits(boundTextures());
        pyramid->bindLevelTextures();
        ScopedIndexedBufferBinding slots(GL_SHADER_STORAGE_BUFFER, 2, pyramid->blockSlotsBuffer());
        ScopedIndexedBufferBinding active(GL_SHADER_STORAGE_BUFFER, 3,
                                          pyramid->activeBlocksBuffer());
        ScopedIndexedBufferBinding starts(GL_SHADER_STORAGE_BUFFER, 4, blockIndex.blockStarts());
        ScopedIndexedBufferBinding cellFirst(GL_SHADER_STORAGE_BUFFER, 5,
                                             blockIndex.cellFirstVertex());
        {
            // Block starts and slots, and the record (draw command and counts).
            ScopedProgram use(blockStarts.id());
            ScopedIndexedBufferBinding record(GL_SHADER_STORAGE_BUFFER, 1, pyramid->recordBuffer());
            dispatchGroups((blocks + 63) / 64);
            glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
            pyramid->copyRecordAside();
        }
        {
            ScopedProgram use(vertices.id());
            ScopedIndexedBufferBinding output(GL_SHADER_STORAGE_BUFFER, 0, buffers.vertexBuffer());
            dispatchGroups((blocks + kBlocksPerWorkGroup - 1) / kBlocksPerWorkGroup);
            glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT); // cellFirstVertex, for the indices
        }
        {
            ScopedProgram use(indices.id());
            ScopedIndexedBufferBinding output(GL_SHADER_STORAGE_BUFFER, 0, buffers.indexBuffer());
            dispatchGroups((blocks + kBlocksPerWorkGroup - 1) / kBlocksPerWorkGroup);
        }
        // The draw reads them as vertices and indices and its command from the record; capture
        // reads them back.
        glMemoryBarrier(GL_VERTEX_ATTRIB_ARRAY_BARRIER_BIT | GL_ELEMENT_ARRAY_BARRIER_BIT |
                        GL_COMMAND_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
    }

    // OpenGL 3.3: the same passes as vertex shaders with transform feedback, sized by counts the
    // CPU read back.
    void runTransformFeedbackPasses(const HistoPyramid::Counts& counts)
    {
        ScopedTextureUnits<units::kCount> restoreUnits(boundTextures());
        pyramid->bindLevelTextures();
        ScopedVertexArray vao(emptyVertexArray.id());
        ScopedCapability discard(GL_RASTERIZER_DISCARD, true);
        ScopedFramebuffer framebuffer(pyramid->framebufferForDiscardedDraws());
        const auto capture = [](const ShaderProgram& program, GLuint buffer, std::uint32_t points) {
            if (points == 0) return;
            ScopedProgram use(program.id());
            ScopedIndexedBufferBinding target(GL_TRANSFORM_FEEDBACK_BUFFER, 0, buffer);
            glBeginTransformFeedback(GL_POINTS);
            glDrawArrays(GL_POINTS, 0, GLsizei(points));
            glEndTransformFeedback();
        };
        capture(programs.forVolume(*volume).vertices, buffers.vertexBuffer(), counts.vertices);
        capture(programs.indices(), buffers.indexBuffer(), counts.indices / 3);
    }

    // Takes the volume with a crop: a pyramid over the crop's cells, its block ranges, the
    // layout uniforms. Builds everything new before replacing anything, so a pyramid that does
    // not fit leaves the previous volume and crop usable.
    void adopt(const GpuVolume& newVolume, const VoxelBox& box)
    {
        const PyramidLayout pyramidLayout =
            PyramidLayout::forVolume(box.voxelCount(), caps.maxTextureSize);
        const VolumePrograms& volumePrograms = programs.forVolume(newVolume);
        std::optional<HistoPyramid> newPyramid;
        if (!pyramidLayout.empty()) newPyramid.emplace(pyramidLayout);
        const bool whole = box == VoxelBox::whole(newVolume.dims());
        BlockRanges ranges = whole
                                 ? BlockRanges{}
                                 : newVolume.blockRanges().cropped(box.first, box.last - box.first);

        volume = &newVolume;
        pyramid = std::move(newPyramid);
        crop = box;
        cropRanges = std::move(ranges);
        cropped = !whole;
        extracted = false;
        knownCounts = HistoPyramid::Counts{};
        meshComplete = true;
        meshError.reset();
        buffers.release(); // a new volume or crop starts small again
        blockIndex.release();
        if (pyramid) {
            for (const ShaderProgram* p : programs.layoutReaders(volumePrograms))
                setLayoutUniforms(*p);
        }
        const glm::uvec3 dims = newVolume.dims();
        const glm::uvec2 textureSize = newVolume.texture().layout().textureSize();
        log::get("engine")->info(
            "volume {}x{}x{}: texture {}x{}, pyramid base {}x{} ({} levels), {} + {} bytes{}",
            dims.x, dims.y, dims.z, textureSize.x, textureSize.y, pyramidLayout.baseExtent.x,
            pyramidLayout.baseExtent.y, pyramidLayout.levelCount, newVolume.bytes(),
            pyramid ? pyramid->bytes() : 0, cropped ? " (cropped)" : "");
    }

    static void requireInside(const GpuVolume& target, const VoxelBox& box)
    {
        const glm::uvec3 dims = target.dims();
        if (box.fitsIn(dims)) return;
        throw Error("the crop box " + std::to_string(box.first.x) + ".." +
                    std::to_string(box.last.x) + ", " + std::to_string(box.first.y) + ".." +
                    std::to_string(box.last.y) + ", " + std::to_string(box.first.z) + ".." +
                    std::to_string(box.last.z) + " does not lie in the volume's voxels (" +
                    std::to_string(dims.x) + "x" + std::to_string(dims.y) + "x" +
                    std::to_string(dims.z) + ")");
    }

    // The counts of the last extract, read back once (waits for the GPU the first time). Throws
    // GlError when passes the extract could not run fail again.
    const HistoPyramid::Counts& counts()
    {
        if (passesPending) {
            runComputePasses();
            passesPending = false;
            meshComplete = buffers.holdsAnyOutcome(activeBlocks.size());
            knownCounts.reset();
        }
        if (!knownCounts) knownCounts = pyramid->readCounts();
        return *knownCounts;
    }

    const BlockRanges& activeRanges() const { return cropped ? cropRanges : volume->blockRanges(); }

    // The counts of the last extract, with its whole mesh in the buffers. Reads the counts back
    // (waits for the GPU) the first time after an extract.
    const HistoPyramid::Counts& completeMesh()
    {
        const HistoPyramid::Counts& known = counts();
        if (meshComplete) return known;
        const bool grew = buffers.reserve(known.vertices, known.indices);
        if (caps.computeExtraction) {
            if (grew) runComputePasses(); // the record too, for the new capacities
        } else {
            runTransformFeedbackPasses(known);
        }
        meshComplete = true;
        return known;
    }
};

IsosurfaceExtractor::IsosurfaceExtractor() : IsosurfaceExtractor(Options{}) {}

IsosurfaceExtractor::IsosurfaceExtractor(const Options& options)
    : m_impl(std::make_unique<Impl>(options))
{
    const Impl& d = *m_impl;

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
    m_impl->adopt(volume, VoxelBox::whole(volume.dims()));
}

void IsosurfaceExtractor::setVolume(const GpuVolume& volume, const VoxelBox& crop)
{
    m_impl->requireInside(volume, crop);
    m_impl->adopt(volume, crop);
}

void IsosurfaceExtractor::setCrop(const VoxelBox& box)
{
    Impl& d = *m_impl;
    if (!d.volume) throw Error("a crop needs a volume");
    d.requireInside(*d.volume, box);
    if (box == d.crop) return;
    d.adopt(*d.volume, box);
}

VoxelBox IsosurfaceExtractor::crop() const
{
    return m_impl->crop;
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
        d.knownCounts = HistoPyramid::Counts{};
        d.meshComplete = true;
        return;
    }
    // Size the buffers ahead from the last counts the GPU has already produced (no wait), so a
    // surface that grows while the isovalue is dragged rarely needs a second run.
    d.meshError.reset();
    if (const auto last = d.pyramid->pollCounts())
        d.buffers.reserveAhead(last->vertices, last->indices);
    d.knownCounts.reset();
    d.meshComplete = false;
    const VolumePrograms& volumePrograms = d.programs.forVolume(*d.volume);
    volumePrograms.setIsovalue(isovalue);
    // Only the blocks whose value range straddles the isovalue can hold a crossing.
    d.activeRanges().activeBlocks(isovalue, d.activeBlocks);
    {
        ScopedTextureUnits<units::kCount> restoreUnits(d.boundTextures());
        d.pyramid->build(d.programs.pyramidPrograms(volumePrograms), d.emptyVertexArray.id(),
                         d.activeBlocks);
    }
    d.passesPending = false;
    if (d.caps.computeExtraction) {
        try {
            d.runComputePasses(); // writes the record too
            d.meshComplete = d.buffers.holdsAnyOutcome(d.activeBlocks.size());
        } catch (const GlError& e) {
            // Its buffers come first: nothing ran, and draw() draws nothing for this isovalue.
            d.passesPending = true;
            d.meshError = e.what();
            log::get("engine")->error("the surface at isovalue {} is not drawn: {}", isovalue,
                                      e.what());
        }
    } else {
        d.writeRecord();
    }
}

float IsosurfaceExtractor::isovalue() const
{
    return m_impl->iso;
}

std::uint32_t IsosurfaceExtractor::vertexCount()
{
    Impl& d = *m_impl;
    if (!d.extracted || !d.pyramid) return 0;
    return d.counts().indices;
}

std::uint32_t IsosurfaceExtractor::weldedVertexCount()
{
    Impl& d = *m_impl;
    if (!d.extracted || !d.pyramid) return 0;
    return d.counts().vertices;
}

std::optional<std::string> IsosurfaceExtractor::meshError() const
{
    return m_impl->meshError;
}

void IsosurfaceExtractor::setMeshByteLimit(std::uint64_t bytes)
{
    m_impl->buffers.setByteLimit(bytes);
}

std::optional<std::uint32_t> IsosurfaceExtractor::pollVertexCount() const
{
    const Impl& d = *m_impl;
    if (!d.extracted || !d.pyramid) return 0;
    if (d.passesPending) return std::nullopt; // the record is an earlier isovalue's
    if (d.knownCounts) return d.knownCounts->indices;
    if (const auto counts = d.pyramid->pollCounts()) return counts->indices;
    return std::nullopt;
}

void IsosurfaceExtractor::draw(const SurfaceDrawParams& params)
{
    Impl& d = *m_impl;
    if (!d.extracted || !d.pyramid) return;
    // The compute path draws straight from the record unless the buffers might be too small;
    // the 3.3 path reads the counts back once per isovalue.
    HistoPyramid::Counts counts;
    if (!d.meshComplete || !d.caps.computeExtraction) {
        if (d.meshError) return; // this isovalue's mesh does not fit; said once
        try {
            counts = d.completeMesh();
        } catch (const GlError& e) {
            // The buffers are empty (SurfaceBuffers::reserve): nothing of this mesh is drawn.
            d.meshError = e.what();
            log::get("engine")->error("the surface at isovalue {} is not drawn: {}", d.iso,
                                      e.what());
            return;
        }
    }
    if (!d.caps.computeExtraction && counts.indices == 0) return;

    const VolumePrograms& volumePrograms = d.programs.forVolume(*d.volume);
    const ShaderProgram& surface =
        params.opacity < 1.0f ? volumePrograms.surface.translucent : volumePrograms.surface.opaque;
    ScopedProgram use(surface.id());
    ScopedVertexArray vao(d.buffers.vertexArray());
    ScopedTextureUnits<units::kCount> restoreUnits(d.boundTextures());
    glUniformMatrix4fv(surface.uniform("u_physicalToClip"), 1, GL_FALSE,
                       glm::value_ptr(params.physicalToClip));
    glUniformMatrix3fv(surface.uniform("u_physicalToViewNormal"), 1, GL_FALSE,
                       glm::value_ptr(params.physicalToViewNormal));
    glUniform3fv(surface.uniform("u_surfaceColor"), 1, glm::value_ptr(params.color));
    if (params.opacity < 1.0f) glUniform1f(surface.uniform("u_opacity"), params.opacity);
    if (d.caps.computeExtraction && d.caps.softwareRasterizer) {
        // The compute passes have run by now on a CPU renderer (its dispatches finish before
        // they return), so the count is there to read without a stall, and the draw can go in
        // flushed chunks (drawIndexedTriangles).
        std::uint32_t indices = 0;
        try {
            indices = d.counts().indices;
        } catch (const GlError& e) {
            d.meshError = e.what();
            log::get("engine")->error("the surface at isovalue {} is not drawn: {}", d.iso,
                                      e.what());
            return;
        }
        drawIndexedTriangles(indices, true);
    } else if (d.caps.computeExtraction) {
        ScopedBufferBinding command(GL_DRAW_INDIRECT_BUFFER, d.pyramid->recordBuffer());
        glDrawElementsIndirect(GL_TRIANGLES, GL_UNSIGNED_INT,
                               reinterpret_cast<const void*>(record::kDrawCommand));
    } else {
        drawIndexedTriangles(counts.indices, d.caps.softwareRasterizer);
    }
}

IsoMesh IsosurfaceExtractor::capture()
{
    Impl& d = *m_impl;
    if (!d.extracted || !d.pyramid) return {};
    const HistoPyramid::Counts counts = d.completeMesh();
    if (counts.indices == 0) return {};
    return d.buffers.download(counts.vertices, counts.indices);
}

IsosurfaceExtractor::MeshBuffers IsosurfaceExtractor::meshBuffers()
{
    Impl& d = *m_impl;
    if (!d.extracted || !d.pyramid) return {};
    const HistoPyramid::Counts counts = d.completeMesh();
    return {d.buffers.vertexBuffer(), d.buffers.indexBuffer(), counts.vertices, counts.indices};
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
    use.meshBytes = d.buffers.bytes() + d.blockIndex.bytes();
    return use;
}

} // namespace isoview::gpu

namespace isoview::gpu {

PyramidLayout IsosurfaceExtractor::pyramidLayout() const
{
    return m_impl->pyramid ? m_impl->pyramid->layout() : PyramidLayout{};
}

std::vector<glm::uvec4> IsosurfaceExtractor::readPyramidLevel(std::uint32_t level) const
{
    if (!m_impl->pyramid) return {};
    return m_impl->pyramid->readLevel(level);
}

std::vector<glm::uvec4> IsosurfaceExtractor::readVertexPyramidLevel(std::uint32_t level) const
{
    if (!m_impl->pyramid) return {};
    return m_impl->pyramid->readVertexLevel(level);
}

} // namespace isoview::gpu
