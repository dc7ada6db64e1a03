#include "gpu/volume_texture.h"

#include "core/error.h"
#include "gpu/gl_loader.h"
#include "gpu/gl_state.h"

#include <string>
#include <vector>

namespace isoview::gpu {
namespace {

struct TexelFormat {
    GLint internalFormat;
    GLenum format;
    GLenum type;
    std::size_t bytes;
};

TexelFormat texelFormatFor(ScalarType type)
{
    switch (type) {
    case ScalarType::UInt8: return {GL_R8UI, GL_RED_INTEGER, GL_UNSIGNED_BYTE, 1};
    case ScalarType::Int8: return {GL_R8I, GL_RED_INTEGER, GL_BYTE, 1};
    case ScalarType::UInt16: return {GL_R16UI, GL_RED_INTEGER, GL_UNSIGNED_SHORT, 2};
    case ScalarType::Int16: return {GL_R16I, GL_RED_INTEGER, GL_SHORT, 2};
    case ScalarType::UInt32: return {GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, 4};
    case ScalarType::Int32: return {GL_R32I, GL_RED_INTEGER, GL_INT, 4};
    case ScalarType::Float32:
    case ScalarType::Float64: return {GL_R32F, GL_RED, GL_FLOAT, 4};
    }
    return {GL_R8UI, GL_RED_INTEGER, GL_UNSIGNED_BYTE, 1};
}

} // namespace

std::string_view samplerTypeName(SamplerKind kind)
{
    switch (kind) {
    case SamplerKind::Unsigned: return "usampler2D";
    case SamplerKind::Signed: return "isampler2D";
    case SamplerKind::Float: return "sampler2D";
    }
    return "sampler2D";
}

SamplerKind samplerKindFor(ScalarType type)
{
    switch (type) {
    case ScalarType::UInt8:
    case ScalarType::UInt16:
    case ScalarType::UInt32: return SamplerKind::Unsigned;
    case ScalarType::Int8:
    case ScalarType::Int16:
    case ScalarType::Int32: return SamplerKind::Signed;
    case ScalarType::Float32:
    case ScalarType::Float64: return SamplerKind::Float;
    }
    return SamplerKind::Float;
}

VolumeTexture::VolumeTexture(const Volume& volume, std::uint32_t maxTextureSize)
    : m_texture(Texture::create()),
      m_layout(Flat3DLayout::forVolume(volume.dims(), maxTextureSize)), m_dims(volume.dims()),
      m_samplerKind(samplerKindFor(volume.type()))
{
    const TexelFormat fmt = texelFormatFor(volume.type());
    const glm::uvec2 size = m_layout.textureSize();
    m_bytes = std::size_t(size.x) * size.y * fmt.bytes;

    ScopedTextureBinding bind(m_texture.id());
    m_texture.label("isoview volume (flat-3D)");
    // Integer textures must not filter: nearest keeps them complete for texelFetch.
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, 0);
    glTexImage2D(GL_TEXTURE_2D, 0, fmt.internalFormat, GLsizei(size.x), GLsizei(size.y), 0,
                 fmt.format, fmt.type, nullptr);
    // Out of memory shows here, before a slice is sent to a texture that has no storage.
    throwOnGlAllocationError("the volume texture of " + std::to_string(size.x) + "x" +
                                 std::to_string(size.y) + " texels",
                             m_bytes);
    // Rows of odd-width 8/16-bit slices are not 4-byte aligned.
    ScopedPixelStore alignment(GL_UNPACK_ALIGNMENT, 1);

    const glm::uvec3 d = volume.dims();
    const std::size_t sliceVoxels = std::size_t(d.x) * d.y;
    std::vector<float> converted; // float64 slices, converted one at a time
    for (std::uint32_t z = 0; z < d.z; ++z) {
        const glm::uvec2 origin = m_layout.texelOf({0, 0, z});
        const void* pixels = nullptr;
        if (volume.type() == ScalarType::Float64) {
            converted.resize(sliceVoxels);
            for (std::size_t i = 0; i < sliceVoxels; ++i) {
                converted[i] = volume.valueAt(z * sliceVoxels + i);
            }
            pixels = converted.data();
        } else {
            pixels = volume.bytes() + z * sliceVoxels * scalarSize(volume.type());
        }
        glTexSubImage2D(GL_TEXTURE_2D, 0, GLint(origin.x), GLint(origin.y), GLsizei(d.x),
                        GLsizei(d.y), fmt.format, fmt.type, pixels);
    }
    throwOnGlError("uploading the volume texture");
}

} // namespace isoview::gpu
