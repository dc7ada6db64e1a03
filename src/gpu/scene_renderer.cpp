#include "gpu/scene_renderer.h"

#include "core/log.h"
#include "extraction/crop_face_visibility.h"
#include "gpu/crop_box_outline.h"
#include "gpu/gl_loader.h"
#include "gpu/gl_objects.h"
#include "gpu/gl_state.h"
#include "gpu/gpu_memory_admission.h"
#include "gpu/gpu_timers.h"
#include "gpu/gpu_volume.h"
#include "gpu/isosurface_extractor.h"
#include "gpu/label_surfaces.h"
#include "gpu/orientation_marker.h"
#include "gpu/shader_defines.h"
#include "gpu/shader_program.h"
#include "gpu/slice_planes.h"
#include "gpu/stored_surface_mesh.h"
#include "gpu/surface_bricks.h"
#include "gpu/surface_layer_cache.h"
#include "gpu/surface_preview.h"
#include "gpu/volume_raycaster.h"
#include "gpu/weighted_blended_transparency.h"

#include <glm/gtc/type_ptr.hpp>

#include <algorithm>
#include <cstddef>
#include <new>
#include <string>

namespace isoview::gpu {
namespace {

// Opacities from here up are drawn opaque (depth written, rays stop there).
constexpr float kOpaqueFrom = 0.999f;

RayProjection rayProjection(RenderMode mode)
{
    switch (mode) {
    case RenderMode::MaximumIntensity: return RayProjection::Maximum;
    case RenderMode::MinimumIntensity: return RayProjection::Minimum;
    case RenderMode::AverageIntensity: return RayProjection::Average;
    default: return RayProjection::Composite;
    }
}

// The frame is composed here (colour + a sampleable depth texture, which the ray caster reads
// as the surface's depth) and blitted to the caller's framebuffer at the end.
struct SceneTarget {
    glm::ivec2 size{0, 0};
    Texture color = Texture::create();
    Texture depth = Texture::create();
    Framebuffer withDepth = Framebuffer::create(); // colour + depth: background, surface, marker
    Framebuffer colorOnly = Framebuffer::create(); // colour alone: the ray caster samples depth
    bool complete = false;

    // Re-creates the attachments at a new size. No throw: an incomplete target is logged once
    // per size and the frame skipped.
    void resize(glm::ivec2 newSize)
    {
        if (newSize == size) return;
        size = newSize;
        const auto allocate = [&](const Texture& t, GLint internalFormat, GLenum format,
                                  GLenum type) {
            ScopedTextureBinding bind(t.id());
            glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
            glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
            glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
            glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
            glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, 0);
            glTexImage2D(GL_TEXTURE_2D, 0, internalFormat, size.x, size.y, 0, format, type,
                         nullptr);
        };
        allocate(color, GL_RGBA8, GL_RGBA, GL_UNSIGNED_BYTE);
        allocate(depth, GL_DEPTH_COMPONENT24, GL_DEPTH_COMPONENT, GL_UNSIGNED_INT);

        ScopedFramebuffer restore(withDepth.id());
        glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, color.id(), 0);
        glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, depth.id(), 0);
        complete = glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
        glBindFramebuffer(GL_FRAMEBUFFER, colorOnly.id());
        glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, color.id(), 0);
        complete = complete && glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
        if (!complete) {
            log::get("engine")->error("scene framebuffer of {}x{} is incomplete; frame skipped",
                                      size.x, size.y);
        }
    }
};

} // namespace

struct SceneRenderer::Impl {
    // What the GPU has for a volume. freesHeld: placing it frees what is held now (the volume,
    // its pyramids and mesh, the resident time points), as setVolume does; a time point's
    // values (setTimePoint) free nothing first.
    GpuMemoryFigures memoryFigures(bool freesHeld = true) const;
    // setVolume's work around `upload` (which places the volume in the surface's bricks): the
    // memory check first, then everything that reads the volume, the scene to come applied
    // whole.
    void placeVolume(const Volume& volume, const std::function<void()>& upload);
    // The bytes resident time points may take in all (SurfaceBricks::setTimePoint).
    std::uint64_t residentBudget() const;
    // The series whose time point is shown (setTimePoint), null after setVolume.
    std::shared_ptr<const VolumeSeries> series;

