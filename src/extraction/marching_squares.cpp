#include "extraction/marching_squares.h"

#include "extraction/cpu_marching_cubes.h"

#include <array>
#include <stdexcept>

namespace isoview {

namespace {

// Cell corners: 0 = (x, y), 1 = (x+1, y), 2 = (x, y+1), 3 = (x+1, y+1).
// Cell edges: 0 = corners 0-1 (axis x), 1 = 2-3 (axis x), 2 = 0-2 (axis y), 3 = 1-3 (axis y);
// each runs from its lower corner (first) to its upper one.
constexpr std::array<std::array<int, 2>, 4> kEdgeCorners = {{{0, 1}, {2, 3}, {0, 2}, {1, 3}}};
constexpr std::array<glm::ivec2, 4> kCornerOffset = {{{0, 0}, {1, 0}, {0, 1}, {1, 1}}};

} // namespace

std::vector<ContourSegment> extractContour(std::span<const float> values, int width, int height,
                                           float iso)
{
    if (width < 0 || height < 0 || values.size() != std::size_t(width) * std::size_t(height))
        throw std::invalid_argument("extractContour: values do not hold width * height entries");
    std::vector<ContourSegment> segments;
    const auto at = [&](int x, int y) { return values[std::size_t(y) * width + x]; };
    for (int y = 0; y + 1 < height; ++y) {
        for (int x = 0; x + 1 < width; ++x) {
            std::array<float, 4> v{};
            int mask = 0;
            for (int c = 0; c < 4; ++c) {
                v[c] = at(x + kCornerOffset[c].x, y + kCornerOffset[c].y);
                if (isInsideIsosurface(v[c], iso)) mask |= 1 << c;
            }
            if (mask == 0 || mask == 15) continue;
            const auto crossing = [&](int edge, glm::vec2& point, ContourEdge& key) {
                const int c0 = kEdgeCorners[edge][0];
                const int c1 = kEdgeCorners[edge][1];
                const int axis = edge / 2;
                const float t = edgeCrossing(v[c0], v[c1], iso);
                const glm::ivec2 lower = glm::ivec2(x, y) + kCornerOffset[c0];
                point = glm::vec2(lower);
                point[axis] += t;
                key = (ContourEdge(lower.y) * ContourEdge(width) + ContourEdge(lower.x)) * 2u +
                      ContourEdge(axis);
            };
            const auto emit = [&](int e0, int e1) {
                ContourSegment s;
                crossing(e0, s.a, s.edgeA);
                crossing(e1, s.b, s.edgeB);
                segments.push_back(s);
            };
            // Pass: the ambiguous saddles, split around each inside corner as the 3D tables
            // split an ambiguous face.
            if (mask == 0b1001) {
                emit(0, 2); // around corner 0
                emit(1, 3); // around corner 3
                continue;
            }
            if (mask == 0b0110) {
                emit(0, 3); // around corner 1
                emit(1, 2); // around corner 2
                continue;
            }
            // Pass: every other mixed cell has exactly two crossed edges.
            int crossed[2];
            int n = 0;
            for (int e = 0; e < 4; ++e) {
                const bool in0 = (mask >> kEdgeCorners[e][0]) & 1;
                const bool in1 = (mask >> kEdgeCorners[e][1]) & 1;
                if (in0 != in1) crossed[n++] = e;
            }
            emit(crossed[0], crossed[1]);
        }
    }
    return segments;
}

std::vector<ContourSegment> sliceContour(const VolumeSlice& slice, double isovalue)
{
    if (slice.width == 0) return {};
    return extractContour(slice.stored, slice.width, slice.height,
                          slice.rescale.toStored(isovalue).classified());
}

} // namespace isoview
