// The crop box's outline pass: its edges and face handles land where the box projects, the
// handle under the mouse is drawn in the highlight colour, nothing is drawn unless asked, the
// outline follows the crop, and the host's GL state survives the pass.
#include "gpu/crop_box_outline.h"
#include "gpu/gl_loader.h"
#include "gpu/gl_objects.h"
#include "gpu/offscreen_target.h"
#include "gpu/scene_renderer.h"
#include "support/gl_frames.h"
#include "support/gl_test_context.h"
#include "support/scene_fixtures.h"
#include "support/synthetic_volumes.h"

#include <epoxy/gl.h>
#include <glm/gtc/matrix_transform.hpp>

#include <array>
#include <cstdint>
#include <vector>

namespace isoview::test {
namespace {

using gpu::FrameParams;
using gpu::SceneRenderer;

using Frame = RgbaFrame;

constexpr int kSize = 96;

// 48^3 voxels seen along -z, 2 pixels per voxel, the view's centre a quarter voxel off the
// volume's so that voxel centres fall on pixel centres: index i on column 2 i, j on row 2 j.
FrameParams frontView()
{
    const glm::vec3 centre(23.75f, 23.75f, 23.5f);
    FrameParams p;
    p.view = glm::lookAt(centre + glm::vec3(0.0f, 0.0f, 100.0f), centre, {0.0f, 1.0f, 0.0f});
    p.projection = glm::ortho(-24.0f, 24.0f, -24.0f, 24.0f, 1.0f, 200.0f);
    p.backgroundTop = p.backgroundBottom = glm::vec3(0.0f);
    p.viewportSize = {kSize, kSize};
    return p;
}

// The volume cropped to box, without a transfer function: the background alone (no surface,
// no marker).
Scene croppedScene(const VoxelBox& box)
{
    Scene scene = noSurfaceScene();
    scene.renderMode = RenderMode::Volume;
    scene.orientationMarker = false;
    scene.crop = box;
    return scene;
}

Frame render(SceneRenderer& renderer, const FrameParams& params)
{
    return renderFrame(renderer, params, {kSize, kSize});
}

// The pass's colours (crop_box_outline.cpp) as 8-bit values.
constexpr glm::ivec3 kEdge{255, 199, 51};
constexpr glm::ivec3 kHighlight{115, 242, 255};

bool near(glm::ivec3 a, glm::ivec3 b)
{
    const glm::ivec3 d = glm::abs(a - b);
    return d.x <= 2 && d.y <= 2 && d.z <= 2;
}

std::size_t countColour(const Frame& f, glm::ivec3 colour)
{
    std::size_t n = 0;
    for (int y = 0; y < kSize; ++y)
        for (int x = 0; x < kSize; ++x)
            n += near(f.at(x, y), colour);
    return n;
}

class CropBoxOutlineTest : public GlTest {};

TEST_F(CropBoxOutlineTest, EdgesAndHandlesLandWhereTheBoxProjects)
{
    SceneRenderer renderer;
    renderer.setVolume(makeSphere({48, 48, 48}, glm::vec3(23.5f), 10.0f));
    renderer.setScene(croppedScene({{8, 10, 0}, {39, 37, 47}}));
    FrameParams p = frontView();

    EXPECT_EQ(countColour(render(renderer, p), kEdge), 0u) << "drawn while not asked for";

    p.cropBox.show = true;
    const Frame f = render(renderer, p);
    // The I edges on columns 16 and 78 and the J edges on rows 20 and 74, between the corners.
    for (int t = 24; t <= 70; t += 2) {
        if (t > 40 && t < 56) continue; // the handles sit in the middle
        EXPECT_TRUE(near(f.at(16, t), kEdge)) << "left edge, row " << t;
        EXPECT_TRUE(near(f.at(78, t), kEdge)) << "right edge, row " << t;
        EXPECT_TRUE(near(f.at(t, 20), kEdge)) << "bottom edge, column " << t;
        EXPECT_TRUE(near(f.at(t, 74), kEdge)) << "top edge, column " << t;
    }
    // Inside and outside the box: the background.
    EXPECT_EQ(f.at(30, 30), glm::ivec3(0));
    EXPECT_EQ(f.at(10, 10), glm::ivec3(0));
    EXPECT_EQ(f.at(86, 86), glm::ivec3(0));
    // The I-last handle: a square about 10 pixels wide at (78, 47), with a dark rim.
    const int handleY = 47; // j = (10 + 37) / 2 = 23.5
    for (int dx = -3; dx <= 3; ++dx)
        for (int dy = -3; dy <= 3; ++dy)
            EXPECT_TRUE(near(f.at(78 + dx, handleY + dy), kEdge)) << dx << ", " << dy;
    // The K handles face the camera at the box's centre (column 47, row 47), one over the
    // other.
    EXPECT_TRUE(near(f.at(47, 47), kEdge));

    p.cropBox.highlightedFace = 1; // I last
    const Frame lit = render(renderer, p);
    EXPECT_TRUE(near(lit.at(78, handleY), kHighlight));
    EXPECT_TRUE(near(lit.at(16, handleY), kEdge)) << "the I-first handle is not highlighted";
    const std::size_t highlighted = countColour(lit, kHighlight);
    EXPECT_GE(highlighted, 81u);  // at least 9 x 9 pixels
    EXPECT_LE(highlighted, 144u); // at most 12 x 12

    // A new crop moves the outline.
    renderer.setScene(croppedScene({{20, 10, 0}, {39, 37, 47}}));
    const Frame moved = render(renderer, p);
    EXPECT_TRUE(near(moved.at(40, 30), kEdge));
    EXPECT_EQ(moved.at(16, 30), glm::ivec3(0));
}

TEST_F(CropBoxOutlineTest, PassLeavesTheGlStateAsItFoundIt)
{
    gpu::CropBoxOutline outline;
    outline.setGeometry(VolumeGeometry{});
    gpu::OffscreenTarget target(64, 48);
    const GLuint fbo = framebufferOf(target);
    gpu::VertexArray hostVertexArray = gpu::VertexArray::create();
    gpu::Buffer hostBuffer = gpu::Buffer::create();
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glViewport(3, 4, 50, 40);
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_GEQUAL);
    glEnable(GL_CULL_FACE);
    glBindVertexArray(hostVertexArray.id());
    glBindBuffer(GL_ARRAY_BUFFER, hostBuffer.id());

