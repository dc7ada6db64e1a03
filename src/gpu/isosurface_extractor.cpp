#include "gpu/isosurface_extractor.h"

#include "core/error.h"
#include "core/log.h"
#include "extraction/block_ranges.h"
#include "extraction/voxel_box.h"
#include "gpu/compute_extraction.h"
#include "gpu/extraction_path.h"
#include "gpu/extraction_programs.h"
#include "gpu/feedback_extraction.h"
#include "gpu/gl_objects.h"
#include "gpu/gl_state.h"
#include "gpu/gpu_volume.h"
#include "gpu/histopyramid.h"
#include "gpu/shader_program.h"
#include "gpu/surface_buffers.h"
#include "gpu/texture_units.h"

#include <glm/gtc/type_ptr.hpp>

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace isoview::gpu {
namespace {

// The extraction path for the context: compute passes on OpenGL 4.3, transform feedback on the
// 3.3 floor.
std::unique_ptr<ExtractionPath> makePath(const GlCapabilities& caps,
                                         const IsosurfaceExtractor::Options& options,
                                         const ExtractionPrograms& programs,
                                         SurfaceBuffers& buffers, GLuint emptyVertexArray)
{
    const bool softwareRasterizer = caps.softwareRasterizer && !options.gpuDrawPath;
    if (caps.computeExtraction) {
        return std::make_unique<ComputeExtraction>(programs, buffers, emptyVertexArray,
                                                   softwareRasterizer);
    }
    return std::make_unique<FeedbackExtraction>(programs, buffers, emptyVertexArray,
                                                softwareRasterizer);
}

} // namespace

struct IsosurfaceExtractor::Impl {
    explicit Impl(const Options& options)
        : caps(queryCapabilities(GlFeatureLimits{options.limitToGl33})), labels(options.labels),
          programs(caps.computeExtraction, options.labels),
          path(makePath(caps, options, programs, buffers, emptyVertexArray.id()))
    {
    }

    // What every extract uses, declared before the path that borrows it.
    VertexArray emptyVertexArray = VertexArray::create();
    SurfaceBuffers buffers; // the welded mesh (grows and shrinks as surface_buffers.h says)
    GlCapabilities caps;
    bool labels; // a label-map extractor (Options::labels)
    ExtractionPrograms programs;
    // How the mesh is made and drawn: compute passes or transform feedback.
    std::unique_ptr<ExtractionPath> path;

    const GpuVolume* volume = nullptr; // borrowed (SceneRenderer owns it)
    std::optional<HistoPyramid> pyramid;
    VoxelBox crop;          // the voxels whose cells the pyramid covers
    BlockRanges cropRanges; // the crop's block ranges (when cropped)
    bool cropped = false;
    StoredValue iso{0.0};
    bool extracted = false;
    std::vector<std::uint32_t> activeBlocks; // of the last extract (kept to reuse its memory)
    // Label maps: RGBA8 per label, 256 labels to a row (setLabelStyles); created on first use.
    std::optional<Texture> labelStyles;

    std::array<GLuint, units::kCount> boundTextures() const
    {
        std::array<GLuint, units::kCount> ids{};
        ids[units::kVolume] = volume ? volume->texture().id() : 0;
        ids[units::kSliceOrigins] = volume ? volume->sliceOriginsTexture() : 0;
        ids[units::kLabelStyles] = labelStyles ? labelStyles->id() : 0;
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

    // Takes the volume with a crop: a pyramid over the crop's cells, its block ranges, the
    // layout uniforms. Builds everything new before replacing anything, so a pyramid that does
    // not fit leaves the previous volume and crop usable.
    void adopt(const GpuVolume& newVolume, const VoxelBox& box)
    {
        const PyramidLayout pyramidLayout =
            PyramidLayout::forVolume(box.voxelCount(), caps.maxTextureSize);
        const VolumePrograms& volumePrograms = programs.forVolume(newVolume);
        std::optional<HistoPyramid> newPyramid;
        if (!pyramidLayout.empty()) newPyramid.emplace(pyramidLayout, labels);
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
        buffers.release(); // a new volume or crop starts small again
        path->reset();
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

    // One extract: the pyramid for this isovalue (0.5 for label maps), then the path's passes.
    void build(StoredValue isovalue);

    const BlockRanges& activeRanges() const { return cropped ? cropRanges : volume->blockRanges(); }

    // The last extract, lent to the path for one call (needs a pyramid).
    LastExtract last()
    {
        return {*pyramid,         programs.forVolume(*volume),
                activeBlocks,     boundTextures(),
                iso.classified(), labels};
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
    requireInside(crop, volume.dims());
    m_impl->adopt(volume, crop);
}

void IsosurfaceExtractor::setCrop(const VoxelBox& box)
{
    Impl& d = *m_impl;
    if (!d.volume) throw Error("a crop needs a volume");
    requireInside(box, d.volume->dims());
    if (box == d.crop) return;
    d.adopt(*d.volume, box);
}

void IsosurfaceExtractor::setValues(const GpuVolume& volume)
{
    Impl& d = *m_impl;
    const auto sameLayout = [](const Flat3DLayout& a, const Flat3DLayout& b) {
        return a.tileSize == b.tileSize && a.tileCount == b.tileCount &&
               a.tilesPerRow == b.tilesPerRow && a.tileRows == b.tileRows;
    };
    if (!d.volume || !d.pyramid || volume.dims() != d.volume->dims() ||
        volume.samplerKind() != d.volume->samplerKind() ||
        !sameLayout(volume.texture().layout(), d.volume->texture().layout())) {
        setVolume(volume, d.volume && volume.dims() == d.volume->dims()
                              ? d.crop
                              : VoxelBox::whole(volume.dims()));
        return;
    }
    if (d.cropped)
        d.cropRanges = volume.blockRanges().cropped(d.crop.first, d.crop.last - d.crop.first);
    d.volume = &volume;
    d.extracted = false;
}

VoxelBox IsosurfaceExtractor::crop() const
{
    return m_impl->crop;
}

bool IsosurfaceExtractor::hasVolume() const
{
    return m_impl->volume != nullptr;
}

void IsosurfaceExtractor::extract(StoredValue isovalue)
{
    Impl& d = *m_impl;
    if (d.labels) throw Error("a label-map extractor extracts every label at once (extractLabels)");
    d.build(isovalue);
}

void IsosurfaceExtractor::extractLabels()
{
    Impl& d = *m_impl;
    if (!d.labels) throw Error("extractLabels needs a label-map extractor (Options::labels)");
    // Indicators are 0 or 1: their surfaces sit at 0.5, every vertex at its edge's midpoint.
    d.build(StoredValue(kLabelIsovalue));
}

bool IsosurfaceExtractor::extractsLabels() const
{
    return m_impl->labels;
}

void IsosurfaceExtractor::Impl::build(StoredValue isovalue)
{
    Impl& d = *this;
    d.iso = isovalue;
    d.extracted = true;
    if (!d.pyramid) {
        d.path->extractNothing();
        return;
    }
    // Size the buffers ahead from the last counts the GPU has already produced (no wait), so a
    // surface that grows while the isovalue is dragged rarely needs a second run.
    if (const auto previous = d.pyramid->pollCounts())
        d.buffers.reserveAhead(previous->vertices, previous->indices);
    d.path->beginExtract();
    const VolumePrograms& volumePrograms = d.programs.forVolume(*d.volume);
    volumePrograms.setIsovalue(isovalue.classified());
    // Only the blocks whose value range straddles the isovalue can hold a crossing; of a label
    // map, those holding more than one label.
    if (d.labels) {
        d.activeRanges().blocksWithLabelBoundaries(d.activeBlocks);
    } else {
        d.activeRanges().activeBlocks(isovalue.classified(), d.activeBlocks);
    }
    {
        ScopedTextureUnits<units::kCount> restoreUnits(d.boundTextures());
        d.pyramid->build(d.programs.pyramidPrograms(volumePrograms), d.emptyVertexArray.id(),
                         d.activeBlocks);
    }
    d.path->finishExtract(d.last());
}

StoredValue IsosurfaceExtractor::isovalue() const
{
    return m_impl->iso;
}

std::uint32_t IsosurfaceExtractor::vertexCount()
{
    Impl& d = *m_impl;
    if (!d.extracted || !d.pyramid) return 0;
    return d.path->counts(d.last()).indices;
}

std::uint32_t IsosurfaceExtractor::weldedVertexCount()
{
    Impl& d = *m_impl;
    if (!d.extracted || !d.pyramid) return 0;
    return d.path->counts(d.last()).vertices;
}

std::optional<std::string> IsosurfaceExtractor::meshError() const
{
    return m_impl->path->meshError();
}

void IsosurfaceExtractor::setMeshByteLimit(std::uint64_t bytes)
{
    m_impl->buffers.setByteLimit(bytes);
}

std::optional<std::uint32_t> IsosurfaceExtractor::pollVertexCount() const
{
    const Impl& d = *m_impl;
    if (!d.extracted || !d.pyramid) return 0;
    return d.path->pollIndexCount(*d.pyramid);
}

void IsosurfaceExtractor::draw(const SurfaceDrawParams& params)
{
    Impl& d = *m_impl;
    d.path->forgetDraw();
    if (!d.extracted || !d.pyramid) return;
    d.path->draw(d.last(), params);
}

bool IsosurfaceExtractor::lastDrawUnconfirmed() const
{
    const Impl& d = *m_impl;
    if (!d.path->lastDrawUnconfirmed()) return false;
    // The record the draw took is this extract's (its passes ran: ComputeExtraction::draw).
    const std::optional<HistoPyramid::Counts> counts = d.pyramid->pollCounts();
    return !counts || counts->vertices > d.buffers.vertexCapacity() ||
           counts->indices > d.buffers.indexCapacity();
}

IsoMesh IsosurfaceExtractor::capture()
{
    Impl& d = *m_impl;
    if (!d.extracted || !d.pyramid) return {};
    const HistoPyramid::Counts counts = d.path->completeMesh(d.last());
    if (counts.indices == 0) return {};
    return d.buffers.download(counts.vertices, counts.indices);
}

unsigned IsosurfaceExtractor::labelStylesTexture() const
{
    return m_impl->labelStyles ? m_impl->labelStyles->id() : 0;
}

void IsosurfaceExtractor::setLabelStyles(const std::vector<glm::u8vec4>& styles)
{
    Impl& d = *m_impl;
    if (!d.labels) throw Error("label styles need a label-map extractor (Options::labels)");
    // 256 labels a row, every label the list names: a few KiB even for 65,536 labels.
    constexpr std::size_t kRow = 256;
    const std::size_t rows = std::max<std::size_t>(1, (styles.size() + kRow - 1) / kRow);
    std::vector<glm::u8vec4> texels(rows * kRow, glm::u8vec4(0)); // beyond the list: hidden
    std::copy(styles.begin(), styles.end(), texels.begin());
    const bool created = !d.labelStyles;
    if (created) d.labelStyles.emplace(Texture::create());
    ScopedTextureBinding bind(d.labelStyles->id());
    if (created) d.labelStyles->label("label styles"); // a name is an object once bound
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, 0);
    ScopedPixelStore alignment(GL_UNPACK_ALIGNMENT, 4);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, GLsizei(kRow), GLsizei(rows), 0, GL_RGBA,
                 GL_UNSIGNED_BYTE, texels.data());
    throwOnGlError("uploading the label styles");
}

std::vector<LabelSurface> IsosurfaceExtractor::captureLabels()
{
    Impl& d = *m_impl;
    if (!d.labels) throw Error("captureLabels needs a label-map extractor (Options::labels)");
    if (!d.extracted || !d.pyramid) return {};
    const HistoPyramid::Counts counts = d.path->completeMesh(d.last());
    if (counts.indices == 0) return {};
    std::vector<std::uint32_t> vertexLabels;
    const IsoMesh all = d.buffers.download(counts.vertices, counts.indices, &vertexLabels);
    return splitByLabel(all, vertexLabels);
}

IsosurfaceExtractor::MeshBuffers IsosurfaceExtractor::meshBuffers()
{
    Impl& d = *m_impl;
    if (!d.extracted || !d.pyramid) return {};
    const HistoPyramid::Counts counts = d.path->completeMesh(d.last());
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
    use.meshBytes = d.buffers.bytes() + d.path->bytes();
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
