// A buffer seen as a buffer texture (GL_TEXTURE_BUFFER): shaders read it with texelFetch on a
// usamplerBuffer. Software rasterisers (llvmpipe) gather texel fetches as vectors but read a
// storage buffer at a per-lane address lane by lane, so a pass that only reads a buffer written
// by an earlier one reads it faster this way.
//
// Example:
//   TexelBufferView view;
//   view.attach(buffer.id(), GL_R32UI, entries, "first vertex per cell");
//   ScopedBufferTextureUnit bound(units::kCellFirstVertex, view.id());
#pragma once

#include "gpu/gl_objects.h"

#include <cstddef>
#include <string_view>

namespace isoview::gpu {

class TexelBufferView {
public:
    // Views the whole of `buffer` as `texels` texels of `format` (call again after the buffer's
    // storage changes). Throws GlError naming `what` when the driver's texel buffers are
    // smaller (GL_MAX_TEXTURE_BUFFER_SIZE), so that no read falls silently outside the view.
    void attach(GLuint buffer, GLenum format, std::size_t texels, std::string_view what);
    // Forgets the view (its buffer is being released).
    void release() { m_texture = Texture(); }

    GLuint id() const { return m_texture.id(); }

private:
    Texture m_texture;
};

} // namespace isoview::gpu