    explicit Impl(const Options& options)
        : surface(IsosurfaceExtractor::Options{.limitToGl33 = options.limitToGl33,
                                               .gpuDrawPath = options.gpuDrawPath}),
          preview(IsosurfaceExtractor::Options{.limitToGl33 = options.limitToGl33,
                                               .gpuDrawPath = options.gpuDrawPath}),
          labels(options.limitToGl33), memoryBudget(options.memoryBudgetBytes),
          cullHiddenBackFaces(options.cullHiddenBackFaces),
          maxTextureSize(
              options.maxTextureSize != 0
                  ? std::min(options.maxTextureSize, surface.capabilities().maxTextureSize)
                  : surface.capabilities().maxTextureSize)
    {
    }

    // The passes borrow the volume; it is replaced only after both have moved to a new one.
    SurfaceBricks surface;
    // The live surface at half resolution (FrameParams::previewLiveSurface), of sceneVolume
    // (the scene's volume: the uploaded one, or its time point), and whether the last frame
    // drew it.
    SurfacePreview preview;
    std::shared_ptr<const Volume> sceneVolume;
    bool previewShown = false;
    LabelSurfaces labels;         // the scene's label map, when it has one
    std::uint64_t memoryBudget;   // Options::memoryBudgetBytes
    bool cullHiddenBackFaces;     // Options::cullHiddenBackFaces
    std::uint32_t maxTextureSize; // the GPU's, or less (Options)
    VolumeRaycaster raycaster;
    glm::dmat4 volumeIndexToPhysical{1.0}; // the loaded volume's: crop boxes are in its indices
    VolumeGeometry volumeGeometry;         // the loaded volume's (the crop box's corners)
    // The mesh is wound counter-clockwise seen from outside in index space; a mirroring
    // index -> physical map turns that clockwise on screen.
    GLenum outsideWinding = GL_CCW;
    std::size_t culledSurfaces = 0; // opaque surfaces drawn with back faces culled, last frame
    // Which of the live surface's meshes the last frame drew without its counts, if one.
    enum class LiveMesh { None, Preview, Full };
    LiveMesh drawnWithoutCounts = LiveMesh::None;
    CropBoxOutline cropOutline;
    OrientationMarker marker;
    SlicePlanes slicePlanes;
    glm::uvec3 volumeDims{0}; // the whole volume's (slice plane indices count in it)
    ShaderProgram background{"background gradient",
                             {{GL_VERTEX_SHADER, "fullscreen_triangle.vert"},
                              {GL_FRAGMENT_SHADER, "background_gradient.frag"}},
                             engineShaderDefines(SamplerKind::Unsigned)};
    VertexArray emptyVertexArray = VertexArray::create();
    SceneTarget target;
    GpuTimers timers;

    // What setScene() last gave, as the passes use it. Real units throughout; the extraction
    // converts to stored units.
    std::vector<SurfaceLayer> layers; // the scene's surfaces in their draw colours
    std::optional<std::uint32_t> liveId;
    std::optional<TransferFunction> transferFunction; // as sampled into the ray caster
    RenderMode mode = RenderMode::Surface;
    bool orientationMarker = true;
    SlicePlaneSettings slicePlaneSettings;
    // The live surface's isovalue as extracted (what is on screen), and how often it was.
    std::optional<double> renderedIsovalue;
    std::uint64_t liveExtractions = 0;
    // The isovalue (real units) the pyramid holds now: the live one's, or a stored layer's
    // while it is being stored.
    std::optional<double> pyramidIsovalue;
    // Every visible layer but the live one: its mesh and the isovalue it was extracted at.
    SurfaceLayerCache stored;
    StoredSurfaceProgram storedProgram{surface.capabilities()};
    WeightedBlendedTransparency transparency;

