// The GPU engine's facade: everything the window, the CLI and the benchmarks do with the GPU
// goes through it. It owns the volume on the GPU (GpuVolume, uploaded once) and lends it to the
// HistoPyramid extraction and the ray caster, and draws one frame of a Scene (scene/scene.h): a
// background, the isosurfaces, direct volume rendering (ray casting through the same flat-3D
// texture with the transfer function) or both composited by depth, the slice planes, the crop
// box and an orientation marker. The window, the headless screenshots and the image tests all
// render through it, so what the tests see is what the user sees.
//
// The scene: setScene() takes the whole scene each frame and compares it with the one before,
// once, doing only what the difference asks for: a new live isovalue re-extracts the live
// surface alone, a changed surface that is not live is stored again, a new crop extracts every
// surface, a new transfer function is sampled again. Nothing is done in setScene() itself: the
// next render() or extractSurface() rebuilds the pyramid at most once, for the newest scene, so
// a slider drag never queues work behind itself.
//
// Units: every value the facade takes or gives is in the volume's REAL units (HU for CT), as
// the scene has it; the conversion to stored voxel values happens inside the engine, behind
// StoredValue (volume/stored_value.h).
//
// Contract: every call, the constructor and the destructor need the same OpenGL 3.3+ core
// context current. render() sets the GL state it needs itself (depth, blending, culling,
// scissor, colour mask, program, vertex array, framebuffer, viewport, texture units) and
// restores every state it changes, so it runs inside a host's frame (QOpenGLWidget) unchanged;
// it never throws and never waits for the GPU (timings and counts come from queries read a frame
// or more later). No GL type appears in this header.
//
// Example:
//   SceneRenderer renderer;
//   renderer.setVolume(volume);
//   Scene scene = Scene::withSurface(nullptr, 300.0); // HU
//   scene.transferFunction = defaultTransferFunction(volume);
//   renderer.setScene(scene);
//   renderer.render({.view = camera.viewMatrix(), .projection = camera.projectionMatrix(aspect),
//                    .viewportSize = {w, h}, .targetFramebuffer = fbo});
//   CapturedSurface shown = renderer.capture(scene.surfaces.selected().id); // for export
#pragma once

#include "extraction/iso_mesh.h"
#include "extraction/label_surface.h"
#include "extraction/voxel_box.h"
#include "gpu/gpu_info.h"
#include "scene/crop_box_handles.h"
#include "scene/frame_policy.h"
#include "scene/scene.h"
#include "scene/transfer_function.h"
#include "volume/volume.h"
#include "volume/volume_series.h"

