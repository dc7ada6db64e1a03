#include "volume/label_picking.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace isoview {

std::optional<std::uint32_t> firstShownLabelAlong(const Volume& labels, glm::dvec3 origin,
                                                  glm::dvec3 direction,
                                                  const std::function<bool(std::uint32_t)>& shown)
{
    // Into index space, where voxel v covers [v - 0.5, v + 0.5] along each axis.
    const glm::dmat4 toIndex = glm::inverse(labels.geometry().indexToPhysical());
    const glm::dvec3 o = glm::dvec3(toIndex * glm::dvec4(origin, 1.0)) + 0.5;
    const glm::dvec3 d = glm::dvec3(toIndex * glm::dvec4(direction, 0.0));
    const glm::dvec3 size(labels.dims());
    if (glm::length(d) == 0.0) return std::nullopt;
    // Where the ray is inside the volume's box [0, size] (shifted by half a voxel above).
    double enter = 0.0;
    double leave = std::numeric_limits<double>::infinity();
    for (int a = 0; a < 3; ++a) {
        if (d[a] == 0.0) {
            if (o[a] < 0.0 || o[a] > size[a]) return std::nullopt;
            continue;
        }
        double t0 = (0.0 - o[a]) / d[a];
        double t1 = (size[a] - o[a]) / d[a];
        if (t0 > t1) std::swap(t0, t1);
        enter = std::max(enter, t0);
        leave = std::min(leave, t1);
    }
    if (enter > leave) return std::nullopt;
    // The first voxel, then one step across a voxel face at a time.
    const glm::dvec3 start = o + d * enter;
    glm::ivec3 voxel =
        glm::clamp(glm::ivec3(glm::floor(start)), glm::ivec3(0), glm::ivec3(labels.dims()) - 1);
    glm::ivec3 step(0);
    glm::dvec3 next(std::numeric_limits<double>::infinity());   // t of the next face per axis
    glm::dvec3 across(std::numeric_limits<double>::infinity()); // t to cross one voxel
    for (int a = 0; a < 3; ++a) {
        if (d[a] > 0.0) {
            step[a] = 1;
            next[a] = (double(voxel[a] + 1) - o[a]) / d[a];
            across[a] = 1.0 / d[a];
        } else if (d[a] < 0.0) {
            step[a] = -1;
            next[a] = (double(voxel[a]) - o[a]) / d[a];
            across[a] = -1.0 / d[a];
        }
    }
    const glm::ivec3 dims(labels.dims());
    while (glm::all(glm::greaterThanEqual(voxel, glm::ivec3(0))) &&
           glm::all(glm::lessThan(voxel, dims))) {
        const auto label = std::uint32_t(
            labels.valueAt(std::uint32_t(voxel.x), std::uint32_t(voxel.y), std::uint32_t(voxel.z)));
        if (label != 0 && shown(label)) return label;
        const int a = next.x <= next.y && next.x <= next.z ? 0 : next.y <= next.z ? 1 : 2;
        voxel[a] += step[a];
        next[a] += across[a];
    }
    return std::nullopt;
}

} // namespace isoview
