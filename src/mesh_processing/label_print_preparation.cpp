#include "mesh_processing/label_print_preparation.h"

#include "extraction/cpu_marching_cubes.h"
#include "extraction/label_surface.h"
#include "extraction/smoothed_label_surfaces.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace isoview {
namespace {

// Which voxels of the crop's faces are inside the label's surface, as uint8 (1 inside) on the
// label map's grid: what closing reads. inside(voxel) is asked only within `reach`, the box
// beyond which the label's field is outside everywhere.
// NOTE: closeAtBorders marches the one-voxel shell of cells around the crop (border_caps.h),
// whose corners are the crop's face voxels and the padding, and only classifies them (its cap
// vertices sit on the voxels themselves), so a 0/1 mask of the faces is all it needs. The grid
// is still whole (the rim vertices are found by the whole volume's edge keys): one byte a
// voxel, zeroed, but no pass over the voxels inside the box.
template <class Inside>
Volume faceMask(const Volume& labels, const VoxelBox& reach, const VoxelBox& crop,
                const Inside& inside)
{
    const glm::uvec3 dims = labels.dims();
    std::vector<std::byte> bytes(labels.voxelCount());
    const glm::uvec3 lo = glm::max(reach.first, crop.first);
    const glm::uvec3 hi = glm::min(reach.last, crop.last);
    if (glm::all(glm::lessThanEqual(lo, hi))) {
        const auto copy = [&](std::uint32_t i, std::uint32_t j, std::uint32_t k) {
            if (!inside(glm::uvec3(i, j, k))) return;
            bytes[i + std::size_t(dims.x) * (j + std::size_t(dims.y) * k)] = std::byte{1};
        };
        for (std::uint32_t k = lo.z; k <= hi.z; ++k) {
            for (std::uint32_t j = lo.y; j <= hi.y; ++j) {
                const bool onFace =
                    k == crop.first.z || k == crop.last.z || j == crop.first.y || j == crop.last.y;
                if (onFace) {
                    for (std::uint32_t i = lo.x; i <= hi.x; ++i)
                        copy(i, j, k);
                    continue;
                }
                // Inside the y and z faces, a row meets the box's faces at its two ends only.
                if (lo.x == crop.first.x) copy(lo.x, j, k);
                if (hi.x == crop.last.x) copy(hi.x, j, k);
            }
        }
    }
    return Volume(dims, ScalarType::UInt8, std::move(bytes), labels.geometry());
}

Volume faceMask(const Volume& labels, const LabelInfo& info, double smoothingSigmaMm,
                const VoxelBox& crop)
{
    if (smoothingSigmaMm <= 0.0) { // the indicator: inside where the voxel holds the label
        const float wanted = float(info.label);
        return faceMask(labels, VoxelBox{info.first, info.last}, crop,
                        [&](glm::uvec3 v) { return labels.valueAt(v.x, v.y, v.z) == wanted; });
    }
    // The smoothing's own field and its own rule for inside, so that the caps meet its rim.
    const SmoothedLabelField field = smoothedLabelField(labels, info, smoothingSigmaMm);
    const VoxelBox stored{field.first, field.first + field.size - glm::uvec3(1)};
    return faceMask(labels, stored, crop, [&](glm::uvec3 v) {
        return isInsideIsosurface(field(v), StoredValue(kLabelIsovalue).classified());
    });
}

} // namespace

bool labelTouchesBoxFaces(const LabelInfo& info, const VoxelBox& box)
{
    for (int a = 0; a < 3; ++a) {
        if (info.first[a] <= box.first[a] || info.last[a] >= box.last[a]) return true;
    }
    return false;
}

PreparedMesh prepareLabelMesh(const IsoMesh& surface, const Volume& labelMap, const LabelInfo& info,
                              double smoothingSigmaMm, const VoxelBox& crop,
                              const PrintSteps& steps, const PreparationProgress& progress)
{
    PrintSteps ran = steps;
    ran.closeBorders = steps.closeBorders && labelTouchesBoxFaces(info, crop);
    if (!ran.closeBorders) {
        // The label map serves only for its geometry here: nothing reads its voxels.
        return prepareMesh(surface, labelMap, kLabelIsovalue, crop, ran, progress);
    }
    return prepareMesh(surface, faceMask(labelMap, info, smoothingSigmaMm, crop), kLabelIsovalue,
                       crop, ran, progress);
}

} // namespace isoview
