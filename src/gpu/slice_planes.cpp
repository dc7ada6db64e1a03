#include "gpu/slice_planes.h"

#include "gpu/gl_loader.h"
#include "gpu/gl_state.h"
#include "gpu/gpu_volume.h"
#include "gpu/shader_defines.h"
#include "gpu/texture_units.h"

#include <glm/gtc/type_ptr.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

namespace isoview::gpu {
namespace {

// The grid step of a copy subsampled from a volume of `volumeDims` (volume_slab's subsample:
// copy voxel c is voxel c * step), 1 when the copy is the volume itself or no step fits.
std::uint32_t subsampleStep(glm::uvec3 volumeDims, glm::uvec3 sampledDims)
{
    if (volumeDims == sampledDims || sampledDims.z == 0) return 1;
    const std::uint32_t largest = std::max({volumeDims.x, volumeDims.y, volumeDims.z});
    for (std::uint32_t step = 2; step <= largest; ++step)
        if ((volumeDims + step - 1u) / step == sampledDims) return step;
    return 1;
}

} // namespace

void SlicePlanes::prepare(SamplerKind kind)
{
    std::optional<ShaderProgram>& slot = m_programs[std::size_t(kind)];
    if (slot) return;
    ShaderProgram program(
        "slice planes",
        {{GL_VERTEX_SHADER, "slice_plane.vert"}, {GL_FRAGMENT_SHADER, "slice_plane.frag"}},
        engineShaderDefines(kind));
    program.setSamplerUnit("u_volume", units::kVolume);
    program.setSamplerUnit("u_sliceOrigins", units::kSliceOrigins);
    slot.emplace(std::move(program));
}

void SlicePlanes::draw(const GpuVolume& sampled, glm::uvec3 volumeDims,
                       const glm::mat4& physicalToClip, const SlicePlaneSettings& settings)
{
    if (!settings.show) return;
    const std::optional<ShaderProgram>& program = m_programs[std::size_t(sampled.samplerKind())];
    if (!program) return;
    const glm::uvec3 dims = sampled.dims();
    if (dims.x == 0 || dims.y == 0 || dims.z == 0) return;
    if (volumeDims.x == 0 || volumeDims.y == 0 || volumeDims.z == 0) volumeDims = dims;

    // The window in stored units, in double: a narrow window of a rescaled volume keeps its
    // digits. A negative slope gives a negative scale, which the shader's clamp handles.
    const ValueRescale& rescale = sampled.rescale();
    const double width = std::max(settings.windowWidth, 1e-12);
    const double low = rescale.toStored(settings.windowCenter - width / 2.0).value();
    const double high = rescale.toStored(settings.windowCenter + width / 2.0).value();
    const double span = high - low;
    const double scale =
        span != 0.0 && std::isfinite(span) ? 1.0 / span : std::numeric_limits<float>::max();

    const VolumeGeometry& geometry = sampled.geometry();
    const glm::mat4 indexToPhysical(geometry.indexToPhysical());
    const bool measuredSlices = geometry.hasSliceOrigins();
    const std::uint32_t step = subsampleStep(volumeDims, dims);

    std::array<GLuint, units::kSliceOrigins + 1> textures{};
    textures[units::kVolume] = sampled.texture().id();
    textures[units::kSliceOrigins] = sampled.sliceOriginsTexture();
    ScopedTextureUnits<textures.size()> bindTextures(textures);
    ScopedVertexArray vao(m_emptyVertexArray.id());
    ScopedCapability depthTest(GL_DEPTH_TEST, true);
    ScopedDepthState depth(GL_LESS, true);
    ScopedCapability noBlend(GL_BLEND, false);
    ScopedCapability noCulling(GL_CULL_FACE, false); // seen from both sides
    ScopedProgram use(program->id());

    const glm::ivec3 idims(dims);
    glUniform3i(program->uniform("u_volumeDims"), idims.x, idims.y, idims.z);
    glUniform1i(program->uniform("u_volumeTilesPerRow"),
                GLint(sampled.texture().layout().tilesPerRow));
    glUniformMatrix4fv(program->uniform("u_indexToPhysical"), 1, GL_FALSE,
                       glm::value_ptr(indexToPhysical));
    glUniform1i(program->uniform("u_hasSliceOrigins"), measuredSlices ? 1 : 0);
    glUniformMatrix4fv(program->uniform("u_physicalToClip"), 1, GL_FALSE,
                       glm::value_ptr(physicalToClip));
    glUniform2f(program->uniform("u_window"), float(low), float(scale));
    for (int axis = 0; axis < 3; ++axis) {
        // The plane's index in the sampled grid (a subsampled copy's nearest plane).
        const std::uint32_t wanted = std::min(settings.index[axis], volumeDims[axis] - 1);
        const auto index =
            std::min(std::uint32_t(std::lround(double(wanted) / step)), dims[axis] - 1);
        const GLint segments = axis != 2 && measuredSlices ? GLint(std::max(dims.z - 1, 1u)) : 1;
        glUniform1i(program->uniform("u_axis"), axis);
        glUniform1f(program->uniform("u_planeIndex"), float(index));
        glUniform1i(program->uniform("u_segments"), segments);
        glDrawArrays(GL_TRIANGLES, 0, 6 * segments);
    }
}

} // namespace isoview::gpu
