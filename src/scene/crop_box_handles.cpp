#include "scene/crop_box_handles.h"

#include <algorithm>
#include <cmath>

namespace isoview {

std::vector<glm::vec3> cropBoxEdgeLines(const VoxelBox& box)
{
    const glm::vec3 lo(box.first);
    const glm::vec3 hi(box.last);
    std::vector<glm::vec3> lines;
    // Four edges along I and four along J, on the two K faces.
    for (float k : {lo.z, hi.z}) {
        for (float j : {lo.y, hi.y}) {
            lines.emplace_back(lo.x, j, k);
            lines.emplace_back(hi.x, j, k);
        }
        for (float i : {lo.x, hi.x}) {
            lines.emplace_back(i, lo.y, k);
            lines.emplace_back(i, hi.y, k);
        }
    }
    // Four along K, one segment per slice interval.
    for (float j : {lo.y, hi.y}) {
        for (float i : {lo.x, hi.x}) {
            for (std::uint32_t k = box.first.z; k < box.last.z; ++k) {
                lines.emplace_back(i, j, float(k));
                lines.emplace_back(i, j, float(k + 1));
            }
        }
    }
    return lines;
}

glm::dvec3 cropFaceCenter(const VoxelBox& box, int face)
{
    glm::dvec3 c = (glm::dvec3(box.first) + glm::dvec3(box.last)) * 0.5;
    const int axis = cropFaceAxis(face);
    c[axis] = cropFaceIsLast(face) ? double(box.last[axis]) : double(box.first[axis]);
    return c;
}

VoxelBox moveCropFace(const VoxelBox& box, int face, double index, glm::uvec3 dims)
{
    const int axis = cropFaceAxis(face);
    if (dims[axis] < 2 || !std::isfinite(index)) return box;
    VoxelBox moved = box;
    const double rounded = std::round(index);
    if (cropFaceIsLast(face)) {
        const double lowest = double(box.first[axis]) + 1.0;
        moved.last[axis] = std::uint32_t(
            std::clamp(rounded, std::min(lowest, double(dims[axis] - 1)), double(dims[axis] - 1)));
    } else {
        const double highest = double(box.last[axis]) - 1.0;
        moved.first[axis] = std::uint32_t(std::clamp(rounded, 0.0, std::max(highest, 0.0)));
    }
    return moved;
}

std::optional<glm::dvec2> projectToWindow(const glm::dvec3& physical,
                                          const glm::dmat4& physicalToClip, glm::dvec2 viewportSize)
{
    const glm::dvec4 clip = physicalToClip * glm::dvec4(physical, 1.0);
    if (!(clip.w > 0.0)) return std::nullopt;
    const glm::dvec2 ndc = glm::dvec2(clip) / clip.w;
    return glm::dvec2((ndc.x + 1.0) * 0.5 * viewportSize.x, (1.0 - ndc.y) * 0.5 * viewportSize.y);
}

std::optional<int> pickCropFace(const VoxelBox& box, const VolumeGeometry& geometry,
                                const glm::dmat4& physicalToClip, glm::dvec2 viewportSize,
                                glm::dvec2 window, double radius)
{
    std::optional<int> best;
    double bestDistance = radius;
    double bestDepth = 0.0;
    for (int face = 0; face < kCropBoxFaceCount; ++face) {
        const glm::dvec3 p = geometry.toPhysical(cropFaceCenter(box, face));
        const auto w = projectToWindow(p, physicalToClip, viewportSize);
        if (!w) continue;
        const double distance = glm::length(*w - window);
        const glm::dvec4 clip = physicalToClip * glm::dvec4(p, 1.0);
        const double depth = clip.z / clip.w;
        // Handles drawn on top of one another (a thin box seen edge on): the nearer one.
        const bool tie = best && std::abs(distance - bestDistance) < 0.5;
        if (distance > radius) continue;
        if ((!best || distance < bestDistance - 0.5) || (tie && depth < bestDepth)) {
            best = face;
            bestDistance = distance;
            bestDepth = depth;
        }
    }
    return best;
}

std::optional<double> dragCropFace(const VoxelBox& startBox, int face,
                                   const VolumeGeometry& geometry, const glm::dmat4& physicalToClip,
                                   glm::dvec2 viewportSize, glm::dvec2 windowDelta)
{
    const int axis = cropFaceAxis(face);
    const glm::dvec3 c = cropFaceCenter(startBox, face);
    glm::dvec3 step = c;
    step[axis] += 1.0;
    const auto a = projectToWindow(geometry.toPhysical(c), physicalToClip, viewportSize);
    const auto b = projectToWindow(geometry.toPhysical(step), physicalToClip, viewportSize);
    if (!a || !b) return std::nullopt;
    const glm::dvec2 perVoxel = *b - *a; // pixels one voxel along the axis moves the handle
    const double length2 = glm::dot(perVoxel, perVoxel);
    if (length2 < 1e-4) return std::nullopt; // under 1/100 pixel per voxel: seen end on
    return c[axis] + glm::dot(windowDelta, perVoxel) / length2;
}

} // namespace isoview