#include <glm/glm.hpp>

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace isoview::gpu {

// How one frame is drawn, beyond the scene: the camera's matrices for this viewport, where the
// frame goes, and the volume rendering's quality for this frame.
struct FrameParams {
    glm::mat4 view{1.0f};       // physical -> view
    glm::mat4 projection{1.0f}; // view -> clip
    glm::ivec2 viewportSize{1, 1};
    // GL framebuffer name the frame ends up in (glBlitFramebuffer from the renderer's own
    // target, so it must be single-sampled, as QOpenGLWidget's is by default)
    unsigned int targetFramebuffer = 0;
    glm::vec3 backgroundTop{0.32f, 0.34f, 0.43f};
    glm::vec3 backgroundBottom{0.05f, 0.05f, 0.08f};
    // No background: the frame starts transparent and its alpha is what the scene covers, in
    // premultiplied colour (screenshots to lay over slides and papers).
    bool transparentBackground = false;
    // Ray-casting step in voxels, and the fraction of the viewport's resolution the volume
    // is ray cast at (the viewer lowers it while the user drags, for a fluid frame rate).
    float volumeStepVoxels = 0.5f;
    float volumeResolutionScale = 1.0f;
    // Headlight shading of the volume by its gradient: clearer shapes, about twice the cost
    // where the volume is not transparent.
    bool volumeShading = true;
    // The crop box's edges and face handles, over the frame (off by default): the handles'
    // hover state is the view's, not the scene's.
    CropBoxOverlay cropBox;
    // Draw the live surface from the volume at half the resolution (gpu/surface_preview.h), not
    // extracting the full one: for the frames of an isovalue drag when the full surface is slow
    // (a large CT on a software rasteriser). Volumes under SurfacePreview::kMinVoxels, and
    // volumes the GPU cannot halve, get the full surface. Captures always take the full one.
    bool previewLiveSurface = false;
    // A frame of an interactive drag: on a GPU the live surface is drawn without the CPU
    // waiting for its counts (SurfaceDrawParams::withoutCountWait). surfaceUnconfirmed() then
    // says whether the frame may lack it; the next frame of the same scene draws it whole.
    bool liveSurfaceWithoutCountWait = false;
};

// A surface's welded mesh as the GPU extracted it, with the isovalue and crop box it was
// extracted at (what print preparation needs to close it at the border, and what outlives the
// next frame's values).
struct CapturedSurface {
    IsoMesh mesh;          // index space
    double isovalue = 0.0; // real units
    VoxelBox crop;
};

class SceneRenderer {
public:
    struct Options {
        // Use only OpenGL 3.3 features even on a newer context (tests the floor).
        bool limitToGl33 = false;
        // Textures no larger than this many texels a side (0: the GPU's GL_MAX_TEXTURE_SIZE);
        // smaller limits make smaller volumes need bricks (tests of the bricked path).
        std::uint32_t maxTextureSize = 0;
        // GPU memory a volume may take, in bytes (0: what the GPU reports free, see
        // gl_loader's availableGpuMemory; no check where it reports nothing). With a budget,
        // what the volume leaves of it is the live surface's mesh buffers' (surfaceError()).
        std::uint64_t memoryBudgetBytes = 0;
        // Skip the back faces of an opaque surface where none can be seen: the crop box lies
        // wholly beyond the near plane and the surface is not open on any face of the box
        // turned to the camera (a CT's head cut open at its first and last slices, seen from
        // the side, qualifies). The frame is the same; llvmpipe sets up half the triangles.
        // Off only to compare against.
        bool cullHiddenBackFaces = true;
        // Draw surfaces as on a hardware GPU even on a software rasteriser
        // (IsosurfaceExtractor::Options::gpuDrawPath; tests that path on llvmpipe).
        bool gpuDrawPath = false;
    };

    // Compiles every program. Throws GlError / ShaderError.
    SceneRenderer();
    explicit SceneRenderer(const Options& options);
    ~SceneRenderer();
    SceneRenderer(const SceneRenderer&) = delete;
    SceneRenderer& operator=(const SceneRenderer&) = delete;

    const GlCapabilities& capabilities() const;

    // Uploads the volume (texture + pyramid; a volume too tall for one texture in bricks of
    // slices, each with its own, extracted as one seamless surface). Throws GlError naming the
    // limit when it cannot be placed; before any upload when it would need more GPU memory
    // than the GPU has free (or the budget allows), and when the driver runs out of memory
    // during the upload or the pyramid allocation (GL_OUT_OF_MEMORY), with a message that gives
    // the sizes and says what to do. The previous volume stays in every case. The scene given
    // next is applied whole (nothing of the previous volume's is kept).
    void setVolume(const Volume& volume);
    // Shows time point t of a series of volumes on one grid (scene/.. Scene::series). The first
    // of a series is placed as setVolume places a volume. After it, another time point's values
    // replace the shown one's: the surfaces, crop, transfer function and label map stay, every
    // surface is extracted again, nothing is allocated; the time point shown before stays on
    // the GPU (resident) while resident ones take at most half the free GPU memory (the budget
    // left over, with Options::memoryBudgetBytes; 1 GiB on a GPU that does not say), so
    // stepping back to it uploads nothing, and is dropped otherwise (streamed: uploaded again
    // when shown again). Throws as setVolume does; the shown time point stays then. Holds the
    // series until setVolume or another series.
    void setTimePoint(std::shared_ptr<const VolumeSeries> series, std::size_t t);
    // Time points of the series kept on the GPU besides the one shown.
    std::size_t residentTimePoints() const;
    // Whether the last setTimePoint found its time point on the GPU (no upload).
    bool lastTimePointWasResident() const;
    // setVolume's GPU memory check as it stands now, for a volume not read yet: the function
    // throws the GpuMemoryError setVolume would for a volume of that size and type, so that a
    // loader (io::LoadMonitor::admitVolume) refuses a 10 GB raw the GPU cannot hold from its
    // dimensions. It holds figures only (no GL): callable on any thread, later. On a software
    // rasteriser, whose textures share system memory, the volume's own copy, not read yet,
    // counts against the free memory too.
    using VolumeAdmission = std::function<void(glm::uvec3 dims, ScalarType type)>;
    VolumeAdmission volumeAdmission() const;
    bool hasVolume() const;
    // Slabs the volume is extracted in: 1 unless it is too tall for one texture.
    std::size_t brickCount() const;
    // The opaque surfaces the last render() drew with their back faces culled
    // (Options::cullHiddenBackFaces): not open towards the camera, the box beyond the near plane.
    std::size_t backFaceCulledSurfaces() const;

    // The crop box the surfaces are extracted in now (the whole volume after setVolume).
    VoxelBox crop() const;

    // The scene to draw from the next render() or extractSurface() on (the uploaded volume's;
    // scene.volume is the caller's and not looked at). Compared with the scene before and
    // recorded; the only GL work here is a new crop's pyramid allocation (no wait, no
    // extraction). Throws GlError when that allocation fails (the previous crop stays). What it
    // means:
    // - surfaces: each visible one drawn in its colour (its own, else the transfer function's
    //   at its isovalue). The live one (the selected) is extracted in the pyramid for each new
    //   isovalue; every other one is extracted once when its isovalue, the crop or the volume
    //   changes and then drawn from a stored copy of its mesh, so dragging one surface never
    //   re-extracts the others (storing one waits for the GPU, in that one frame). Hidden ones
    //   are neither drawn nor extracted until shown. Opaque ones (opacity >= 0.999) write depth
    //   and limit the rays; translucent ones are composited by weighted blended order-independent
    //   transparency after the volume rendering.
    // - crop: the cells the surfaces keep and the rays are clipped to (a box that does not fit
    //   the volume: the whole volume).
    // - transferFunction: sampled over the volume's real range into the ray caster's table when
    //   it changes; an empty one draws no volume.
    // - labels: the label map given to setLabelMap, each label drawn in its style (colour,
    //   opacity, shown) from one extraction per label map and crop; a style change updates a
    //   texture and extracts nothing. Opaque labels are drawn with the opaque surfaces,
    //   translucent ones with the translucent surfaces.
    // - renderMode, orientationMarker: what render() draws.
    // - slices: the three planes through the crosshair (rounded, clamped to the volume), in grey
    //   through the window, while planesIn3D is on and the arrangement shows slice views; the
    //   surfaces cut them and the volume's rays stop at them.
    // The camera is the caller's: render() takes its matrices (FrameParams).
    void setScene(const Scene& scene);

    void render(const FrameParams& params);

    // Rebuilds the pyramid for the newest isovalue if it is not extracted yet, without drawing
    // (what render() does first). GPU work only, no wait. For headless extraction: the live
    // surface's calls below mean the full surface after it, not a preview drawn before.
    void extractSurface();

    // One surface of the scene (its id) as last extracted, with the isovalue and crop it was
    // extracted at: the live one from the pyramid (at full resolution: after a preview frame it
    // is extracted first), another from its stored copy. An empty mesh
    // before its first extraction, or for a hidden or unknown surface. Waits for the GPU.
    // Throws GlError if the GPU fails.
    CapturedSurface capture(std::uint32_t surfaceId);

    // A segmentation over the volume (uint16 labels on the volume's grid, toLabelVolume), which
    // the scene's `labels` then styles; null forgets it. Uploaded now and extracted, every label
    // in one pass, by the next render() or extractSurface(). Throws InvalidInputError without a
    // volume, for another voxel type or another grid, and as setVolume does when the GPU cannot
    // hold it (the previous label map stays then).
    void setLabelMap(std::shared_ptr<const Volume> labelMap);
    // How often the label map has been extracted (once per label map and crop: styles never).
    std::uint64_t labelExtractions() const;
    // Every label's surface of the label map, one mesh per label (index space, ascending
    // labels, those with triangles). Waits for the GPU.
    std::vector<LabelSurface> captureLabels();

    // The calls below mean the live surface, as the last render() drew it: at half the
    // resolution after a frame with FrameParams::previewLiveSurface that drew the preview.
    // Whether the last render() drew the live surface's half-resolution preview.
    bool livePreviewShown() const;
    // Its isovalue (real units) as last extracted: what is on screen.
    std::optional<double> renderedIsovalue() const;
    // How many times it has been extracted since the renderer was made: a new isovalue once
    // (what tests and benchmarks count; a camera move extracts nothing).
    std::uint64_t liveExtractions() const;
    // Vertices (3 per triangle) of its last extraction. Waits for the GPU.
    std::uint32_t vertexCount();
    // The same count without waiting: nullopt while the GPU is still building the pyramid,
    // never a count of an earlier isovalue. For per-frame statistics.
    std::optional<std::uint32_t> pollVertexCount() const;
    // Why the last render() drew no live surface although it has one: its mesh does not fit in
    // GPU memory (or in what the budget leaves it); the message names the bytes. nullopt
    // otherwise.
    std::optional<std::string> surfaceError() const;
    // Whether the last render() drew the live surface (or its preview) without its counts
    // (FrameParams::liveSurfaceWithoutCountWait) and may lack it: render the scene again. Never
    // waits; exact once the GPU has the counts (after the frame's read-back), true before.
    bool surfaceUnconfirmed() const;
    // GPU memory of the volume texture, the pyramid and the stored surfaces' meshes.
    GpuMemoryUse memoryUse() const;
    // Collects the timer results that have completed since the last call (asks
    // GL_QUERY_RESULT_AVAILABLE first: never waits).
    FrameGpuTimes lastGpuTimes() const;

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

} // namespace isoview::gpu
