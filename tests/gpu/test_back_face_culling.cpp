// Which faces the camera sees. The isosurface's outside (lower values) faces the camera as a
// front face on every volume, mirrored ones included; and the renderer culls back faces only
// where none can be seen (a closed opaque surface, the camera outside the crop box), so the
// frame is the one drawn without culling.
#include "gpu/scene_renderer.h"
#include "support/gl_frames.h"
#include "support/gl_test_context.h"
#include "support/scene_fixtures.h"
#include "support/synthetic_volumes.h"

#include <epoxy/gl.h>
#include <glm/gtc/matrix_transform.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

namespace isoview::test {
namespace {

using gpu::FrameParams;
using gpu::SceneRenderer;

using Image = RgbaFrame;

constexpr int kSize = 96;
const glm::vec3 kCenter(23.5f);

// A perspective camera on the +z axis through the sphere's centre, distance from the centre.
Image render(SceneRenderer& renderer, float distance, float nearPlane = 0.5f)
{
    FrameParams p;
    p.view = glm::lookAt(kCenter + glm::vec3(0.0f, 0.0f, distance), kCenter, {0.0f, 1.0f, 0.0f});
    p.projection = glm::perspective(glm::radians(50.0f), 1.0f, nearPlane, 400.0f);
    p.backgroundTop = p.backgroundBottom = glm::vec3(0.0f);
    return renderFrame(renderer, p, {kSize, kSize});
}

// One surface at isovalue, without the orientation marker.
Scene surfaceScene(double isovalue)
{
    Scene scene = oneSurfaceScene(isovalue);
    scene.orientationMarker = false;
    return scene;
}

SceneRenderer::Options options(bool gl33, bool cull)
{
    SceneRenderer::Options o;
    o.limitToGl33 = gl33;
    o.cullHiddenBackFaces = cull;
    return o;
}

// The sphere of radius 20 (value 20 - distance, isovalue 0) in a 48^3 grid, optionally
// mirrored along x (direction -x, origin at the far end: the same physical place).
Volume sphere(bool mirrored)
{
    VolumeGeometry g;
    if (mirrored) {
        g.direction = glm::dmat3(glm::dvec3(-1, 0, 0), glm::dvec3(0, 1, 0), glm::dvec3(0, 0, 1));
        g.origin = {47.0, 0.0, 0.0};
    }
    return makeSphere({48, 48, 48}, kCenter, 20.0f, g);
}

int differingPixels(const Image& a, const Image& b, int tolerance)
{
    int n = 0;
    for (std::size_t i = 0; i < a.rgba.size(); i += 4)
        for (std::size_t c = 0; c < 3; ++c)
            if (std::abs(int(a.rgba[i + c]) - int(b.rgba[i + c])) > tolerance) {
                ++n;
                break;
            }
    return n;
}

class FaceCullingTest : public GlPathTest {};

// A mirrored grid turns the mesh's counter-clockwise winding clockwise in physical space; the
// outside must still be lit as the front.
TEST_P(FaceCullingTest, MirroredVolumesShowTheirOutsideAsFrontFaces)
{
    for (bool cull : {false, true}) {
        SCOPED_TRACE(cull ? "culling allowed" : "no culling");
        SceneRenderer plain(options(limitToGl33(), cull));
        plain.setVolume(sphere(false));
        plain.setScene(surfaceScene(0.0));
        const Image a = render(plain, 100.0f);
        SceneRenderer mirrored(options(limitToGl33(), cull));
        mirrored.setVolume(sphere(true));
        mirrored.setScene(surfaceScene(0.0));
        const Image b = render(mirrored, 100.0f);
        EXPECT_EQ(plain.backFaceCulledSurfaces(), cull ? 1u : 0u);
        EXPECT_EQ(mirrored.backFaceCulledSurfaces(), cull ? 1u : 0u);
        const glm::ivec3 centre = a.at(kSize / 2, kSize / 2);
        ASSERT_GT(centre.r, 150) << "the front of the sphere, lit";
        EXPECT_LE(std::abs(b.at(kSize / 2, kSize / 2).r - centre.r), 2);
        EXPECT_LE(differingPixels(a, b, 8), kSize / 2) << "a mirror image of a symmetric sphere";
    }
}

// The same scene drawn by a renderer that may cull and by one that never does.
struct Pair {
    SceneRenderer culling;
    SceneRenderer plain;
    Pair(bool gl33, const Volume& volume)
        : culling(options(gl33, true)), plain(options(gl33, false))
    {
        culling.setVolume(volume);
        plain.setVolume(volume);
    }
    void show(const Scene& scene)
    {
        culling.setScene(scene);
        plain.setScene(scene);
    }
};

// A closed opaque surface seen from outside: its back faces are culled, one layer or several
// (the live one and stored ones), and the frame is the frame drawn without culling.
TEST_P(FaceCullingTest, ClosedSurfacesSeenFromOutsideAreCulledWithTheSameFrame)
{
    Pair scenes(limitToGl33(), sphere(false));
    scenes.show(surfaceScene(0.0));
    for (float distance : {100.0f, 45.0f}) {
        SCOPED_TRACE("camera at " + std::to_string(distance));
        const Image culled = render(scenes.culling, distance);
        const Image plain = render(scenes.plain, distance);
        EXPECT_EQ(scenes.culling.backFaceCulledSurfaces(), 1u);
        EXPECT_EQ(scenes.plain.backFaceCulledSurfaces(), 0u);
        EXPECT_GT(culled.at(kSize / 2, kSize / 2).r, 150);
        EXPECT_EQ(differingPixels(culled, plain, 0), 0);
    }

    // Nested shells, both opaque: the live outer one and a stored inner one.
    Scene shells = surfacesScene(
        {{.id = 1, .name = "Outer", .isovalue = 0.0, .color = glm::vec3(0.8f, 0.3f, 0.2f)},
         {.id = 2, .name = "Inner", .isovalue = 8.0, .color = glm::vec3(0.2f, 0.3f, 0.8f)}},
        1u);
    shells.orientationMarker = false;
    scenes.show(shells);
    const Image culled = render(scenes.culling, 100.0f);
    const Image plain = render(scenes.plain, 100.0f);
    EXPECT_EQ(scenes.culling.backFaceCulledSurfaces(), 2u);
    EXPECT_EQ(differingPixels(culled, plain, 0), 0);
}

// A surface open only on faces of the box turned away from the camera (as a CT's skull is at
// its first and last slices, seen from the side) is culled; looking into the opening, not.
TEST_P(FaceCullingTest, OpeningsTurnedAwayFromTheCameraStillAllowCulling)
{
    // The sphere's centre 3 voxels above the z = 0 face: it is cut open there only.
    Pair scenes(limitToGl33(), makeSphere({48, 48, 48}, glm::vec3(23.5f, 23.5f, 3.0f), 20.0f));
    scenes.show(surfaceScene(0.0));
    const Image fromAbove = render(scenes.culling, 100.0f);
    EXPECT_EQ(scenes.culling.backFaceCulledSurfaces(), 1u) << "the opening faces away";
    EXPECT_EQ(differingPixels(fromAbove, render(scenes.plain, 100.0f), 0), 0);

    const Image intoTheOpening = render(scenes.culling, -100.0f);
    EXPECT_EQ(scenes.culling.backFaceCulledSurfaces(), 0u) << "the camera looks into it";
    const Image plain = render(scenes.plain, -100.0f);
    EXPECT_EQ(differingPixels(intoTheOpening, plain, 0), 0);
    const glm::ivec3 centre = plain.at(kSize / 2, kSize / 2);
    EXPECT_GT(centre.r, 20) << "the inside of the cap, seen through the opening";
    EXPECT_LT(centre.r, fromAbove.at(kSize / 2, kSize / 2).r - 20) << "a back face, darker";
}

// Where back faces can be seen, nothing is culled, and they are there, darker: a crop that
// opens the surface, the volume's edge cutting it, the camera inside it, the near plane
// cutting it, a translucent surface.
TEST_P(FaceCullingTest, OpenOrEnteredSurfacesKeepTheirBackFaces)
{
    Pair scenes(limitToGl33(), sphere(false));
    Scene scene = surfaceScene(0.0);
    scenes.show(scene);
    const glm::ivec3 front = render(scenes.plain, 100.0f).at(kSize / 2, kSize / 2);
    const auto expectBackFacesShown = [&](const std::string& what, float distance,
                                          float nearPlane) {
        SCOPED_TRACE(what);
        const Image culled = render(scenes.culling, distance, nearPlane);
        const Image plain = render(scenes.plain, distance, nearPlane);
        EXPECT_EQ(scenes.culling.backFaceCulledSurfaces(), 0u);
        EXPECT_EQ(differingPixels(culled, plain, 0), 0);
        const glm::ivec3 centre = culled.at(kSize / 2, kSize / 2);
        EXPECT_GT(centre.r, 20) << "a back face, not the background";
        EXPECT_LT(centre.r, front.r - 20) << "back faces are darker";
    };

    // The front half cropped away: the inside of the back half faces the camera.
    scene.crop = VoxelBox{{0, 0, 0}, {47, 47, 23}};
    scenes.show(scene);
    expectBackFacesShown("cropped open", 100.0f, 0.5f);
    scene.crop = VoxelBox{{0, 0, 0}, {47, 47, 47}};
    scenes.show(scene);
    // Inside the sphere (radius 20), and outside it with the near plane cutting its cap.
    expectBackFacesShown("camera inside", 10.0f, 0.5f);
    expectBackFacesShown("near plane cuts it", 30.0f, 14.0f);

    // Radius 26 pokes through all six faces of the volume (47 voxels wide): open towards any
    // camera.
    scene.setLiveIsovalue(-6.0);
    scenes.show(scene);
    for (float distance : {100.0f, -100.0f}) {
        render(scenes.culling, distance);
        EXPECT_EQ(scenes.culling.backFaceCulledSurfaces(), 0u) << "open at the volume's edge";
    }
    scene.setLiveIsovalue(0.0);
    scenes.show(scene);

    // Translucent: its back faces show through its front faces.
    Surface glass{.id = 1, .name = "Glass", .isovalue = 0.0, .color = glm::vec3(0.8f, 0.3f, 0.2f)};
    glass.opacity = 0.5f;
    scene.surfaces = SurfaceList::withIds({glass}, 0);
    scenes.show(scene);
    const Image culled = render(scenes.culling, 100.0f);
    EXPECT_EQ(scenes.culling.backFaceCulledSurfaces(), 0u);
    EXPECT_EQ(differingPixels(culled, render(scenes.plain, 100.0f), 0), 0);
}

} // namespace

INSTANTIATE_TEST_SUITE_P(GlPaths, FaceCullingTest, ::testing::Values(false, true), glPathName);

} // namespace isoview::test
