#include "gpu/gpu_volume.h"

#include "extraction/pyramid_layout.h"
#include "gpu/gl_state.h"

#include <vector>

namespace isoview::gpu {

GpuVolume::GpuVolume(const Volume& volume, std::uint32_t maxTextureSize)
    : m_texture(volume, maxTextureSize), m_geometry(volume.geometry()), m_rescale(volume.rescale())
{
    m_realRange = volume.realRange();
    if (!(m_realRange.max > m_realRange.min)) m_realRange.max = m_realRange.min + 1.0;
    m_blockRanges = BlockRanges::compute(volume, PyramidLayout::blockCountFor(volume.dims()));

    std::vector<glm::vec4> texels;
    texels.reserve(m_geometry.sliceOrigins.size());
    for (const glm::dvec3& o : m_geometry.sliceOrigins)
        texels.emplace_back(glm::vec3(o), 1.0f);
    if (texels.empty()) texels.emplace_back(0.0f);
    m_sliceOriginBytes = texels.size() * sizeof(glm::vec4);
    ScopedTextureBinding bind(m_sliceOrigins.id());
    m_sliceOrigins.label("slice origins");
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, 0);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA32F, GLsizei(texels.size()), 1, 0, GL_RGBA, GL_FLOAT,
                 texels.data());
}

std::uint64_t GpuVolume::voxelCount() const
{
    const glm::uvec3 d = dims();
    return std::uint64_t(d.x) * d.y * d.z;
}

std::size_t GpuVolume::bytes() const
{
    return m_texture.bytes() + m_sliceOriginBytes;
}

} // namespace isoview::gpu
