// TexelBufferView: a buffer seen as a buffer texture of the format asked, and a clear error,
// with the caller's bindings untouched, when the driver's texel buffers are too small for it
// (the index pass must never read past a view without knowing).
#include "core/error.h"
#include "gpu/gl_objects.h"
#include "gpu/gl_state.h"
#include "gpu/texel_buffer_view.h"
#include "support/gl_test_context.h"

#include <gtest/gtest.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

namespace isoview::test {
namespace {

class TexelBufferViewTest : public GlTest {};

TEST_F(TexelBufferViewTest, ViewsTheBufferAsTexelsAndRefusesMoreThanTheDriverHolds)
{
    const gpu::Buffer buffer = gpu::Buffer::create();
    {
        const std::array<std::uint32_t, 4> values{1, 2, 3, 4};
        gpu::ScopedBufferBinding bind(GL_ARRAY_BUFFER, buffer.id());
        glBufferData(GL_ARRAY_BUFFER, sizeof(values), values.data(), GL_STATIC_DRAW);
    }
    const gpu::Texture callersTexture = gpu::Texture::create();
    glActiveTexture(GL_TEXTURE3);
    glBindTexture(GL_TEXTURE_BUFFER, callersTexture.id());
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_BUFFER, callersTexture.id());

    gpu::TexelBufferView view;
    view.attach(buffer.id(), GL_R32UI, 4, "four values");
    ASSERT_NE(view.id(), 0u);
    GLint boundBuffer = 0;
    GLint format = 0;
    {
        gpu::ScopedBufferTextureUnit bound(5, view.id());
        glGetTexLevelParameteriv(GL_TEXTURE_BUFFER, 0, GL_TEXTURE_BUFFER_DATA_STORE_BINDING,
                                 &boundBuffer);
        glGetTexLevelParameteriv(GL_TEXTURE_BUFFER, 0, GL_TEXTURE_INTERNAL_FORMAT, &format);
    }
    EXPECT_EQ(GLuint(boundBuffer), buffer.id());
    EXPECT_EQ(format, GL_R32UI);

    GLint limit = 0;
    glGetIntegerv(GL_MAX_TEXTURE_BUFFER_SIZE, &limit);
    ASSERT_GT(limit, 0);
    gpu::TexelBufferView tooLarge;
    try {
        tooLarge.attach(buffer.id(), GL_R32UI, std::size_t(limit) + 1, "every cell");
        ADD_FAILURE() << "a view beyond GL_MAX_TEXTURE_BUFFER_SIZE was accepted";
    } catch (const GlError& e) {
        EXPECT_NE(std::string(e.what()).find("every cell"), std::string::npos) << e.what();
    }
    EXPECT_EQ(tooLarge.id(), 0u);
    EXPECT_EQ(glGetError(), GLenum(GL_NO_ERROR));

    // The caller's unit and buffer textures are where they were.
    GLint active = 0;
    GLint onUnit0 = 0;
    GLint onUnit3 = 0;
    GLint onUnit5 = 0;
    glGetIntegerv(GL_ACTIVE_TEXTURE, &active);
    glGetIntegerv(GL_TEXTURE_BINDING_BUFFER, &onUnit0);
    glActiveTexture(GL_TEXTURE3);
    glGetIntegerv(GL_TEXTURE_BINDING_BUFFER, &onUnit3);
    glActiveTexture(GL_TEXTURE5);
    glGetIntegerv(GL_TEXTURE_BINDING_BUFFER, &onUnit5);
    glActiveTexture(GL_TEXTURE0);
    EXPECT_EQ(active, GL_TEXTURE0);
    EXPECT_EQ(GLuint(onUnit0), callersTexture.id());
    EXPECT_EQ(GLuint(onUnit3), callersTexture.id());
    EXPECT_EQ(onUnit5, 0);
    glBindTexture(GL_TEXTURE_BUFFER, 0);
}

} // namespace
} // namespace isoview::test
