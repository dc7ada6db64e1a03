#include "scene/orientation_marker_layout.h"

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace isoview {
namespace {

constexpr float kSquareFraction = 0.2f;
constexpr float kMinSquarePx = 56.0f;
constexpr float kMaxSquarePx = 150.0f;
constexpr float kMarginFraction = 0.08f;

} // namespace

OrientationMarkerSquare orientationMarkerSquare(glm::ivec2 viewportSize)
{
    const float shorter = float(std::max(1, std::min(viewportSize.x, viewportSize.y)));
    const float side = std::min(
        std::clamp(std::round(shorter * kSquareFraction), kMinSquarePx, kMaxSquarePx), shorter);
    return {side, std::round(side * kMarginFraction)};
}

glm::mat3 viewRotation(const glm::mat4& view)
{
    glm::mat3 r(view);
    for (int c = 0; c < 3; ++c) {
        const float len = glm::length(r[c]);
        if (len > 0.0f && std::isfinite(len)) r[c] /= len;
    }
    return r;
}

OrientationMarkerLayout orientationMarkerLayout(const glm::mat4& view, glm::ivec2 viewportSize)
{
    const OrientationMarkerSquare square = orientationMarkerSquare(viewportSize);
    OrientationMarkerLayout layout;
    layout.center = glm::vec2(square.margin + square.side * 0.5f);
    layout.radius = square.side * 0.5f * kOrientationArrowReach;
    const glm::mat3 rotation = viewRotation(view);
    for (std::size_t a = 0; a < 3; ++a) {
        const glm::vec3 tip = rotation[int(a)];
        layout.axisTips[a] = layout.center + layout.radius * glm::vec2(tip);
        layout.tipDepth[a] = tip.z;
    }
    return layout;
}

} // namespace isoview
