#include "gpu/weighted_blended_transparency.h"

#include "core/log.h"
#include "gpu/gl_loader.h"
#include "gpu/gl_state.h"
#include "gpu/shader_defines.h"

#include <array>

namespace isoview::gpu {
namespace {

constexpr GLint kAccumulationUnit = 0;
constexpr GLint kWeightUnit = 1;

void allocate(const Texture& texture, GLint internalFormat, GLenum format, glm::ivec2 size)
{
    ScopedTextureBinding bind(texture.id());
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, 0);
    glTexImage2D(GL_TEXTURE_2D, 0, internalFormat, size.x, size.y, 0, format, GL_HALF_FLOAT,
                 nullptr);
}

} // namespace

WeightedBlendedTransparency::WeightedBlendedTransparency()
    : m_composite("transparency composite",
                  {{GL_VERTEX_SHADER, "fullscreen_triangle.vert"},
                   {GL_FRAGMENT_SHADER, "oit_composite.frag"}},
                  engineShaderDefines(SamplerKind::Unsigned))
{
    m_composite.setSamplerUnit("u_accumulation", kAccumulationUnit);
    m_composite.setSamplerUnit("u_weight", kWeightUnit);
}

bool WeightedBlendedTransparency::resize(glm::ivec2 size, GLuint depthTexture)
{
    if (size == m_size && depthTexture == m_depthTexture) return m_complete;
    m_size = size;
    m_depthTexture = depthTexture;
    allocate(m_accumulation, GL_RGBA16F, GL_RGBA, size);
    allocate(m_weight, GL_R16F, GL_RED, size);
    ScopedFramebuffer restore(m_framebuffer.id());
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, m_accumulation.id(),
                           0);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT1, GL_TEXTURE_2D, m_weight.id(), 0);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, depthTexture, 0);
    const std::array<GLenum, 2> outputs{GL_COLOR_ATTACHMENT0, GL_COLOR_ATTACHMENT1};
    glDrawBuffers(GLsizei(outputs.size()), outputs.data()); // framebuffer state, kept by it
    m_complete = glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
    if (!m_complete) {
        log::get("engine")->error(
            "transparency framebuffer of {}x{} is incomplete; translucent surfaces not drawn",
            size.x, size.y);
    }
    return m_complete;
}

bool WeightedBlendedTransparency::render(glm::ivec2 size, GLuint depthTexture,
                                         GLuint colorFramebuffer,
                                         const std::function<void()>& drawTranslucent)
{
    if (!resize(size, depthTexture)) return false;
    {
        ScopedFramebuffer accumulate(m_framebuffer.id());
        const std::array<GLfloat, 4> nothingYet{0.0f, 0.0f, 0.0f, 1.0f}; // revealage 1
        const std::array<GLfloat, 4> noWeight{0.0f, 0.0f, 0.0f, 0.0f};
        glClearBufferfv(GL_COLOR, 0, nothingYet.data());
        glClearBufferfv(GL_COLOR, 1, noWeight.data());
        ScopedCapability depthTest(GL_DEPTH_TEST, true);
        ScopedDepthState depth(GL_LESS, false);
        ScopedCapability bothFaces(GL_CULL_FACE, false);
        ScopedCapability blend(GL_BLEND, true);
        ScopedBlendFunc restoreBlend(GL_ONE, GL_ONE);
        glBlendFuncSeparate(GL_ONE, GL_ONE, GL_ZERO, GL_ONE_MINUS_SRC_ALPHA);
        drawTranslucent();
    }
    ScopedFramebuffer composite(colorFramebuffer);
    ScopedCapability noDepthTest(GL_DEPTH_TEST, false);
    ScopedCapability blend(GL_BLEND, true);
    ScopedBlendFunc over(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    // Colour over the frame; alpha as coverage (a + (1 - a) * dst), so a frame that started
    // transparent keeps premultiplied colour (FrameParams::transparentBackground).
    glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
    ScopedProgram use(m_composite.id());
    ScopedVertexArray vao(m_emptyVertexArray.id());
    ScopedTextureUnits<2> targets({m_accumulation.id(), m_weight.id()});
    glDrawArrays(GL_TRIANGLES, 0, 3);
    return true;
}

std::size_t WeightedBlendedTransparency::bytes() const
{
    // RGBA16F + R16F per pixel
    return std::size_t(m_size.x) * std::size_t(m_size.y) * (8 + 2);
}

} // namespace isoview::gpu
