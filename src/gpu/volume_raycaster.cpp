#include "gpu/volume_raycaster.h"

#include "gpu/gl_loader.h"
#include "gpu/gl_state.h"
#include "gpu/gpu_volume.h"
#include "gpu/shader_defines.h"
#include "gpu/texture_units.h"

#include <glm/gtc/type_ptr.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

namespace isoview::gpu {
namespace {

// Units of the ray caster's own samplers, after the extraction's (which it shares for the
// volume: u_volume stays on units::kVolume).
constexpr int kLookupUnit = units::kCount;
constexpr int kSurfaceDepthUnit = units::kCount + 1;
constexpr int kLowResImageUnit = units::kCount + 2;
constexpr std::size_t kUnitCount = units::kCount + 3;

void setTextureSampling(GLenum filter)
{
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GLint(filter));
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GLint(filter));
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, 0);
}

} // namespace

VolumeRaycaster::VolumeRaycaster()
    : m_composite("volume composite",
                  {{GL_VERTEX_SHADER, "fullscreen_triangle.vert"},
                   {GL_FRAGMENT_SHADER, "volume_composite.frag"}},
                  engineShaderDefines(SamplerKind::Unsigned))
{
    m_composite.setSamplerUnit("u_image", kLowResImageUnit);
    {
        ScopedTextureBinding bind(m_lookup.id());
        m_lookup.label("transfer function lookup");
        setTextureSampling(GL_LINEAR);
        // Transparent until a transfer function arrives.
        const std::vector<glm::vec4> transparent(kLookupSize, glm::vec4(0.0f));
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA32F, GLsizei(kLookupSize), 1, 0, GL_RGBA, GL_FLOAT,
                     transparent.data());
    }
    throwOnGlError("setting up the volume ray caster");
}

VolumeRaycaster::~VolumeRaycaster() = default;

void VolumeRaycaster::prepare(SamplerKind kind)
{
    std::optional<ShaderProgram>& slot = m_programs[std::size_t(kind)];
    if (slot) return;
    ShaderProgram program("volume raycast",
                          {{GL_VERTEX_SHADER, "fullscreen_triangle.vert"},
                           {GL_FRAGMENT_SHADER, "volume_raycast.frag"}},
                          engineShaderDefines(kind));
    program.setSamplerUnit("u_volume", units::kVolume);
    program.setSamplerUnit("u_sliceOrigins", units::kSliceOrigins);
    program.setSamplerUnit("u_transferFunction", kLookupUnit);
    program.setSamplerUnit("u_surfaceDepth", kSurfaceDepthUnit);
    slot.emplace(std::move(program));
}

void VolumeRaycaster::setVolume(const GpuVolume& volume)
{
    prepare(volume.samplerKind());
    const VolumeGeometry& geometry = volume.geometry();
    m_indexToPhysical = glm::mat4(geometry.indexToPhysical());
    const glm::mat3 gradientToPhysical(geometry.gradientToPhysical());
    m_indexExtent = glm::vec3(volume.dims()) - 1.0f;
    m_clipFirst = glm::vec3(0.0f);
    m_clipLast = m_indexExtent;
    const glm::dmat3 linear(geometry.indexToPhysical());
    double reference =
        std::min({glm::length(linear[0]), glm::length(linear[1]), glm::length(linear[2])});
    const float referenceLength =
        reference > 0.0 && std::isfinite(reference) ? float(reference) : 1.0f;
    m_volume = &volume;

    const ShaderProgram& program = *m_programs[std::size_t(volume.samplerKind())];
    ScopedProgram use(program.id());
    const glm::ivec3 dims(volume.dims());
    glUniform3i(program.uniform("u_volumeDims"), dims.x, dims.y, dims.z);
    glUniform1i(program.uniform("u_volumeTilesPerRow"),
                GLint(volume.texture().layout().tilesPerRow));
    glUniformMatrix4fv(program.uniform("u_indexToPhysical"), 1, GL_FALSE,
                       glm::value_ptr(m_indexToPhysical));
    glUniformMatrix3fv(program.uniform("u_gradientToPhysical"), 1, GL_FALSE,
                       glm::value_ptr(gradientToPhysical));
    // lookup coordinate = (stored * slope + intercept - realMin) / (realMax - realMin)
    const ValueRange real = volume.realRange();
    const ValueRescale& rescale = volume.rescale();
    const double width = real.max - real.min;
    glUniform2f(program.uniform("u_valueToLut"), float(rescale.slope / width),
                float((rescale.intercept - real.min) / width));
    glUniform1f(program.uniform("u_referenceLength"), referenceLength);
    if (m_transferFunction) uploadLookup();
}

