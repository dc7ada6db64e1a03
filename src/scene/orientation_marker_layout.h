// Where the orientation marker sits on screen: a square in the bottom-left corner (a fifth of the
// shorter viewport side, within pixel bounds), and where its +x, +y, +z arrows end for a camera.
// The GPU marker draws into this square; the window writes L/P/S (or X/Y/Z) beside the tips. Pure
// math, no GL, so both share it.
#pragma once

#include <glm/glm.hpp>

#include <array>

namespace isoview {

struct OrientationMarkerLayout {
    glm::vec2 center{0.0f};              // pixels from the viewport's bottom-left corner
    float radius = 0.0f;                 // length of an arrow, in pixels
    std::array<glm::vec2, 3> axisTips{}; // +x, +y, +z of physical space
    std::array<float, 3> tipDepth{};     // view-space z of each tip: larger is nearer the eye
};

// The marker's square: its side and its margin from the corner, in whole pixels.
struct OrientationMarkerSquare {
    float side = 0.0f;
    float margin = 0.0f;
};
OrientationMarkerSquare orientationMarkerSquare(glm::ivec2 viewportSize);

// How far the arrows reach, as a fraction of the square's half side (room for the labels).
inline constexpr float kOrientationArrowReach = 0.68f;

// The rotation part of a view matrix, with any scale taken out.
glm::mat3 viewRotation(const glm::mat4& view);

// The layout for a view matrix (its rotation part) and a viewport size in pixels.
OrientationMarkerLayout orientationMarkerLayout(const glm::mat4& view, glm::ivec2 viewportSize);

} // namespace isoview
