#include "gpu/texel_buffer_view.h"

#include "core/error.h"
#include "gpu/gl_loader.h"
#include "gpu/gl_state.h"

#include <string>

namespace isoview::gpu {

void TexelBufferView::attach(GLuint buffer, GLenum format, std::size_t texels,
                             std::string_view what)
{
    GLint limit = 0;
    glGetIntegerv(GL_MAX_TEXTURE_BUFFER_SIZE, &limit);
    if (texels > std::size_t(limit)) {
        throw GlError(std::string(what) + " needs " + std::to_string(texels) +
                      " texels, more than this driver's texel buffers hold (" +
                      std::to_string(limit) + ")");
    }
    if (!m_texture) m_texture = Texture::create();
    {
        ScopedBufferTextureUnit bound(0, m_texture.id());
        glTexBuffer(GL_TEXTURE_BUFFER, format, buffer);
    }
    m_texture.label(what);
    throwOnGlError(std::string(what).c_str());
}

} // namespace isoview::gpu
