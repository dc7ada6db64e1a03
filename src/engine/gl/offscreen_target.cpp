#include "engine/gl/offscreen_target.h"

#include "engine/error.h"
#include "engine/gl/gl_loader.h"
#include "engine/gl/gl_state.h"

#include <string>

namespace isoview::gl {
namespace {

void allocate(const Texture& texture, GLint internalFormat, GLenum format, GLenum type, int w,
              int h)
{
    glBindTexture(GL_TEXTURE_2D, texture.id());
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, 0);
    glTexImage2D(GL_TEXTURE_2D, 0, internalFormat, w, h, 0, format, type, nullptr);
}

} // namespace

OffscreenTarget::OffscreenTarget(int width, int height)
    : m_width(width), m_height(height), m_color(Texture::create()), m_depth(Texture::create()),
      m_framebuffer(Framebuffer::create())
{
    GLint previousTexture = 0;
    glGetIntegerv(GL_TEXTURE_BINDING_2D, &previousTexture);
    allocate(m_color, GL_RGBA8, GL_RGBA, GL_UNSIGNED_BYTE, width, height);
    allocate(m_depth, GL_DEPTH_COMPONENT24, GL_DEPTH_COMPONENT, GL_UNSIGNED_INT, width, height);
    glBindTexture(GL_TEXTURE_2D, GLuint(previousTexture));
    ScopedFramebuffer restore(m_framebuffer.id());
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, m_color.id(), 0);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, m_depth.id(), 0);
    const GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
    if (status != GL_FRAMEBUFFER_COMPLETE) {
        throw GlError("offscreen framebuffer of " + std::to_string(width) + "x" +
                      std::to_string(height) + " is incomplete (status " + std::to_string(status) +
                      ")");
    }
    throwOnGlError("creating the offscreen framebuffer");
}

void OffscreenTarget::bind() const
{
    glBindFramebuffer(GL_FRAMEBUFFER, m_framebuffer.id());
    glViewport(0, 0, m_width, m_height);
}

std::vector<std::uint8_t> OffscreenTarget::readPixels() const
{
    std::vector<std::uint8_t> pixels(std::size_t(m_width) * std::size_t(m_height) * 4);
    ScopedFramebuffer restore(m_framebuffer.id());
    GLint previousAlignment = 0;
    glGetIntegerv(GL_PACK_ALIGNMENT, &previousAlignment);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, m_width, m_height, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
    glPixelStorei(GL_PACK_ALIGNMENT, previousAlignment);
    return pixels;
}

void finishGpuWork() { glFinish(); }

} // namespace isoview::gl