    const SurfaceLayer* liveLayer() const
    {
        for (const SurfaceLayer& layer : layers)
            if (isLive(layer)) return &layer;
        return nullptr;
    }
    // The live surface's isovalue when it is drawn (and so extracted) at all.
    std::optional<double> shownLiveIsovalue() const
    {
        const SurfaceLayer* live = liveLayer();
        if (!live || !live->visible) return std::nullopt;
        return live->isovalue;
    }
    bool isLive(const SurfaceLayer& layer) const { return isLiveLayer(layer, liveId); }

    // Stored layers of an earlier volume or crop: extracted again before they are drawn.
    void markStoredStale()
    {
        pyramidIsovalue.reset();
        stored.markStale();
    }

    // Pass 1: the backdrop gradient, and depth cleared to the far plane.
    void drawBackground(const FrameParams& p)
    {
        const glm::vec4 cleared =
            p.transparentBackground ? glm::vec4(0.0f) : glm::vec4(p.backgroundBottom, 1.0f);
        ScopedClearValues clear({cleared.r, cleared.g, cleared.b, cleared.a}, 1.0f);
        ScopedDepthState depthWrites(GL_LESS, true);
        glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
        if (p.transparentBackground) return;
        ScopedCapability noDepthTest(GL_DEPTH_TEST, false);
        ScopedProgram use(background.id());
        ScopedVertexArray vao(emptyVertexArray.id());
        glUniform3fv(background.uniform("u_top"), 1, glm::value_ptr(p.backgroundTop));
        glUniform3fv(background.uniform("u_bottom"), 1, glm::value_ptr(p.backgroundBottom));
        glUniform1f(background.uniform("u_height"), float(p.viewportSize.y));
        glDrawArrays(GL_TRIANGLES, 0, 3);
    }

    // The crop box for the surfaces and the rays: extracted again, stored layers too.
    void setCrop(const VoxelBox& box)
    {
        surface.setCrop(box);
        labels.setCrop(box);
        raycaster.setCrop(box, volumeIndexToPhysical);
        renderedIsovalue.reset(); // extract again for the new cells
        markStoredStale();
    }

    // Pass 3: the stored layers that are stale, then the live isovalue if the pyramid does not
    // hold it (a drag of the live one extracts only it); in a preview frame the live isovalue
    // goes to the half-resolution preview instead, and the pyramid keeps what it holds.
    void extractIfChanged(bool previewLive = false)
    {
        if (!surface.hasVolume()) return;
        if (labels.needsExtraction()) { // once per label map and crop
            TimedPass timed(timers, GpuTimers::Extract);
            labels.extractIfNeeded();
        }
        const bool storing = stored.stale(layers, liveId);
        const std::optional<double> requested = shownLiveIsovalue();
        const bool live = requested && (previewLive ? preview.isovalue() != requested
                                                    : requested != renderedIsovalue || storing);
        if (!storing && !live) return;
        TimedPass timed(timers, GpuTimers::Extract);
        if (storing) stored.storeStale(layers, liveId, surface, pyramidIsovalue);
        if (previewLive) {
            if (live) preview.extract(*requested);
        } else if (requested && requested != pyramidIsovalue) {
            surface.extract(*requested);
            pyramidIsovalue = requested;
            ++liveExtractions;
        }
        if (requested && !previewLive) {
            renderedIsovalue = requested;
        } else if (storing) {
            renderedIsovalue.reset(); // the pyramid holds a stored layer's surface now
        }
    }

    // The layers' draw parameters under this camera.
    static SurfaceDrawParams drawParams(const FrameParams& p, glm::vec3 color, float opacity)
    {
        SurfaceDrawParams draw;
        draw.physicalToClip = p.projection * p.view;
        draw.physicalToViewNormal = glm::transpose(glm::inverse(glm::mat3(p.view)));
        draw.color = color;
        draw.opacity = opacity;
        return draw;
    }

