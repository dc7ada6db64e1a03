// The surfaces of a label map: one welded mesh per label, each the isosurface at 0.5 of that
// label's indicator (src/extraction/label_surfaces_cpu.h states the rules). The GPU extracts all
// labels into one mesh whose vertices carry their label; splitByLabel turns that into these.
#pragma once

#include "extraction/iso_mesh.h"

#include <cstdint>
#include <vector>

namespace isoview {

// The indicator's isovalue: halfway between outside (0) and inside (1).
inline constexpr float kLabelIsovalue = 0.5f;

struct LabelSurface {
    std::uint32_t label = 0;
    IsoMesh mesh; // index space; edge keys are unique within one label's mesh
};

// One mesh per label from a mesh of all labels whose vertices carry labels (vertexLabels[i] is
// vertex i's; 0 marks an unused vertex). Triangles go to their first vertex's label, keeping
// their order; each label's vertices are those its triangles name, in ascending order of the
// vertex they came from. Labels in ascending order; a label without triangles is left out.
// Throws Error when a triangle's vertices disagree on the label, or one names an unused vertex.
std::vector<LabelSurface> splitByLabel(const IsoMesh& mesh,
                                       const std::vector<std::uint32_t>& vertexLabels);

} // namespace isoview
