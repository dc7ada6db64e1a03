// Smoothed label surfaces, as 3D Slicer users expect them from a segmentation: each label's
// indicator (1 where the voxel holds the label, 0 elsewhere) blurred by a Gaussian of sigma
// millimetres, its surface then the isosurface at 0.5 of the blurred field. Blocky steps of the
// voxel grid become smooth; structures thinner than about sigma fade and may vanish.
//
// Rules:
// - The Gaussian is separable, sigma / spacing voxels along each axis (the volume's spacing, so
//   the blur is round in millimetres on anisotropic grids), truncated at 3 sigma and normalised
//   per axis. Beyond the volume the indicator is 0 (the label does not continue there).
// - The blurred field is marched by the CPU reference's cell loop (cell_marching.h) at 0.5 on
//   the label map's grid and geometry: same vertex placement, central-difference normals of the
//   blurred field, edge keys of the whole volume, a crop limiting the cells as everywhere.
// - Labels are independent, as in label_surfaces_cpu.h: where two labels touch, each has its own
//   surface; the two meet again only where both blurred fields are 0.5 (two labels alone at a
//   boundary: always, since their blurred indicators sum to 1 there).
// - sigma 0 gives exactly extractLabelSurfacesCpu's surfaces.
//
// Cost: per label, three 1-D convolutions of 2 * ceil(3 sigma / spacing) + 1 taps over its
// bounding box grown by that radius, then marching cubes over it; labels run in parallel
// (parallel_for.h). D99 (365 labels, 275 x 347 x 245): see docs/benchmarks.
//
// Example:
//   auto surfaces = extractSmoothedLabelSurfacesCpu(labels, analyseLabels(labels), 1.0);
//
// Thread: any; no GL. Throws as extractLabelSurfacesCpu does, InvalidInputError for a negative
// or non-finite sigma or one over kMaxLabelSmoothingVoxels voxels, CancelledError when progress
// returns false.
#pragma once

#include "extraction/label_surface.h"
#include "extraction/voxel_box.h"
#include "volume/label_statistics.h"
#include "volume/volume.h"

#include <glm/glm.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace isoview {

// The widest blur accepted, in voxels of the finest axis: sigma beyond it would blur whole
// structures away and make each label's box most of the volume (minutes per label).
inline constexpr double kMaxLabelSmoothingVoxels = 16.0;

// Fraction of the labels done (0..1); return false to cancel.
using LabelSmoothingProgress = std::function<bool(double fraction)>;

// The surfaces of the wanted labels (empty: every non-zero label), ascending, each the 0.5
// isosurface of its indicator blurred by a Gaussian of sigmaMm; a label that fades below 0.5
// everywhere gets an empty mesh.
std::vector<LabelSurface>
extractSmoothedLabelSurfacesCpu(const Volume& volume, const LabelStatistics& statistics,
                                double sigmaMm, const std::vector<std::uint32_t>& labels = {},
                                const std::optional<VoxelBox>& crop = {},
                                const LabelSmoothingProgress& progress = {});

// One label's blurred indicator: the field its smoothed surface is the 0.5 isosurface of,
// stored for the label's bounding box grown by the kernel's radius (and one voxel), 0 beyond
// it. Print preparation reads it on the crop's faces to close that surface there
// (mesh_processing/label_print_preparation.h).
struct SmoothedLabelField {
    glm::uvec3 first{0}; // the stored box: first .. first + size - 1
    glm::uvec3 size{0};
    std::vector<float> values; // x fastest

    // The field at a voxel of the whole grid (0 outside the stored box).
    float operator()(glm::uvec3 voxel) const
    {
        const glm::uvec3 q = voxel - first; // wraps below first: one comparison per axis
        if (q.x >= size.x || q.y >= size.y || q.z >= size.z) return 0.0f;
        return values[std::size_t(q.x) + std::size_t(size.x) * (q.y + std::size_t(size.y) * q.z)];
    }
};

// The field extractSmoothedLabelSurfacesCpu marches for info.label at sigmaMm, value for value.
// Cost: that label's share of the extraction without the marching. Throws as
// validateLabelSmoothing.
SmoothedLabelField smoothedLabelField(const Volume& volume, const LabelInfo& info, double sigmaMm);

// The largest sigma (mm) accepted for this grid: kMaxLabelSmoothingVoxels of its finest spacing.
double maxLabelSmoothingSigmaMm(const VolumeGeometry& geometry);

// Throws InvalidInputError when sigmaMm is negative, not finite, or over the grid's maximum.
void validateLabelSmoothing(double sigmaMm, const VolumeGeometry& geometry);

} // namespace isoview