    // Draws the visible layers that are opaque (translucent == false) or translucent, each
    // with the state the caller set up.
    void drawLayers(const FrameParams& p, bool translucent)
    {
        const unsigned facing =
            !translucent && cullHiddenBackFaces ? facesTowardCamera(p) : kNoCulling;
        for (const SurfaceLayer& layer : layers) {
            if (!layer.visible || (layer.opacity < kOpaqueFrom) != translucent) continue;
            const float opacity = translucent ? std::max(layer.opacity, 0.0f) : 1.0f;
            SurfaceDrawParams draw = drawParams(p, layer.color, opacity);
            draw.withoutCountWait = isLive(layer) && p.liveSurfaceWithoutCountWait;
            if (isLive(layer) && previewShown) {
                // Never culled: the halved volume's surface may be open on a crop face where
                // the full one is closed.
                preview.draw(draw);
                if (draw.withoutCountWait) drawnWithoutCounts = LiveMesh::Preview;
            } else if (isLive(layer)) {
                if (!renderedIsovalue) continue;
                ScopedCapability cull(GL_CULL_FACE, cullsBackFaces(facing, *renderedIsovalue));
                surface.draw(draw);
                if (draw.withoutCountWait) drawnWithoutCounts = LiveMesh::Full;
            } else if (const SurfaceLayerCache::StoredLayer* entry = stored.find(layer.id)) {
                const std::optional<double> iso = entry->isovalue;
                ScopedCapability cull(GL_CULL_FACE, iso && cullsBackFaces(facing, *iso));
                storedProgram.draw(entry->mesh, draw);
            }
        }
    }

    // The label map's surfaces in this pass (each label opaque or translucent by its style),
    // never culled: where labels touch, one's back faces face the other's front.
    void drawLabels(const FrameParams& p, bool translucent)
    {
        ScopedCapability noCulling(GL_CULL_FACE, false);
        labels.draw(drawParams(p, glm::vec3(1.0f), 1.0f), translucent);
    }

    // The crop box's faces this camera may look into (extraction/crop_face_visibility.h).
    unsigned facesTowardCamera(const FrameParams& p) const
    {
        return cropFacesTowardCamera(surface.crop(), volumeGeometry,
                                     glm::dmat4(p.projection) * glm::dmat4(p.view));
    }

    // Whether the back faces of the surface at this isovalue go unseen under a camera that sees
    // `facing` (facesTowardCamera's): the surface is not open on any of those faces. Counts the
    // culled surfaces for backFaceCulledSurfaces().
    bool cullsBackFaces(unsigned facing, double isovalue)
    {
        if (!backFacesHidden(facing, surface.openCropFaces(isovalue))) return false;
        ++culledSurfaces;
        return true;
    }

    bool hasTranslucentLayers() const
    {
        for (const SurfaceLayer& layer : layers)
            if (layer.visible && layer.opacity < kOpaqueFrom) return true;
        return labels.hasTranslucentLabels();
    }

    // Pass 4: the opaque surfaces, depth tested and written (their depth limits the rays).
    void drawOpaqueSurfaces(const FrameParams& p)
    {
        ScopedCapability depthTest(GL_DEPTH_TEST, true);
        ScopedDepthState depth(GL_LESS, true);
        // Back faces (seen inside a surface, or where a crop or the volume's edge opens it) are
        // shaded darker; culled only where none can be seen (drawLayers).
        ScopedCapability noCulling(GL_CULL_FACE, false);
        ScopedFaceState faces(outsideWinding, GL_BACK);
        ScopedCapability noBlend(GL_BLEND, false);
        TimedPass timed(timers, GpuTimers::Surface);
        drawLayers(p, false);
        drawLabels(p, false);
    }

    // Pass 5: the volume, composited over the background and surface up to the surface's depth.
    void drawVolume(const FrameParams& p)
    {
        if (!surface.hasVolume()) return;
        RaycastFrame frame;
        frame.projection = rayProjection(mode);
        frame.windowCenter = slicePlaneSettings.windowCenter; // the slice views' window
        frame.windowWidth = slicePlaneSettings.windowWidth;
        frame.physicalToClip = p.projection * p.view;
        frame.viewportSize = p.viewportSize;
        frame.targetFramebuffer = target.colorOnly.id();
        frame.surfaceDepthTexture = target.depth.id();
        frame.stepVoxels = p.volumeStepVoxels;
        frame.resolutionScale = p.volumeResolutionScale;
        frame.shading = p.volumeShading;
        TimedPass timed(timers, GpuTimers::Volume);
        raycaster.render(frame);
    }

