#include "support/gl_frames.h"

namespace isoview::test {

GLuint framebufferOf(const gpu::OffscreenTarget& target)
{
    GLint previous = 0;
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &previous);
    target.bind();
    GLint id = 0;
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &id);
    glBindFramebuffer(GL_FRAMEBUFFER, GLuint(previous));
    return GLuint(id);
}

} // namespace isoview::test
