// Direct volume rendering by GPU ray casting: one ray per pixel through the flat-3D volume
// texture of the GpuVolume that the extraction reads too (the volume is on the GPU once),
// classified by a transfer-function lookup table and composited front to back over what the
// framebuffer holds. The rays stop at an opaque surface given as a depth texture, so volume in
// front of the isosurface is blended over it and nothing behind it shows
// (shaders/volume_raycast.frag). A crop box (setCrop) clips the rays: they enter and leave at
// its faces, so cropped-away voxels add nothing and shorter rays cost less.
//
// Transfer-function opacity is the opacity of a slab one reference length thick: the smallest
// voxel spacing, in millimetres. Each step's opacity is corrected for its physical length
// (alpha' = 1 - (1 - alpha)^(step / reference)), so the step size trades speed for accuracy
// without changing how opaque the volume looks.
//
// NOTE: rays run through the nominal index -> physical map. Stacks with per-slice origins
// (tilted or unevenly spaced) are ray cast as if regular: off by at most the deviation of a
// slice from its nominal place, while the isosurface keeps every slice where it was measured.
//
// Contract: internal to the engine (SceneRenderer drives it); every call needs the creating
// OpenGL 3.3+ core context current. Setup calls may throw (GlError, ShaderError); render()
// never throws, never waits for the GPU and restores every GL state it changes.
//
// Example:
//   VolumeRaycaster raycaster;
//   raycaster.setVolume(gpuVolume);          // borrowed: must outlive its use here
//   raycaster.setTransferFunction(tf);       // real units
//   raycaster.render(frame);
//
// Intensity projections (frame.projection) take the same rays, crop and stops, and keep each
// ray's maximum, minimum or mean of the interpolated values instead of compositing; the
// transfer function plays no part (radiology's MIP is windowed grey).
#pragma once

#include "extraction/voxel_box.h"
#include "gpu/gl_objects.h"
#include "gpu/shader_program.h"
#include "gpu/volume_texture.h"
#include "scene/transfer_function.h"
#include "volume/volume.h"

#include <glm/glm.hpp>

#include <array>
#include <optional>

namespace isoview::gpu {

class GpuVolume;

// How a ray becomes a pixel: composited through the transfer function front to back, or
// reduced to its maximum, minimum or mean value and shown grey through a window (intensity
// projections, opaque wherever the ray crosses the volume).
enum class RayProjection { Composite, Maximum, Minimum, Average };

struct RaycastFrame {
    glm::mat4 physicalToClip{1.0f};
    glm::ivec2 viewportSize{1, 1};
    // Colour-only framebuffer of viewportSize that the volume is blended into.
    GLuint targetFramebuffer = 0;
    // Window-space depth of the opaque surface, viewportSize, cleared to 1 where there is none.
    GLuint surfaceDepthTexture = 0;
    float stepVoxels = 0.5f;      // clamped to [kMinStepVoxels, kMaxStepVoxels]
    float resolutionScale = 1.0f; // clamped to [kMinResolutionScale, 1]
    bool shading = true;
    RayProjection projection = RayProjection::Composite;
    // The intensity projections' grey window, real units: center - width / 2 is black,
    // center + width / 2 white (width > 0; others show the whole real range).
    double windowCenter = 0.0;
    double windowWidth = 0.0;
};

class VolumeRaycaster {
public:
    static constexpr float kMinStepVoxels = 0.05f;
    static constexpr float kMaxStepVoxels = 8.0f;
    static constexpr float kMinResolutionScale = 0.1f;
    static constexpr std::size_t kLookupSize = 1024; // entries of the transfer-function table

    // Compiles the upscaling program. Throws GlError / ShaderError.
    VolumeRaycaster();
    ~VolumeRaycaster();
    VolumeRaycaster(const VolumeRaycaster&) = delete;
    VolumeRaycaster& operator=(const VolumeRaycaster&) = delete;

    // Compiles the ray-casting program for a volume sampler type (once per type). Throws
    // ShaderError. After it, setVolume with a texture of that type cannot throw.
    void prepare(SamplerKind kind);

    // Borrows the volume (until the next setVolume or the destructor) and re-samples the
    // transfer function over its real value range; the crop is the whole volume again. Throws
    // ShaderError only when prepare() was not called for the volume's sampler type and its
    // compile fails.
    void setVolume(const GpuVolume& volume);
    bool hasVolume() const { return m_volume != nullptr; }

    // Clips the rays to the box (voxel indices, inclusive) of a grid whose index -> physical
    // map is boxIndexToPhysical: the loaded volume's, which differs from the ray-cast volume's
    // when that is a subsampled copy (bricked volumes). The box is mapped into the ray-cast
    // volume's indices and clamped to it. Never throws; without a volume it does nothing.
    void setCrop(const VoxelBox& box, const glm::dmat4& boxIndexToPhysical);
    // The clip box in the ray-cast volume's indices (continuous, [0, dims - 1] uncropped).
    glm::vec3 clipFirst() const { return m_clipFirst; }
    glm::vec3 clipLast() const { return m_clipLast; }

    // Samples the function over the volume's real value range into the lookup texture
    // (kLookupSize RGBA entries); kept and re-sampled by later setVolume calls. Before any
    // transfer function the volume is transparent.
    void setTransferFunction(const TransferFunction& tf);
    bool hasTransferFunction() const { return m_transferFunction.has_value(); }

    // Ray casts into frame.targetFramebuffer, blended with (ONE, ONE_MINUS_SRC_ALPHA). Below
    // full resolution the rays go to an internal target first and are upscaled with linear
    // filtering. Does nothing without a volume, or when compositing without a transfer
    // function.
    void render(const RaycastFrame& frame);

private:
    void uploadLookup();
    // (a, b) with grey = stored * a + b for the window; the real range without a valid one.
    glm::vec2 storedToGrey(double center, double width) const;
    void ensureLowResolutionTarget(glm::ivec2 size);

    std::array<std::optional<ShaderProgram>, 3> m_programs; // by SamplerKind
    ShaderProgram m_composite;
    VertexArray m_emptyVertexArray = VertexArray::create();
    Texture m_lookup = Texture::create();
    Texture m_lowResColor = Texture::create();
    Framebuffer m_lowResFramebuffer = Framebuffer::create();
    glm::ivec2 m_lowResSize{0, 0};
    bool m_lowResComplete = false;

    const GpuVolume* m_volume = nullptr; // borrowed (SceneRenderer owns it)
    glm::mat4 m_indexToPhysical{1.0f};
    glm::vec3 m_indexExtent{0.0f}; // dims - 1
    glm::vec3 m_clipFirst{0.0f};   // the crop in the ray-cast volume's indices
    glm::vec3 m_clipLast{0.0f};
    std::optional<TransferFunction> m_transferFunction;
};

} // namespace isoview::gpu