    // Pass 6: the translucent surfaces over the opaque frame and the volume, in any order
    // (weighted blended transparency). Not timed: the timers have no pass for it.
    void drawTranslucentSurfaces(const FrameParams& p)
    {
        if (!hasTranslucentLayers()) return;
        transparency.render(p.viewportSize, target.depth.id(), target.colorOnly.id(), [&] {
            ScopedFaceState faces(outsideWinding, GL_BACK);
            drawLayers(p, true);
            drawLabels(p, true);
        });
    }
};

SceneRenderer::SceneRenderer() : SceneRenderer(Options{}) {}

SceneRenderer::SceneRenderer(const Options& options) : m_impl(std::make_unique<Impl>(options))
{
    throwOnGlError("setting up the scene renderer");
}

SceneRenderer::~SceneRenderer() = default;

const GlCapabilities& SceneRenderer::capabilities() const
{
    return m_impl->surface.capabilities();
}

// The GPU is asked for its free memory only without a budget.
GpuMemoryFigures SceneRenderer::Impl::memoryFigures(bool freesHeld) const
{
    GpuMemoryFigures figures;
    figures.budgetBytes = memoryBudget;
    if (memoryBudget == 0) {
        figures.freeBytes = availableGpuMemory();
        if (figures.freeBytes && freesHeld) {
            const GpuMemoryUse previous = surface.memoryUse();
            figures.previousVolumeBytes = previous.volumeTextureBytes + previous.pyramidBytes +
                                          previous.meshBytes + surface.residentBytes();
        }
    }
    return figures;
}

SceneRenderer::VolumeAdmission SceneRenderer::volumeAdmission() const
{
    const bool sharesSystemMemory = m_impl->surface.capabilities().softwareRasterizer;
    return
        [figures = m_impl->memoryFigures(), sharesSystemMemory](glm::uvec3 dims, ScalarType type) {
            GpuMemoryFigures now = figures;
            if (now.freeBytes && sharesSystemMemory) {
                const double systemCopy =
                    double(dims.x) * double(dims.y) * double(dims.z) * double(scalarSize(type));
                now.freeBytes = double(*now.freeBytes) > systemCopy
                                    ? *now.freeBytes - std::uint64_t(systemCopy)
                                    : 0;
            }
            const GpuMemoryAdmission admission(dims, type, now);
        };
}

void SceneRenderer::setVolume(const Volume& volume)
{
    m_impl->placeVolume(volume, [&] { m_impl->surface.setVolume(volume, m_impl->maxTextureSize); });
    m_impl->series.reset();
}

void SceneRenderer::setTimePoint(std::shared_ptr<const VolumeSeries> series, std::size_t t)
{
    Impl& d = *m_impl;
    const std::shared_ptr<const Volume>& volume = series->volume(t);
    const bool sameSeries = series == d.series && d.surface.hasVolume();
    if (!sameSeries) {
        // The first time point shown of this series: placed whole, as setVolume places one.
        d.placeVolume(*volume, [&] { d.surface.setTimePoint(volume, false, d.maxTextureSize, 0); });
        d.series = std::move(series);
        return;
    }
    // A resident time point allocates nothing; another one's texture comes on top of what is
    // held (nothing is freed first).
    std::optional<GpuMemoryAdmission> admission;
    if (!d.surface.isResident(volume)) admission.emplace(*volume, d.memoryFigures(false));
    d.preview.release(); // of the time point shown before
    try {
        d.surface.setTimePoint(volume, true, d.maxTextureSize, d.residentBudget());
    } catch (const GpuMemoryError& e) {
        if (admission) throw admission->uploadFailed(e);
        throw;
    } catch (const std::bad_alloc&) {
        if (admission) throw admission->systemOutOfMemory();
        throw;
    }
    // Same grid and type: surfaces, crop, transfer function and label map all stay; what was
    // extracted from the last time point's values is not.
    d.raycaster.setVolume(d.surface.raycastVolume());
    d.renderedIsovalue.reset();
    d.markStoredStale();
    d.stored.clearMeshes();
}

std::size_t SceneRenderer::residentTimePoints() const
{
    return m_impl->surface.residentCount();
}