    const glm::mat4 physicalToClip = glm::ortho(-2.0f, 30.0f, -2.0f, 30.0f, -50.0f, 50.0f);
    // Twice: the first draw uploads the vertices, the second reuses them.
    for (int face : {3, -1})
        outline.draw({{2, 3, 4}, {20, 19, 18}}, physicalToClip, {50, 40},
                     {.show = true, .highlightedFace = face});
    EXPECT_NE(target.readPixels(), std::vector<std::uint8_t>(64 * 48 * 4, 0)) << "nothing drawn";

    GLint i = 0;
    std::array<GLint, 4> viewport{};
    glGetIntegerv(GL_VIEWPORT, viewport.data());
    EXPECT_EQ(viewport, (std::array<GLint, 4>{3, 4, 50, 40}));
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &i);
    EXPECT_EQ(GLuint(i), fbo);
    EXPECT_TRUE(glIsEnabled(GL_BLEND));
    glGetIntegerv(GL_BLEND_SRC_RGB, &i);
    EXPECT_EQ(i, GL_SRC_ALPHA);
    EXPECT_TRUE(glIsEnabled(GL_DEPTH_TEST));
    glGetIntegerv(GL_DEPTH_FUNC, &i);
    EXPECT_EQ(i, GL_GEQUAL);
    EXPECT_TRUE(glIsEnabled(GL_CULL_FACE));
    glGetIntegerv(GL_CURRENT_PROGRAM, &i);
    EXPECT_EQ(i, 0);
    glGetIntegerv(GL_VERTEX_ARRAY_BINDING, &i);
    EXPECT_EQ(GLuint(i), hostVertexArray.id());
    glGetIntegerv(GL_ARRAY_BUFFER_BINDING, &i);
    EXPECT_EQ(GLuint(i), hostBuffer.id());

    glBindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    glDisable(GL_BLEND);
    glBlendFunc(GL_ONE, GL_ZERO);
    glDisable(GL_DEPTH_TEST);
    glDepthFunc(GL_LESS);
    glDisable(GL_CULL_FACE);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    EXPECT_NO_THROW(gpu::throwOnGlError("drawing the crop box inside a host's state"));
}

} // namespace
} // namespace isoview::test
