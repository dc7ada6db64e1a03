// The slice planes in the 3D view (src/gpu/slice_planes): a plane shows the voxels of its index
// plane through the window/level (real units, mapped through the volume's rescale), the planes
// are off unless asked for, the pass leaves the host's GL state as it found it, and every GL
// object it makes is freed with the renderer.
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

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

namespace isoview::test {
namespace {

using gpu::FrameParams;
using gpu::SceneRenderer;

// 48^3 voxels seen along -z through an orthographic camera that maps 48 units onto 96 pixels:
// pixel column x shows physical x = 0.5 x - 0.25, so its nearest voxel column is never a tie.
constexpr int kSize = 96;
constexpr glm::uvec3 kDims{48, 48, 48};

FrameParams frontView()
{
    const glm::vec3 center(23.5f);
    FrameParams p;
    p.view = glm::lookAt(center + glm::vec3(0.0f, 0.0f, 100.0f), center, {0.0f, 1.0f, 0.0f});
    p.projection = glm::ortho(-24.0f, 24.0f, -24.0f, 24.0f, 1.0f, 200.0f);
    p.backgroundTop = p.backgroundBottom = glm::vec3(0.0f, 0.0f, 1.0f); // blue: no plane there
    p.viewportSize = {kSize, kSize};
    return p;
}

// A scene of planes alone: no surface, no marker, the planes through index (voxels) shown
// in 3D or not, with the default window.
Scene planesScene(glm::uvec3 index, bool show)
{
    Scene scene = noSurfaceScene();
    scene.orientationMarker = false;
    scene.slices.crosshair = glm::dvec3(index);
    scene.slices.planesIn3D = show;
    return scene;
}

// Stored value = i; real = 2 i - 100 (a rescale, so the window must go through it).
Volume rampAlongI()
{
    return makeTypedVolume<std::uint16_t>(
        kDims, [](std::uint32_t i, std::uint32_t, std::uint32_t) { return i; }, {},
        ValueRescale{2.0, -100.0});
}

RgbaFrame render(SceneRenderer& renderer, const Scene& scene)
{
    renderer.setScene(scene);
    return renderFrame(renderer, frontView(), {kSize, kSize});
}

class SlicePlanesTest : public GlTest {};

TEST_F(SlicePlanesTest, PlaneShowsItsVoxelsThroughTheWindow)
{
    SceneRenderer renderer;
    renderer.setVolume(rampAlongI());
    // The i and j planes edge-on at the image's edges.
    Scene scene = planesScene({0, 0, 30}, true);
    // Real -80 .. 0: stored 10 .. 50, clamped above i = 50.
    scene.slices.window = {.center = -40.0, .width = 80.0};
    const RgbaFrame image = render(renderer, scene);

    int checked = 0;
    for (int y = 8; y < kSize - 8; y += 11) {
        for (int x = 4; x < kSize - 4; ++x) {
            const int i = int(std::lround(0.5 * x - 0.25));
            const double real = 2.0 * i - 100.0;
            const double expected = std::clamp((real - (-80.0)) / 80.0, 0.0, 1.0) * 255.0;
            const glm::ivec4 c = image.pixel(x, y);
            ASSERT_NEAR(c.r, expected, 1.5) << "pixel (" << x << ", " << y << "), voxel i " << i;
            ASSERT_EQ(c.g, c.r) << "grey at (" << x << ", " << y << ")";
            ASSERT_EQ(c.b, c.r) << "grey at (" << x << ", " << y << ")";
            ++checked;
        }
    }
    EXPECT_GT(checked, 700);
}

TEST_F(SlicePlanesTest, PlanesAreOffUnlessShown)
{
    SceneRenderer renderer;
    renderer.setVolume(rampAlongI());
    const RgbaFrame image = render(renderer, planesScene({0, 0, 30}, false));
    EXPECT_EQ(image.pixel(kSize / 2, kSize / 2), glm::ivec4(0, 0, 255, 255));
}

TEST_F(SlicePlanesTest, PlaneAndSurfaceHideEachOtherByDepth)
{
    // A red sphere of radius 12 around the centre, seen from +z: its near pole is at z = 35.5.
    SceneRenderer renderer;
    renderer.setVolume(makeSphere(kDims, glm::vec3(23.5f), 12.0f));
    Scene scene = oneSurfaceScene(0.0, glm::vec3(1.0f, 0.0f, 0.0f));
    scene.orientationMarker = false;
    scene.slices.planesIn3D = true;
    scene.slices.window = {.center = 0.0, .width = 100.0};
    scene.slices.crosshair = {0, 0, 20}; // behind the near pole: the surface shows
    const glm::ivec4 surface = render(renderer, scene).pixel(kSize / 2, kSize / 2);
    EXPECT_GT(surface.r, surface.g + 20) << "the surface in front of the plane";
    scene.slices.crosshair = {0, 0, 40}; // in front of the sphere: the plane covers it
    const glm::ivec4 plane = render(renderer, scene).pixel(kSize / 2, kSize / 2);
    EXPECT_EQ(plane.r, plane.g) << "the plane (grey) in front of the surface";
    EXPECT_EQ(plane.g, plane.b);
}

TEST_F(SlicePlanesTest, HostGlStateIsRestored)
{
    SceneRenderer renderer;
    renderer.setVolume(rampAlongI());
    gpu::OffscreenTarget target(kSize, kSize);
    const GLuint fbo = framebufferOf(target);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_GEQUAL);
    glDepthMask(GL_FALSE);
    glEnable(GL_CULL_FACE);
    glActiveTexture(GL_TEXTURE5);
    gpu::Texture bound = gpu::Texture::create();
    glBindTexture(GL_TEXTURE_2D, bound.id());
    gpu::VertexArray vao = gpu::VertexArray::create();
    glBindVertexArray(vao.id());