bool SceneRenderer::lastTimePointWasResident() const
{
    return m_impl->surface.lastTimePointWasResident();
}

void SceneRenderer::Impl::placeVolume(const Volume& volume, const std::function<void()>& upload)
{
    // A volume the GPU cannot hold is refused before anything is uploaded.
    const GpuMemoryAdmission admission(volume, memoryFigures());
    // Everything that may throw comes first: the ray caster's program, the upload and the
    // pyramids. Until the surface has taken the new volume, both passes hold the previous one.
    // The driver's or the system's out-of-memory ends the same way as the check above.
    raycaster.prepare(samplerKindFor(volume.type()));
    slicePlanes.prepare(samplerKindFor(volume.type()));
    preview.release(); // before the upload: made again from the new volume when asked
    try {
        upload();
    } catch (const GpuMemoryError& e) {
        throw admission.uploadFailed(e);
    } catch (const std::bad_alloc&) {
        throw admission.systemOutOfMemory();
    }
    raycaster.setVolume(surface.raycastVolume()); // cannot throw after prepare()
    if (const auto limit = admission.meshByteLimit(surface.memoryUse()))
        surface.setMeshByteLimit(*limit);
    volumeIndexToPhysical = volume.geometry().indexToPhysical();
    volumeGeometry = volume.geometry();
    outsideWinding = volume.geometry().isMirrored() ? GL_CW : GL_CCW;
    cropOutline.setGeometry(volume.geometry());
    volumeDims = volume.dims();
    // The next scene is applied whole: its surfaces, crop and transfer function.
    layers.clear();
    liveId.reset();
    transferFunction.reset();
    renderedIsovalue.reset();
    storedProgram.setVolume(volume.dims(), volume.geometry());
    markStoredStale();
    stored.clearMeshes();                    // of the previous volume
    labels.setLabelMap(nullptr, VoxelBox{}); // a label map belongs to its volume's grid
}

std::uint64_t SceneRenderer::Impl::residentBudget() const
{
    const GpuMemoryUse use = surface.memoryUse();
    const std::uint64_t inUse = std::uint64_t(use.volumeTextureBytes) + use.pyramidBytes +
                                use.meshBytes + surface.residentBytes();
    if (memoryBudget != 0) return memoryBudget > inUse ? memoryBudget - inUse : 0;
    // Half of what the GPU has free; a GPU that does not say (llvmpipe: system memory) keeps
    // up to 1 GiB of time points.
    if (const std::optional<std::uint64_t> free = availableGpuMemory())
        return surface.residentBytes() + *free / 2;
    return std::uint64_t(1) << 30;
}

VoxelBox SceneRenderer::crop() const
{
    return m_impl->surface.crop();
}

bool SceneRenderer::hasVolume() const
{
    return m_impl->surface.hasVolume();
}

std::size_t SceneRenderer::brickCount() const
{
    return m_impl->surface.brickCount();
}

std::size_t SceneRenderer::backFaceCulledSurfaces() const
{
    return m_impl->culledSurfaces;
}

bool SceneRenderer::surfaceUnconfirmed() const
{
    const Impl& d = *m_impl;
    switch (d.drawnWithoutCounts) {
    case Impl::LiveMesh::Preview: return d.preview.drawUnconfirmed();
    case Impl::LiveMesh::Full: return d.surface.drawUnconfirmed();
    case Impl::LiveMesh::None: break;
    }
    return false;
}

