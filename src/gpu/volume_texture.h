// The volume on the GPU: one flat-3D 2D texture (src/extraction/flat3d_layout.h) whose texels keep
// the voxels' exact values: R8UI/R8I, R16UI/R16I, R32UI/R32I for integers, R32F for floats
// (float64 volumes are converted to float32, as Volume::valueAt converts them on the CPU).
//
// GL side effects: creates one texture; upload changes GL_UNPACK_ALIGNMENT and the texture
// binding of the active unit and restores both. Cost: one upload of the whole volume.
#pragma once

#include "extraction/flat3d_layout.h"
#include "gpu/gl_objects.h"
#include "volume/volume.h"

#include <cstddef>
#include <string_view>

namespace isoview::gpu {

// Which GLSL sampler type reads the texture.
enum class SamplerKind { Unsigned, Signed, Float };

std::string_view samplerTypeName(SamplerKind kind); // "usampler2D", "isampler2D", "sampler2D"
SamplerKind samplerKindFor(ScalarType type);

class VolumeTexture {
public:
    // Uploads the volume. Throws GlError (naming GL_MAX_TEXTURE_SIZE) when no flat-3D tiling
    // fits, GpuMemoryError (gl_loader.h) when the driver is out of memory for the texture, and
    // GlError when it rejects the allocation or the upload otherwise.
    VolumeTexture(const Volume& volume, std::uint32_t maxTextureSize);

    GLuint id() const { return m_texture.id(); }
    const Flat3DLayout& layout() const { return m_layout; }
    glm::uvec3 dims() const { return m_dims; }
    SamplerKind samplerKind() const { return m_samplerKind; }
    std::size_t bytes() const { return m_bytes; }

private:
    Texture m_texture;
    Flat3DLayout m_layout;
    glm::uvec3 m_dims;
    SamplerKind m_samplerKind;
    std::size_t m_bytes = 0;
};

} // namespace isoview::gpu
