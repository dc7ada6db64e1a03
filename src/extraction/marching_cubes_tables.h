// Marching-cubes case tables, shared by the CPU reference and (uploaded or emitted as a GLSL
// preamble) by the GPU shaders, so both classify and triangulate every cell identically.
//
// Cell conventions:
// - Corner c (0..7) sits at offset (c & 1, (c >> 1) & 1, (c >> 2) & 1) from the cell's lowest
//   voxel. A corner is inside when its value >= the isovalue (NaN/Inf count as outside); the
//   case index has bit c set when corner c is inside.
// - Edge e (0..11) runs along axis e / 4 (0 = x, 1 = y, 2 = z) from corner kEdgeCorners[e][0]
//   (the lower end) to kEdgeCorners[e][1] = lower end + (1 << axis).
// - Vertices on an edge are interpolated from the lower end: t = (iso - v0) / (v1 - v0).
//
// The triangle table is generated, not typed in: every case is triangulated from the
// isosurface's boundary polygons on the six cell faces, where an ambiguous face (inside
// corners on one diagonal, outside on the other) always separates the inside corners. Two
// cells that share a face see the same four corner signs, make the same choice there and so
// produce the same boundary segments: closed isosurfaces come out watertight. Triangles are
// wound counter-clockwise seen from outside (from lower values), in a right-handed index
// space.
#pragma once

#include <array>
#include <cstdint>

namespace isoview::mc {

inline constexpr int kMaxTrianglesPerCell = 5;
inline constexpr int kMaxVerticesPerCell = 3 * kMaxTrianglesPerCell; // fits in 4 bits

// kEdgeCorners[e] = {lower corner, upper corner} of edge e.
inline constexpr std::array<std::array<std::uint8_t, 2>, 12> kEdgeCorners = {{
    {0, 1},
    {2, 3},
    {4, 5},
    {6, 7}, // x edges
    {0, 2},
    {1, 3},
    {4, 6},
    {5, 7}, // y edges
    {0, 4},
    {1, 5},
    {2, 6},
    {3, 7}, // z edges
}};

constexpr int edgeAxis(int edge)
{
    return edge / 4;
}
constexpr int cornerOffset(int corner, int axis)
{
    return (corner >> axis) & 1;
}

struct CaseTables {
    // vertexCount[c]: number of triangle vertices (3 x triangles) of case c, 0..15.
    std::array<std::uint8_t, 256> vertexCount{};
    // triangleEdges[c][v]: the edge carrying vertex v of case c, for v < vertexCount[c];
    // 0xFF beyond.
    std::array<std::array<std::uint8_t, 16>, 256> triangleEdges{};
};

// The tables, generated on first use (thread-safe) and immutable afterwards.
const CaseTables& caseTables();

} // namespace isoview::mc