void SceneRenderer::setScene(const Scene& scene)
{
    Impl& d = *m_impl;
    if (d.surface.hasVolume()) {
        const VoxelBox box = scene.crop && scene.crop->fitsIn(d.volumeDims)
                                 ? *scene.crop
                                 : VoxelBox::whole(d.volumeDims);
        if (!(box == d.surface.crop())) d.setCrop(box);
    }
    // The surfaces in their draw colours; the live one's isovalue is what extractIfChanged
    // compares with what the pyramid holds.
    std::vector<SurfaceLayer> layers;
    layers.reserve(scene.surfaces.size());
    for (const Surface& s : scene.surfaces.surfaces()) {
        layers.push_back(
            {s.id, s.isovalue, surfaceDrawColor(s, scene.transferFunction), s.opacity, s.visible});
    }
    const std::uint32_t live = scene.surfaces.selected().id;
    if (layers != d.layers || d.liveId != live) {
        d.layers = std::move(layers);
        d.liveId = live;
        d.stored.retain(d.layers, d.liveId); // the layers still listed and not live keep theirs
    }
    if (d.transferFunction != scene.transferFunction) {
        if (scene.transferFunction.size() > 0)
            d.raycaster.setTransferFunction(scene.transferFunction);
        d.transferFunction = scene.transferFunction;
    }
    d.labels.setLayer(scene.labels);
    d.sceneVolume = scene.volume;
    d.mode = scene.renderMode;
    d.orientationMarker = scene.orientationMarker;
    SlicePlaneSettings planes;
    planes.show =
        scene.slices.planesIn3D && scene.slices.arrangement != ViewArrangement::ThreeDOnly;
    for (int axis = 0; axis < 3; ++axis) // the nearest voxel plane; draw() clamps to the volume
        planes.index[axis] = std::uint32_t(std::max(0L, std::lround(scene.slices.crosshair[axis])));
    planes.windowCenter = scene.slices.window.center;
    planes.windowWidth = scene.slices.window.width;
    d.slicePlaneSettings = planes;
}

CapturedSurface SceneRenderer::capture(std::uint32_t surfaceId)
{
    Impl& d = *m_impl;
    CapturedSurface captured;
    if (d.liveId == surfaceId) {
        if (d.previewShown) d.extractIfChanged(); // the full surface, not the preview
        if (!d.renderedIsovalue) return {};
        captured.mesh = d.surface.capture();
        captured.isovalue = *d.renderedIsovalue;
    } else {
        const SurfaceLayerCache::StoredLayer* entry = d.stored.find(surfaceId);
        if (!entry || !entry->isovalue) return {};
        captured.mesh = entry->mesh.download();
        captured.isovalue = *entry->isovalue;
    }
    captured.crop = d.surface.crop();
    return captured;
}

void SceneRenderer::render(const FrameParams& params)
{
    Impl& d = *m_impl;
    const glm::ivec2 size = params.viewportSize;
    if (size.x <= 0 || size.y <= 0) return;
    d.target.resize(size);
    if (!d.target.complete) return;

    // The entry state every pass expects, whatever the host left (QPainter overlays leave
    // blending, scissoring, stencil or a colour mask behind); all of it comes back at the end.
    ScopedCapability noBlend(GL_BLEND, false);
    ScopedCapability noScissor(GL_SCISSOR_TEST, false);
    ScopedCapability noStencil(GL_STENCIL_TEST, false);
    ScopedCapability noCulling(GL_CULL_FACE, false);
    ScopedColorMask allChannels(true, true, true, true);
    ScopedDepthState depthWrites(GL_LESS, true);
    ScopedProgram noProgram(0);
    ScopedVertexArray noVertexArray(0);

    d.timers.beginFrame();
    d.culledSurfaces = 0;
    d.drawnWithoutCounts = Impl::LiveMesh::None;
    {
        ScopedFramebuffer framebuffer(d.target.withDepth.id());
        ScopedViewport viewport(0, 0, size.x, size.y);
        // Pass 1: the background.
        d.drawBackground(params);
        if (d.surface.hasVolume()) {
            // Pass 2: the slice planes, opaque with depth, before the volume: its rays stop at
            // the planes.
            d.slicePlanes.draw(d.surface.raycastVolume(), d.volumeDims,
                               params.projection * params.view, d.slicePlaneSettings);
            const bool surface = drawsSurfaces(d.mode);
            // Pass 3: the extraction of what changed (the live surface's preview in a preview
            // frame; made on its first use).
            // (The scene's volume is the uploaded one: the viewer asks for no frame before.)
            d.previewShown = params.previewLiveSurface && surface && d.shownLiveIsovalue() &&
                             d.sceneVolume && d.sceneVolume->dims() == d.volumeDims &&
                             d.preview.prepare(d.sceneVolume, d.surface.crop(), d.maxTextureSize);
            d.extractIfChanged(d.previewShown);
            if (d.previewShown && d.preview.meshError()) {
                // A preview whose mesh does not fit: the full surface rather than none.
                d.previewShown = false;
                d.extractIfChanged();
            }
            const bool volume = drawsVolume(d.mode);
            // Passes 4 to 6: the opaque surfaces, the volume up to their depth, the translucent
            // surfaces over both.
            if (surface) d.drawOpaqueSurfaces(params);
            if (volume) d.drawVolume(params);
            if (surface) d.drawTranslucentSurfaces(params);
            // Pass 7: the crop box's edges and handles, over the frame.
            d.cropOutline.draw(d.surface.crop(), params.projection * params.view, size,
                               params.cropBox);
        }
        // Pass 8: the orientation marker in its corner, over everything.
        if (d.orientationMarker) d.marker.draw(params.view, size);
    }
    d.timers.endFrame();

    // Pass 9: the finished frame to the caller's framebuffer (blit).
    ScopedFramebuffer restore(0);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, d.target.withDepth.id());
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, GLuint(params.targetFramebuffer));
    glBlitFramebuffer(0, 0, size.x, size.y, 0, 0, size.x, size.y, GL_COLOR_BUFFER_BIT, GL_NEAREST);
}

