#include "gpu/offscreen_target.h"

#include "core/error.h"
#include "gpu/gl_loader.h"
#include "gpu/gl_objects.h"
#include "gpu/gl_state.h"

#include <string>

namespace isoview::gpu {
namespace {

void allocate(const Texture& texture, GLint internalFormat, GLenum format, GLenum type, int w,
              int h)
{
    ScopedTextureBinding bind(texture.id());
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, 0);
    glTexImage2D(GL_TEXTURE_2D, 0, internalFormat, w, h, 0, format, type, nullptr);
}

} // namespace

struct OffscreenTarget::Attachments {
    Texture color = Texture::create();
    Texture depth = Texture::create();
    Framebuffer framebuffer = Framebuffer::create();
};

OffscreenTarget::OffscreenTarget(int width, int height)
    : m_width(width), m_height(height), m_attachments(std::make_unique<Attachments>())
{
    const Attachments& a = *m_attachments;
    allocate(a.color, GL_RGBA8, GL_RGBA, GL_UNSIGNED_BYTE, width, height);
    allocate(a.depth, GL_DEPTH_COMPONENT24, GL_DEPTH_COMPONENT, GL_UNSIGNED_INT, width, height);
    ScopedFramebuffer restore(a.framebuffer.id());
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, a.color.id(), 0);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, a.depth.id(), 0);
    const GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
    if (status != GL_FRAMEBUFFER_COMPLETE) {
        throw GlError("offscreen framebuffer of " + std::to_string(width) + "x" +
                      std::to_string(height) + " is incomplete (status " + std::to_string(status) +
                      ")");
    }
    throwOnGlError("creating the offscreen framebuffer");
}

OffscreenTarget::~OffscreenTarget() = default;
OffscreenTarget::OffscreenTarget(OffscreenTarget&&) noexcept = default;
OffscreenTarget& OffscreenTarget::operator=(OffscreenTarget&&) noexcept = default;

void OffscreenTarget::bind() const
{
    glBindFramebuffer(GL_FRAMEBUFFER, m_attachments->framebuffer.id());
    glViewport(0, 0, m_width, m_height);
}

unsigned int OffscreenTarget::framebuffer() const
{
    return m_attachments->framebuffer.id();
}

std::vector<std::uint8_t> OffscreenTarget::readPixels() const
{
    std::vector<std::uint8_t> pixels(std::size_t(m_width) * std::size_t(m_height) * 4);
    ScopedFramebuffer restore(m_attachments->framebuffer.id());
    ScopedPixelStore alignment(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, m_width, m_height, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
    return pixels;
}

void OffscreenTarget::readPixelsBgra(std::uint8_t* out, std::size_t stride) const
{
    ScopedFramebuffer restore(m_attachments->framebuffer.id());
    ScopedPixelStore alignment(GL_PACK_ALIGNMENT, 1);
    ScopedPixelStore rowLength(GL_PACK_ROW_LENGTH, GLint(stride / 4));
    glReadPixels(0, 0, m_width, m_height, GL_BGRA, GL_UNSIGNED_BYTE, out);
}

void finishGpuWork()
{
    glFinish();
}

} // namespace isoview::gpu
