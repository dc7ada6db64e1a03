// Label surfaces: per label, its indicator over its grown bounding box, marched by the CPU
// reference's own cell loop (cell_marching.h) on the whole volume's grid.
//
//   Pass 1: the labels' bounding boxes (analyseLabels, one pass over the volume).
//   Pass 2: per label, the indicator over the box grown by one voxel, read straight from the
//           voxel bytes of the volume's type.
//   Pass 3: per label, marching cubes over the cells of that box (intersected with the crop),
//           with a field that reads the stored indicator inside the box and 0 outside.
#include "extraction/label_surfaces_cpu.h"

#include "core/error.h"
#include "extraction/cell_marching.h"
#include "extraction/label_indicator.h"

#include <algorithm>
#include <string>

namespace isoview {
namespace {

// A label's indicator stored for a box of the grid; 0 at every voxel outside it.
struct BoxedIndicator {
    glm::uvec3 first;
    glm::uvec3 size;
    std::vector<std::uint8_t> inside; // size.x * size.y * size.z, x fastest

    float operator()(glm::uvec3 p) const
    {
        const glm::uvec3 q = p - first; // wraps below first: one comparison per axis
        if (q.x >= size.x || q.y >= size.y || q.z >= size.z) return 0.0f;
        return float(
            inside[std::size_t(q.x) + std::size_t(size.x) * (q.y + std::size_t(size.y) * q.z)]);
    }
};

IsoMesh labelSurface(const Volume& volume, const LabelInfo& info, const VoxelBox& crop)
{
    const glm::uvec3 dims = volume.dims();
    // Every cell with a corner inside the label lies in the bounding box grown by one voxel.
    const VoxelBox grown{glm::max(info.first, glm::uvec3(1)) - glm::uvec3(1),
                         glm::min(info.last + glm::uvec3(1), dims - glm::uvec3(1))};
    const VoxelBox cells{glm::max(grown.first, crop.first), glm::min(grown.last, crop.last)};
    if (!glm::all(glm::lessThanEqual(cells.first, cells.last))) return {};
    const BoxedIndicator indicator{grown.first, grown.voxelCount(),
                                   labelIndicator(volume, info.label, grown)};
    return marching::marchCells(indicator, dims, volume.geometry(), kLabelIsovalue, cells);
}

} // namespace

std::vector<std::uint32_t> wantedLabels(const LabelStatistics& statistics,
                                        const std::vector<std::uint32_t>& labels)
{
    std::vector<std::uint32_t> wanted = labels;
    if (wanted.empty()) {
        for (const LabelInfo& info : statistics.labels)
            wanted.push_back(info.label);
    }
    std::sort(wanted.begin(), wanted.end());
    wanted.erase(std::unique(wanted.begin(), wanted.end()), wanted.end());
    if (!wanted.empty() && wanted.front() == 0) {
        throw InvalidInputError("label 0 is the background, not a structure with a surface");
    }
    return wanted;
}

std::vector<LabelSurface> extractLabelSurfacesCpu(const Volume& volume,
                                                  const std::vector<std::uint32_t>& labels,
                                                  const std::optional<VoxelBox>& crop)
{
    return extractLabelSurfacesCpu(volume, analyseLabels(volume), labels, crop);
}

std::vector<LabelSurface> extractLabelSurfacesCpu(const Volume& volume,
                                                  const LabelStatistics& statistics,
                                                  const std::vector<std::uint32_t>& labels,
                                                  const std::optional<VoxelBox>& crop)
{
    const VoxelBox box = crop.value_or(VoxelBox::whole(volume.dims()));
    requireInside(box, volume.dims());

    const std::vector<std::uint32_t> wanted = wantedLabels(statistics, labels);
    std::vector<LabelSurface> surfaces;
    surfaces.reserve(wanted.size());
    for (const std::uint32_t label : wanted) {
        const LabelInfo* info = statistics.find(label);
        surfaces.push_back({label, info ? labelSurface(volume, *info, box) : IsoMesh{}});
    }
    return surfaces;
}

} // namespace isoview