void VolumeRaycaster::setCrop(const VoxelBox& box, const glm::dmat4& boxIndexToPhysical)
{
    if (m_volume == nullptr) return;
    const glm::dmat4 boxToIndex =
        glm::inverse(glm::dmat4(m_volume->geometry().indexToPhysical())) * boxIndexToPhysical;
    const glm::dvec3 a(boxToIndex * glm::dvec4(glm::dvec3(box.first), 1.0));
    const glm::dvec3 b(boxToIndex * glm::dvec4(glm::dvec3(box.last), 1.0));
    const glm::vec3 extent = m_indexExtent;
    const auto clampToVolume = [extent](glm::dvec3 p) {
        const glm::vec3 f(p);
        // A singular or non-finite map clips nothing rather than everything.
        if (!glm::all(glm::equal(f, f)) || glm::any(glm::isinf(f))) return glm::vec3(-1.0f);
        return glm::clamp(f, glm::vec3(0.0f), extent);
    };
    const glm::vec3 lo = clampToVolume(glm::min(a, b));
    const glm::vec3 hi = clampToVolume(glm::max(a, b));
    const bool valid = glm::all(glm::greaterThanEqual(lo, glm::vec3(0.0f))) &&
                       glm::all(glm::greaterThanEqual(hi, glm::vec3(0.0f)));
    m_clipFirst = valid ? lo : glm::vec3(0.0f);
    m_clipLast = valid ? hi : extent;
}

void VolumeRaycaster::setTransferFunction(const TransferFunction& tf)
{
    m_transferFunction = tf;
    if (m_volume) uploadLookup();
}

void VolumeRaycaster::uploadLookup()
{
    const std::vector<glm::vec4> table = m_transferFunction->sample(
        m_volume->realRange().min, m_volume->realRange().max, kLookupSize);
    ScopedPixelStore alignment(GL_UNPACK_ALIGNMENT, 4);
    ScopedTextureBinding bind(m_lookup.id());
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, GLsizei(table.size()), 1, GL_RGBA, GL_FLOAT,
                    table.data());
}

glm::vec2 VolumeRaycaster::storedToGrey(double center, double width) const
{
    const ValueRescale& rescale = m_volume->rescale();
    double low = center - width / 2.0;
    if (!(width > 0.0) || !std::isfinite(width) || !std::isfinite(low)) {
        low = m_volume->realRange().min; // no usable window: the whole real range
        width = std::max(m_volume->realRange().max - low, 1e-30);
    }
    // grey = (stored * slope + intercept - low) / width
    return {float(rescale.slope / width), float((rescale.intercept - low) / width)};
}

void VolumeRaycaster::ensureLowResolutionTarget(glm::ivec2 size)
{
    if (size == m_lowResSize) return;
    m_lowResSize = size;
    {
        ScopedTextureBinding bind(m_lowResColor.id());
        setTextureSampling(GL_LINEAR);
        // Half floats: premultiplied colour of faint volumes keeps its precision.
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA16F, size.x, size.y, 0, GL_RGBA, GL_HALF_FLOAT,
                     nullptr);
    }
    ScopedFramebuffer bind(m_lowResFramebuffer.id());
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, m_lowResColor.id(),
                           0);
    m_lowResFramebuffer.label("volume low resolution");
    m_lowResComplete = glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
}

