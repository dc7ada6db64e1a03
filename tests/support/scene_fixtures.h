// The scenes the GL tests hand to SceneRenderer::setScene. Most draw what the renderer once drew
// before it took scenes: one opaque surface in the engine's beige, no transfer function, the
// orientation marker on.
//
// Example:
//   Scene scene = oneSurfaceScene(0.0);
//   renderer.setScene(scene);
//   showIsovalue(renderer, scene, 5.0); // the live surface moves; the renderer extracts it once
#pragma once

#include "gpu/scene_renderer.h"
#include "scene/scene.h"

#include <glm/glm.hpp>

#include <cstdint>
#include <optional>
#include <vector>

namespace isoview::test {

// The surface colour a scene without one of its own drew in (linear RGB).
inline constexpr glm::vec3 kBeige{0.9f, 0.85f, 0.75f};

// One surface, "Surface 1", at isovalue (real units) in color, selected (live).
Scene oneSurfaceScene(double isovalue, glm::vec3 color = kBeige);

// A scene of several surfaces (ids, names and order as given; ids must differ), the one with
// liveId selected (an id not among them: the first).
Scene surfacesScene(const std::vector<Surface>& surfaces, std::uint32_t liveId);

// A scene that extracts and draws no surface: its one surface is hidden. What a renderer drew
// before it was given an isovalue: the background, the volume, the planes and the marker, as the
// scene says.
Scene noSurfaceScene();

// The id of the hidden surface storedSurfacesScene() adds.
inline constexpr std::uint32_t kHiddenLiveId = 0xFFFF'FFFFu;

// A scene of these surfaces (ids as given) in which none of them is live: each is extracted
// once and drawn from its stored mesh. The live one is an extra hidden surface, kHiddenLiveId,
// which is neither extracted nor drawn.
Scene storedSurfacesScene(const std::vector<Surface>& surfaces);

// Moves the scene's live surface to isovalue and gives the scene to the renderer.
void showIsovalue(gpu::SceneRenderer& renderer, Scene& scene, double isovalue);

// The scene's live surface as the renderer last extracted it.
IsoMesh captureLive(gpu::SceneRenderer& renderer, const Scene& scene);

// Gives the renderer oneSurfaceScene(isovalue) cropped to crop (none: the whole volume),
// extracts it without drawing and returns its mesh (waits for the GPU).
IsoMesh extractAt(gpu::SceneRenderer& renderer, double isovalue,
                  std::optional<VoxelBox> crop = std::nullopt);

} // namespace isoview::test
