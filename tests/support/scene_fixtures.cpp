#include "support/scene_fixtures.h"

namespace isoview::test {

Scene oneSurfaceScene(double isovalue, glm::vec3 color)
{
    return Scene::withSurface(nullptr, isovalue, color);
}

Scene surfacesScene(const std::vector<Surface>& surfaces, std::uint32_t liveId)
{
    std::size_t selected = 0;
    for (std::size_t i = 0; i < surfaces.size(); ++i)
        if (surfaces[i].id == liveId) selected = i;
    Scene scene;
    scene.surfaces = SurfaceList::withIds(surfaces, selected);
    return scene;
}

Scene noSurfaceScene()
{
    Scene scene = oneSurfaceScene(0.0);
    scene.surfaces.setVisible(scene.surfaces.selected().id, false);
    return scene;
}

Scene storedSurfacesScene(const std::vector<Surface>& surfaces)
{
    std::vector<Surface> all = surfaces;
    all.push_back({kHiddenLiveId, "Hidden live surface", 0.0, kBeige, 1.0f, false});
    return surfacesScene(all, kHiddenLiveId);
}

void showIsovalue(gpu::SceneRenderer& renderer, Scene& scene, double isovalue)
{
    scene.setLiveIsovalue(isovalue);
    renderer.setScene(scene);
}

IsoMesh captureLive(gpu::SceneRenderer& renderer, const Scene& scene)
{
    return renderer.capture(scene.surfaces.selected().id).mesh;
}

IsoMesh extractAt(gpu::SceneRenderer& renderer, double isovalue, std::optional<VoxelBox> crop)
{
    Scene scene = oneSurfaceScene(isovalue);
    scene.crop = crop;
    renderer.setScene(scene);
    renderer.extractSurface();
    return captureLive(renderer, scene);
}

} // namespace isoview::test
