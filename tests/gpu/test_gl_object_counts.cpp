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
    const gpu::GlObjectCounts before = gpu::liveGlObjects();
    {
        gpu::Texture texture = gpu::Texture::create();
        const gpu::Buffer buffer = gpu::Buffer::create();
        const gpu::Framebuffer framebuffer = gpu::Framebuffer::create();
        const gpu::VertexArray vertexArray = gpu::VertexArray::create();
        const gpu::Query query = gpu::Query::create();
        const gpu::Program program = gpu::Program::create();
        gpu::Shader shader(GL_VERTEX_SHADER, "counted");
        gpu::SyncFence fence;
        fence.insert();
        fence.insert(); // replaces the first fence: still one

        gpu::GlObjectCounts expected = before;
        expected.textures += 1;
        expected.buffers += 1;
        expected.framebuffers += 1;
        expected.vertexArrays += 1;
        expected.queries += 1;
        expected.programs += 1;
        expected.shaders += 1;
        expected.syncs += 1;
        EXPECT_EQ(gpu::liveGlObjects(), expected) << gpu::liveGlObjects().describe();

        gpu::Texture moved = std::move(texture);
        gpu::Shader movedShader = std::move(shader);
        texture.reset(); // empty after the move: nothing to destroy
        EXPECT_EQ(gpu::liveGlObjects(), expected) << gpu::liveGlObjects().describe();

        moved.reset();
        fence.reset();
        expected.textures -= 1;
        expected.syncs -= 1;
        EXPECT_EQ(gpu::liveGlObjects(), expected) << gpu::liveGlObjects().describe();

        movedShader = gpu::Shader(GL_FRAGMENT_SHADER, "replacing"); // one made, one destroyed
        EXPECT_EQ(gpu::liveGlObjects(), expected) << gpu::liveGlObjects().describe();
    }
    EXPECT_EQ(gpu::liveGlObjects(), before) << gpu::liveGlObjects().describe();
}

} // namespace
} // namespace isoview::test
