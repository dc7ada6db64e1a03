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

RgbaFrame renderFrame(gpu::SceneRenderer& renderer, gpu::FrameParams params, glm::ivec2 size)
{
    gpu::OffscreenTarget target(size.x, size.y);
    params.viewportSize = size;
    params.targetFramebuffer = framebufferOf(target);
    renderer.render(params);
    return {size.x, size.y, target.readPixels()};
}

} // namespace isoview::test
