// Several isosurfaces as one mesh for a single file: each part's vertices and triangles after
// the previous part's (indices offset), with one colour per vertex, its part's, for
// PlyOptions::vertexColors. The parts stay separate pieces (no welding between them); edge keys
// are copied per part and may repeat across parts, so the result is for writing, not for
// further welding.
//
// Contract: pure, any thread. Throws InvalidInputError when a part is inconsistent (normals or
// edge keys of another count than its vertices) or when the parts hold more than 2^32 - 1
// vertices together. Cost: one copy of every part.
//
// Example:
//   const MergedSurfaces merged = mergeSurfaces({{&skin, {230, 217, 191}}, {&bone, {...}}});
//   writePly("both.ply", merged.mesh, volume.geometry(), {.vertexColors = merged.vertexColors});
#pragma once

#include "extraction/iso_mesh.h"

#include <glm/glm.hpp>

#include <vector>

namespace isoview {

struct ColoredSurface {
    const IsoMesh* mesh = nullptr;
    glm::u8vec3 color{255, 255, 255};
};

struct MergedSurfaces {
    IsoMesh mesh;
    std::vector<glm::u8vec3> vertexColors; // one per vertex of mesh
};

MergedSurfaces mergeSurfaces(const std::vector<ColoredSurface>& parts);

// A colour in [0, 1] per channel (as the viewer shows it) as 8 bits per channel, clamped.
glm::u8vec3 toColor8(const glm::vec3& color);

} // namespace isoview
