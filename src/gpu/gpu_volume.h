// The volume on the GPU, uploaded once and shared by every pass that reads voxels: the flat-3D
// texture of exact voxel values (VolumeTexture), the per-slice origins of tilted or unevenly
// spaced stacks (a D x 1 RGBA32F texture; one unused texel for regular grids, so the sampler is
// always complete), and what the passes need to know of the volume on the CPU (geometry,
// rescale, value range), so that no pass keeps its own copy.
//
// Ownership: SceneRenderer owns it and lends it (by reference) to the HistoPyramid extraction
// and the ray caster; they keep the reference until their next setVolume, so SceneRenderer
// replaces it only after both have moved to the new one.
//
// Contract: construction, use and destruction need the creating OpenGL 3.3+ core context
// current. Construction throws GlError naming the limit when no flat-3D tiling fits
// GL_MAX_TEXTURE_SIZE, and leaves no GL state changed (bindings and unpack alignment are
// restored). Cost: one upload of the whole volume.
//
// Example:
//   GpuVolume gpuVolume(volume, capabilities.maxTextureSize);
//   extractor.setVolume(gpuVolume);
//   raycaster.setVolume(gpuVolume);
#pragma once

#include "extraction/block_ranges.h"
#include "gpu/gl_objects.h"
#include "gpu/volume_texture.h"
#include "volume/volume.h"

#include <cstddef>
#include <cstdint>

namespace isoview::gpu {

class GpuVolume {
public:
    GpuVolume(const Volume& volume, std::uint32_t maxTextureSize);
    GpuVolume(const GpuVolume&) = delete;
    GpuVolume& operator=(const GpuVolume&) = delete;

    const VolumeTexture& texture() const { return m_texture; }
    GLuint sliceOriginsTexture() const { return m_sliceOrigins.id(); }
    glm::uvec3 dims() const { return m_texture.dims(); }
    SamplerKind samplerKind() const { return m_texture.samplerKind(); }
    const VolumeGeometry& geometry() const { return m_geometry; }
    const ValueRescale& rescale() const { return m_rescale; }
    // The real (rescaled) value range, widened to a non-empty interval for constant volumes.
    ValueRange realRange() const { return m_realRange; }
    // A real value in the stored units the shaders compare voxels with.
    StoredValue toStored(double real) const { return m_rescale.toStored(real); }
    std::uint64_t voxelCount() const;
    // The value range of every pyramid block (PyramidLayout's blocks of this volume), for the
    // builds to skip blocks an isovalue cannot cross.
    const BlockRanges& blockRanges() const { return m_blockRanges; }
    // GPU memory of the voxel texture and the slice origins, in bytes.
    std::size_t bytes() const;

private:
    VolumeTexture m_texture;
    Texture m_sliceOrigins = Texture::create();
    std::size_t m_sliceOriginBytes = 0;
    VolumeGeometry m_geometry;
    ValueRescale m_rescale;
    ValueRange m_realRange;
    BlockRanges m_blockRanges;
};

} // namespace isoview::gpu