void SceneRenderer::extractSurface()
{
    m_impl->extractIfChanged();
    m_impl->previewShown = false; // the calls below now mean the full surface
}

bool SceneRenderer::livePreviewShown() const
{
    return m_impl->previewShown;
}

std::optional<double> SceneRenderer::renderedIsovalue() const
{
    return m_impl->previewShown ? m_impl->preview.isovalue() : m_impl->renderedIsovalue;
}

std::uint64_t SceneRenderer::liveExtractions() const
{
    return m_impl->liveExtractions;
}

void SceneRenderer::setLabelMap(std::shared_ptr<const Volume> labelMap)
{
    Impl& d = *m_impl;
    if (labelMap) {
        if (!d.surface.hasVolume())
            throw InvalidInputError("a label map lies over a volume: open one first");
        if (labelMap->type() != ScalarType::UInt16) {
            throw InvalidInputError("a label map is drawn from uint16 labels (toLabelVolume)");
        }
        if (labelMap->dims() != d.volumeDims) {
            throw InvalidInputError("the label map's grid is not the volume's");
        }
    }
    d.labels.setLabelMap(std::move(labelMap), d.surface.crop());
}

std::uint64_t SceneRenderer::labelExtractions() const
{
    return m_impl->labels.extractions();
}

std::vector<LabelSurface> SceneRenderer::captureLabels()
{
    return m_impl->labels.capture();
}

std::uint32_t SceneRenderer::vertexCount()
{
    if (m_impl->previewShown) return m_impl->preview.vertexCount();
    return m_impl->renderedIsovalue ? m_impl->surface.vertexCount() : 0;
}

std::optional<std::uint32_t> SceneRenderer::pollVertexCount() const
{
    if (m_impl->previewShown) return m_impl->preview.pollVertexCount();
    return m_impl->surface.pollVertexCount();
}

std::optional<std::string> SceneRenderer::surfaceError() const
{
    if (!m_impl->renderedIsovalue || m_impl->previewShown) return std::nullopt;
    return m_impl->surface.meshError();
}

GpuMemoryUse SceneRenderer::memoryUse() const
{
    GpuMemoryUse use = m_impl->surface.memoryUse();
    use.meshBytes += m_impl->stored.meshBytes();
    const GpuMemoryUse preview = m_impl->preview.memoryUse();
    use.volumeTextureBytes += preview.volumeTextureBytes;
    use.pyramidBytes += preview.pyramidBytes;
    use.meshBytes += preview.meshBytes;
    const GpuMemoryUse labels = m_impl->labels.memoryUse();
    use.volumeTextureBytes += labels.volumeTextureBytes;
    use.pyramidBytes += labels.pyramidBytes;
    use.meshBytes += labels.meshBytes;
    return use;
}

FrameGpuTimes SceneRenderer::lastGpuTimes() const
{
    return m_impl->timers.last();
}

} // namespace isoview::gpu
