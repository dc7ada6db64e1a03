// The RAII owners count the GL objects alive (what the soak's leak check reads): one more per
// object created, one less per object destroyed, none for a move or for resetting an empty
// owner, for every kind.
#include "gpu/gl_objects.h"
#include "support/gl_test_context.h"

#include <gtest/gtest.h>

#include <utility>

namespace isoview::test {
namespace {

class GlObjectCountTest : public GlTest {};

TEST_F(GlObjectCountTest, EveryKindCountsCreatesAndDestroysButNotMoves)
{
    const gl::GlObjectCounts before = gl::liveGlObjects();
    {
        gl::Texture texture = gl::Texture::create();
        const gl::Buffer buffer = gl::Buffer::create();
        const gl::Framebuffer framebuffer = gl::Framebuffer::create();
        const gl::VertexArray vertexArray = gl::VertexArray::create();
        const gl::Query query = gl::Query::create();
        const gl::Program program = gl::Program::create();
        gl::Shader shader(GL_VERTEX_SHADER, "counted");
        gl::SyncFence fence;
        fence.insert();
        fence.insert(); // replaces the first fence: still one

        gl::GlObjectCounts expected = before;
        expected.textures += 1;
        expected.buffers += 1;
        expected.framebuffers += 1;
        expected.vertexArrays += 1;
        expected.queries += 1;
        expected.programs += 1;
        expected.shaders += 1;
        expected.syncs += 1;
        EXPECT_EQ(gl::liveGlObjects(), expected) << gl::liveGlObjects().describe();

        gl::Texture moved = std::move(texture);
        gl::Shader movedShader = std::move(shader);
        texture.reset(); // empty after the move: nothing to destroy
        EXPECT_EQ(gl::liveGlObjects(), expected) << gl::liveGlObjects().describe();

        moved.reset();
        fence.reset();
        expected.textures -= 1;
        expected.syncs -= 1;
        EXPECT_EQ(gl::liveGlObjects(), expected) << gl::liveGlObjects().describe();

        movedShader = gl::Shader(GL_FRAGMENT_SHADER, "replacing"); // one made, one destroyed
        EXPECT_EQ(gl::liveGlObjects(), expected) << gl::liveGlObjects().describe();
    }
    EXPECT_EQ(gl::liveGlObjects(), before) << gl::liveGlObjects().describe();
}

} // namespace
} // namespace isoview::test