void VolumeRaycaster::render(const RaycastFrame& frame)
{
    // Compositing needs the transfer function; the projections only the window.
    if (!m_volume || (frame.projection == RayProjection::Composite && !m_transferFunction)) return;
    if (frame.viewportSize.x <= 0 || frame.viewportSize.y <= 0) return;
    const std::optional<ShaderProgram>& program = m_programs[std::size_t(m_volume->samplerKind())];
    if (!program) return;

    const float step = std::clamp(std::isfinite(frame.stepVoxels) ? frame.stepVoxels : 0.5f,
                                  kMinStepVoxels, kMaxStepVoxels);
    const float scale =
        std::clamp(std::isfinite(frame.resolutionScale) ? frame.resolutionScale : 1.0f,
                   kMinResolutionScale, 1.0f);
    const glm::ivec2 fullSize = frame.viewportSize;
    const glm::ivec2 rayGrid = glm::max(glm::ivec2(glm::round(glm::vec2(fullSize) * scale)), 1);
    bool lowRes = rayGrid != fullSize;
    if (lowRes) {
        ensureLowResolutionTarget(rayGrid);
        lowRes = m_lowResComplete; // else ray cast at full size rather than show nothing
    }
    const glm::ivec2 raySize = lowRes ? rayGrid : fullSize;

    // In double: perspective matrices with a far near/far ratio lose digits when inverted.
    const glm::mat4 clipToIndex(
        glm::inverse(glm::dmat4(frame.physicalToClip) * glm::dmat4(m_indexToPhysical)));
    // The longest ray through the crop box: its diagonal.
    const int maxSteps = int(std::ceil(glm::length(m_clipLast - m_clipFirst) / step)) + 2;

    std::array<GLuint, kUnitCount> textures{};
    textures[units::kVolume] = m_volume->texture().id();
    textures[kLookupUnit] = m_lookup.id();
    textures[kSurfaceDepthUnit] = frame.surfaceDepthTexture;
    textures[kLowResImageUnit] = lowRes ? m_lowResColor.id() : 0;
    ScopedTextureUnits<kUnitCount> bindTextures(textures);
    ScopedVertexArray vao(m_emptyVertexArray.id());
    ScopedCapability noDepthTest(GL_DEPTH_TEST, false);
    ScopedCapability noCulling(GL_CULL_FACE, false);
    ScopedCapability noScissor(GL_SCISSOR_TEST, false);
    ScopedBlendFunc premultiplied(GL_ONE, GL_ONE_MINUS_SRC_ALPHA);

    // Pass 1: the rays, straight into the frame or into the reduced-resolution image.
    {
        ScopedProgram use(program->id());
        glUniformMatrix4fv(program->uniform("u_clipToIndex"), 1, GL_FALSE,
                           glm::value_ptr(clipToIndex));
        glUniform2f(program->uniform("u_targetSize"), float(raySize.x), float(raySize.y));
        glUniform1f(program->uniform("u_stepVoxels"), step);
        glUniform1i(program->uniform("u_maxSteps"), maxSteps);
        glUniform3fv(program->uniform("u_clipFirst"), 1, glm::value_ptr(m_clipFirst));
        glUniform3fv(program->uniform("u_clipLast"), 1, glm::value_ptr(m_clipLast));
        glUniform1i(program->uniform("u_shading"), frame.shading ? 1 : 0);
        glUniform1i(program->uniform("u_projection"), GLint(frame.projection));
        const glm::vec2 toGrey = storedToGrey(frame.windowCenter, frame.windowWidth);
        glUniform2f(program->uniform("u_valueToGrey"), toGrey.x, toGrey.y);
        ScopedFramebuffer target(lowRes ? m_lowResFramebuffer.id() : frame.targetFramebuffer);
        ScopedViewport viewport(0, 0, raySize.x, raySize.y);
        if (lowRes) {
            ScopedCapability noBlend(GL_BLEND, false);
            ScopedClearValues clear({0.0f, 0.0f, 0.0f, 0.0f}, 1.0f);
            glClear(GL_COLOR_BUFFER_BIT);
            glDrawArrays(GL_TRIANGLES, 0, 3);
        } else {
            ScopedCapability blend(GL_BLEND, true);
            glDrawArrays(GL_TRIANGLES, 0, 3);
        }
    }
    if (!lowRes) return;

    // Pass 2: the reduced image, upscaled by linear filtering and blended over the frame.
    ScopedProgram use(m_composite.id());
    glUniform2f(m_composite.uniform("u_targetSize"), float(fullSize.x), float(fullSize.y));
    ScopedFramebuffer target(frame.targetFramebuffer);
    ScopedViewport viewport(0, 0, fullSize.x, fullSize.y);
    ScopedCapability blend(GL_BLEND, true);
    glDrawArrays(GL_TRIANGLES, 0, 3);
}

} // namespace isoview::gpu
