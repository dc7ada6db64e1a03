#include "mesh_processing/label_print_preparation.h"

#include "extraction/label_surface.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace isoview {
namespace {

// The label's indicator (1 where the voxel holds it) as uint8 on the label map's grid, set only
// where closing reads it.
// NOTE: closeAtBorders marches the one-voxel shell of cells around the crop (border_caps.h),
// whose corners are the crop's face voxels and the padding, so those faces are the only voxels
// it reads; within them only the label's bounding box can hold a 1. The grid is still whole
// (the rim vertices are found by the whole volume's edge keys): one byte a voxel, zeroed, but
// no pass over the voxels inside the box.
Volume faceIndicator(const Volume& labels, const LabelInfo& info, const VoxelBox& crop)
{
    const glm::uvec3 dims = labels.dims();
    std::vector<std::byte> bytes(labels.voxelCount());
    const glm::uvec3 lo = glm::max(info.first, crop.first);
    const glm::uvec3 hi = glm::min(info.last, crop.last);
    if (glm::all(glm::lessThanEqual(lo, hi))) {
        const float wanted = float(info.label);
        const auto copy = [&](std::uint32_t i, std::uint32_t j, std::uint32_t k) {
            if (labels.valueAt(i, j, k) != wanted) return;
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

} // namespace

bool labelTouchesBoxFaces(const LabelInfo& info, const VoxelBox& box)
{
    for (int a = 0; a < 3; ++a) {
        if (info.first[a] <= box.first[a] || info.last[a] >= box.last[a]) return true;
    }
    return false;
}

PreparedMesh prepareLabelMesh(const IsoMesh& surface, const Volume& labelMap, const LabelInfo& info,
                              const VoxelBox& crop, const PrintSteps& steps,
                              const PreparationProgress& progress)
{
    PrintSteps ran = steps;
    ran.closeBorders = steps.closeBorders && labelTouchesBoxFaces(info, crop);
    if (!ran.closeBorders) {
        // The label map serves only for its geometry here: nothing reads its voxels.
        return prepareMesh(surface, labelMap, kLabelIsovalue, crop, ran, progress);
    }
    return prepareMesh(surface, faceIndicator(labelMap, info, crop), kLabelIsovalue, crop, ran,
                       progress);
}

} // namespace isoview
