// The GPU engine's facade: everything the window, the CLI and the benchmarks do with the GPU
// goes through it. It owns the volume on the GPU (GpuVolume, uploaded once) and lends it to the
// HistoPyramid extraction and the ray caster, and draws one frame of the viewer's scene: a
// background, the isosurface, direct volume rendering (ray casting through the same flat-3D
// texture with the transfer function) or both composited by depth, and an orientation marker.
// The window, the headless screenshots and the image tests all render through it, so what the
// tests see is what the user sees.
//
// Units: isovalues and transfer functions are in the volume's REAL units (HU for CT); the
// conversion to stored voxel values happens here, once.
//
// Per frame: setIsovalue() only records the newest value; render() rebuilds the pyramid at most
// once, for the newest value, so a slider drag never queues work behind itself. Without a
// window, extractSurface() does the same rebuild without drawing.
//
// Contract: every call, the constructor and the destructor need the same OpenGL 3.3+ core
// context current. render() sets the GL state it needs itself (depth, blending, culling,
// scissor, colour mask, program, vertex array, framebuffer, viewport, texture units) and
// restores every state it changes, so it runs inside a host's frame (QOpenGLWidget) unchanged;
// it never throws and never waits for the GPU (timings and counts come from queries read a frame
// or more later). No GL type appears in this header.
//
// Example:
//   SceneRenderer scene;
//   scene.setVolume(volume);
//   scene.setTransferFunction(defaultTransferFunction(volume));
//   scene.setIsovalue(300.0); // HU
//   scene.render({.view = camera.viewMatrix(), .projection = camera.projectionMatrix(aspect),
//                 .viewportSize = {w, h}, .targetFramebuffer = fbo});
//   IsoMesh mesh = scene.capture(); // the surface on screen, for export
#pragma once

#include "extraction/iso_mesh.h"
#include "extraction/voxel_box.h"
#include "gpu/gpu_info.h"
#include "scene/crop_box_handles.h"
#include "scene/frame_policy.h"
#include "scene/scene.h"
#include "scene/transfer_function.h"
#include "volume/volume.h"

