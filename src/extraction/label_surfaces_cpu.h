// The surfaces of a label map on the CPU: the reference a GPU label extractor is tested
// against, as extractIsosurfaceCpu is for isosurfaces.
//
// Rules (a GPU implementation must follow them exactly):
// - Label L's surface is the isosurface at 0.5 of L's indicator: the float field that is 1 at
//   voxels whose stored value equals L and 0 elsewhere. It is exactly what extractIsosurfaceCpu
//   (cpu_marching_cubes.h) returns for a float32 volume holding that indicator, with the label
//   map's dims and geometry, at StoredValue(0.5): the same positions, normals, edge keys,
//   indices and vertex order, bit for bit.
// - So: a corner is inside when its indicator is 1; every vertex sits at its edge's midpoint
//   (t = 0.5); normals are the central-difference gradients of the indicator (one-sided on the
//   volume's faces) mixed at t = 0.5, mapped by the whole volume's
//   VolumeGeometry::voxelGradientToPhysical of each end's slice (per-slice origins included),
//   negated and normalised; edge keys are makeEdgeKey of the WHOLE volume's linear index; cells
//   are visited z slowest, each emitting its triangles in case-table order; the stream is
//   welded by edge key.
// - A crop limits the cells (all eight corners in it) as in extractIsosurfaceCpu; gradients
//   still see the whole volume.
// - Each label's mesh is independent: two touching labels each get their own surface, with
//   the vertices on their shared boundary duplicated (same positions, opposite normals).
//
// NOTE: only the cells of the label's bounding box grown by one voxel (clamped to the volume)
// are marched, over an indicator stored for that box alone: every other cell has eight outside
// corners and emits nothing, and the indicator is 0 beyond the box, so this changes no output.
//
// Example:
//   for (const LabelSurface& s : extractLabelSurfacesCpu(volume)) // every label, ascending
//       exportLabel(s.label, s.mesh);
//
// Thread: any; no GL. Cost: one pass over the volume (analyseLabels, unless given statistics),
// then per label a pass over its grown bounding box. Throws NotALabelMapError
// (volume/label_statistics.h) when the volume is not a label map, InvalidInputError for a
// wanted label 0 (the background) and Error when the crop does not fit the volume.
#pragma once

#include "extraction/iso_mesh.h"
#include "extraction/label_surface.h"
#include "extraction/voxel_box.h"
#include "volume/label_statistics.h"
#include "volume/volume.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace isoview {

// The surfaces of the wanted labels (empty: every non-zero label the volume holds), one per
// distinct label, ascending. A wanted label the volume does not hold (or whose cells all lie
// outside the crop) gets an empty mesh.
std::vector<LabelSurface> extractLabelSurfacesCpu(const Volume& volume,
                                                  const std::vector<std::uint32_t>& labels = {},
                                                  const std::optional<VoxelBox>& crop = {});

// The same with the volume's statistics already known (analyseLabels(volume)): no pass over
// the whole volume.
std::vector<LabelSurface> extractLabelSurfacesCpu(const Volume& volume,
                                                  const LabelStatistics& statistics,
                                                  const std::vector<std::uint32_t>& labels = {},
                                                  const std::optional<VoxelBox>& crop = {});

// The labels an extraction makes surfaces for: `labels` sorted without repeats, or every label
// the statistics hold when it is empty. Throws InvalidInputError for label 0 (the background).
std::vector<std::uint32_t> wantedLabels(const LabelStatistics& statistics,
                                        const std::vector<std::uint32_t>& labels);

} // namespace isoview
