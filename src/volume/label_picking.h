// Which label a click in the 3D view lands on: the first voxel along the view ray whose label is
// shown, walked voxel by voxel through the label map (Amanatides and Woo's traversal, so no
// voxel the ray crosses is skipped, however thin the structure), in the map's own index space.
// The surfaces drawn are each label's boundary, so the first shown voxel is the surface seen.
//
// Pure, any thread. Cost: one step per voxel crossed (a few hundred for a 512^3 volume).
#pragma once

#include "volume/volume.h"

#include <glm/glm.hpp>

#include <cstdint>
#include <functional>
#include <optional>

namespace isoview {

// The first label along the ray (origin and direction in physical millimetres, as the camera
// has them) for which shown(label) is true; nullopt when it meets none. Label 0 is never shown.
std::optional<std::uint32_t> firstShownLabelAlong(const Volume& labels, glm::dvec3 origin,
                                                  glm::dvec3 direction,
                                                  const std::function<bool(std::uint32_t)>& shown);

} // namespace isoview