#include <glm/glm.hpp>

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace isoview::gpu {

// The slice views' three planes in the 3D view (i = index.x, j = index.y, k = index.z; clamped
// to the volume), in grey through a window/level in real units, opaque: the surface cuts them
// and the volume's rays stop at them.
struct SlicePlaneSettings {
    bool show = false;
    glm::uvec3 index{0};
    double windowCenter = 40.0; // real units
    double windowWidth = 400.0; // > 0
};

struct SceneParams {
    glm::mat4 view{1.0f};       // physical -> view
    glm::mat4 projection{1.0f}; // view -> clip
    glm::ivec2 viewportSize{1, 1};
    // GL framebuffer name the frame ends up in (glBlitFramebuffer from the renderer's own
    // target, so it must be single-sampled, as QOpenGLWidget's is by default)
    unsigned int targetFramebuffer = 0;
    RenderMode mode = RenderMode::Surface;
    glm::vec3 surfaceColor{0.9f, 0.85f, 0.75f};
    glm::vec3 backgroundTop{0.32f, 0.34f, 0.43f};
    glm::vec3 backgroundBottom{0.05f, 0.05f, 0.08f};
    bool orientationMarker = true;
    // Ray-casting step in voxels, and the fraction of the viewport's resolution the volume
    // is ray cast at (the viewer lowers it while the user drags, for a fluid frame rate).
    float volumeStepVoxels = 0.5f;
    float volumeResolutionScale = 1.0f;
    // Headlight shading of the volume by its gradient: clearer shapes, about twice the cost
    // where the volume is not transparent.
    bool volumeShading = true;
    SlicePlaneSettings slicePlanes;
    // The crop box's edges and face handles, over the frame (off by default).
    CropBoxOverlay cropBox;
};

// One isosurface of the scene. ids are the caller's, stable across calls.
struct SurfaceLayer {
    std::uint32_t id = 0;
    double isovalue = 0.0;               // real units
    glm::vec3 color{0.9f, 0.85f, 0.75f}; // linear RGB
    float opacity = 1.0f;                // 1: opaque; less: translucent (order-independent)
    bool visible = true;
    bool operator==(const SurfaceLayer&) const = default;
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
    // the sizes and says what to do. The previous volume stays in every case. The isovalue
    // must be set again afterwards.
    void setVolume(const Volume& volume);
    bool hasVolume() const;
    // Slabs the volume is extracted in: 1 unless it is too tall for one texture.
    std::size_t brickCount() const;
    // The opaque surfaces the last render() drew with their back faces culled
    // (Options::cullHiddenBackFaces): not open towards the camera, the box beyond the near plane.
    std::size_t backFaceCulledSurfaces() const;

    // Limits the surface to the cells inside the box (voxel indices, inclusive; the whole
    // volume after setVolume) and clips the volume rendering's rays to it. Throws Error when the
    // box does not lie in the volume. The next render() or extractSurface() extracts again.
    void setCrop(const VoxelBox& box);
    VoxelBox crop() const;

    // Real units. Recorded only; the next render() or extractSurface() extracts it. With
    // several surfaces: the live layer's isovalue.
    void setIsovalue(double isovalue);

    // The surfaces to draw. The live one (liveId: the one the slider edits) is extracted in the
    // pyramid for each new isovalue; every other one is extracted once when its isovalue, the
    // crop or the volume changes and then drawn from a stored copy of its mesh, so dragging one
    // surface never re-extracts the others. Recorded only; the next render()/extractSurface()
    // does the work. After this call SceneParams::surfaceColor is not used; setIsovalue(v)
    // sets the live layer's isovalue. Before any call: one live layer (id 0) with
    // setIsovalue's value and SceneParams::surfaceColor, as today. Invisible layers are neither
    // drawn nor extracted until shown. Opaque layers (opacity >= 0.999) write depth and limit
    // the rays; translucent ones are composited by weighted blended order-independent
    // transparency AFTER the volume rendering (the volume is not interleaved with them).
    // An unknown liveId or nullopt: no live layer, every layer is stored. Storing a layer
    // extracts it in the pyramid and copies its mesh (waits for the GPU, in that one frame),
    // then the live one is extracted again.
    void setSurfaces(const std::vector<SurfaceLayer>& layers, std::optional<std::uint32_t> liveId);
    // The welded mesh of one layer at the isovalue it was last extracted at (empty if none yet
    // or unknown id); waits for the GPU. Throws GlError if the GPU fails.
    IsoMesh capture(std::uint32_t layerId);
    // Its isovalue as extracted (real units), nullopt before its first extraction.
    std::optional<double> extractedIsovalue(std::uint32_t layerId) const;
    // Sampled over the volume's real value range into the ray caster's lookup table (kept and
    // re-sampled for later volumes).
    void setTransferFunction(const TransferFunction& tf);

    void render(const SceneParams& params);

    // Rebuilds the pyramid for the newest isovalue if it is not extracted yet, without drawing
    // (what render() does first). GPU work only, no wait. For headless extraction.
    void extractSurface();

    // The single-surface calls below mean the live layer.
    // The isovalue (real units) of the last extraction: what is on screen.
    std::optional<double> renderedIsovalue() const;
    // Vertices (3 per triangle) of the last extraction. Waits for the GPU.
    std::uint32_t vertexCount();
    // The same count without waiting: nullopt while the GPU is still building the pyramid,
    // never a count of an earlier isovalue. For per-frame statistics.
    std::optional<std::uint32_t> pollVertexCount() const;
    // Why the last render() drew no live surface although it has one: its mesh does not fit in
    // GPU memory (or in what the budget leaves it); the message names the bytes. nullopt
    // otherwise.
    std::optional<std::string> surfaceError() const;
    // The surface of the last extraction as a welded mesh (positions in index space, normals
    // physical); empty before any. Waits for the GPU. Throws GlError if the GPU fails.
    IsoMesh capture();
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