    renderer.setScene(planesScene({10, 20, 30}, true));
    FrameParams p = frontView();
    p.targetFramebuffer = fbo;
    renderer.render(p);

    GLint i = 0;
    EXPECT_TRUE(glIsEnabled(GL_DEPTH_TEST));
    glGetIntegerv(GL_DEPTH_FUNC, &i);
    EXPECT_EQ(i, GL_GEQUAL);
    GLboolean mask = GL_TRUE;
    glGetBooleanv(GL_DEPTH_WRITEMASK, &mask);
    EXPECT_EQ(mask, GL_FALSE);
    EXPECT_TRUE(glIsEnabled(GL_CULL_FACE));
    EXPECT_FALSE(glIsEnabled(GL_BLEND));
    glGetIntegerv(GL_ACTIVE_TEXTURE, &i);
    EXPECT_EQ(i, GL_TEXTURE5);
    glGetIntegerv(GL_TEXTURE_BINDING_2D, &i);
    EXPECT_EQ(GLuint(i), bound.id());
    for (const GLenum unit : std::array<GLenum, 2>{GL_TEXTURE0, GL_TEXTURE7}) {
        glActiveTexture(unit);
        glGetIntegerv(GL_TEXTURE_BINDING_2D, &i);
        EXPECT_EQ(i, 0) << "unit " << unit - GL_TEXTURE0;
    }
    glActiveTexture(GL_TEXTURE5);
    glGetIntegerv(GL_VERTEX_ARRAY_BINDING, &i);
    EXPECT_EQ(GLuint(i), vao.id());
    glGetIntegerv(GL_CURRENT_PROGRAM, &i);
    EXPECT_EQ(i, 0);
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &i);
    EXPECT_EQ(GLuint(i), fbo);

    glBindVertexArray(0);
    glBindTexture(GL_TEXTURE_2D, 0);
    glActiveTexture(GL_TEXTURE0);
    glDisable(GL_CULL_FACE);
    glDisable(GL_DEPTH_TEST);
    glDepthFunc(GL_LESS);
    glDepthMask(GL_TRUE);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    EXPECT_NO_THROW(gpu::throwOnGlError("slice planes inside a host's state"));
}

TEST_F(SlicePlanesTest, EveryGlObjectIsFreedWithTheRenderer)
{
    const gpu::GlObjectCounts before = gpu::liveGlObjects();
    {
        SceneRenderer renderer;
        renderer.setVolume(rampAlongI());
        render(renderer, planesScene({10, 20, 30}, true));
        EXPECT_NE(gpu::liveGlObjects(), before);
    }
    EXPECT_EQ(gpu::liveGlObjects(), before) << gpu::liveGlObjects().describe();
}

} // namespace
} // namespace isoview::test
