// Generation of the marching-cubes triangle table.
//
// Overview. The part of a cell where values >= iso ("the inside") is a solid whose boundary
// consists of pieces of the six cell faces plus the isosurface patch we want. Orient that
// boundary outward: every face piece is then counter-clockwise seen from outside the cell, and
// the isosurface patch is counter-clockwise seen from the outside of the isosurface, which is
// exactly the winding we need. Along an isosurface segment on a face, the face piece and the
// patch meet and so run in opposite directions; that fixes the direction of every segment
// from the face alone. For each of the 256 cases:
//
//   Pass 1: on each face, walk the four corners counter-clockwise seen from outside the cell
//           and record the sign changes in walk order. Each out->in crossing is joined to the
//           in->out crossing that follows it; on an ambiguous face (inside corners on one
//           diagonal) this cuts off each inside corner by its own segment, i.e. the inside
//           corners are always separated. Segments run from the out->in crossing to the
//           in->out one: the reverse of the inside face piece's boundary.
//   Pass 2: every crossed cell edge lies on two faces, which traverse it in opposite
//           directions, so it is the start of exactly one segment and the end of exactly one.
//           Following the segments therefore splits the crossed edges into closed loops.
//   Pass 3: triangulate each loop as a fan. The apex is chosen so that, where possible, no
//           fan diagonal joins two vertices on the same cell face: such a diagonal would lie
//           in the face, where the neighbouring cell could use the same vertex pair, and the
//           welded mesh would get an edge shared by four triangles.
//
// Because the face rule depends only on the four corner signs of that face, two cells that
// share a face build the same segments there (in opposite directions), so closed isosurfaces
// come out watertight and consistently oriented.
#include "extraction/marching_cubes_tables.h"

#include <stdexcept>
#include <string>
#include <vector>

namespace isoview::mc {
namespace {

// Edge joining two corners that differ in one coordinate.
int edgeBetween(int cornerA, int cornerB)
{
    for (int e = 0; e < 12; ++e) {
        const int lo = kEdgeCorners[e][0];
        const int hi = kEdgeCorners[e][1];
        if ((lo == cornerA && hi == cornerB) || (lo == cornerB && hi == cornerA)) return e;
    }
    throw std::logic_error("marching cubes: corners " + std::to_string(cornerA) + " and " +
                           std::to_string(cornerB) + " share no edge");
}

// The four corners of face (axis, side), counter-clockwise seen from outside the cell.
// With (u, w, axis) a right-handed cyclic frame, (0,0) (1,0) (1,1) (0,1) in (u, w) turns
// counter-clockwise about +axis: the outward normal of side 1. Side 0 faces -axis, so its
// walk is reversed.
std::array<int, 4> faceCorners(int axis, int side)
{
    const int u = (axis + 1) % 3;
    const int w = (axis + 2) % 3;
    constexpr int ccw[4][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
    std::array<int, 4> corners{};
    for (int n = 0; n < 4; ++n) {
        const int* uw = side == 1 ? ccw[n] : ccw[(4 - n) % 4];
        corners[std::size_t(n)] = (side << axis) | (uw[0] << u) | (uw[1] << w);
    }
    return corners;
}

// Bit mask of the faces (bit 2 * axis + side) that contain edge e.
int edgeFaces(int edge)
{
    const int axis = edgeAxis(edge);
    const int lower = kEdgeCorners[edge][0];
    int mask = 0;
    for (int b = 0; b < 3; ++b) {
        if (b != axis) mask |= 1 << (2 * b + cornerOffset(lower, b));
    }
    return mask;
}

bool shareFace(int edgeA, int edgeB)
{
    return (edgeFaces(edgeA) & edgeFaces(edgeB)) != 0;
}

// Pass 1 for one case: next[e] = the edge the segment starting at edge e ends on (-1 if e
// is not crossed).
std::array<int, 12> buildSegments(int caseIndex)
{
    const auto inside = [caseIndex](int corner) { return ((caseIndex >> corner) & 1) != 0; };
    std::array<int, 12> next;
    next.fill(-1);
    for (int axis = 0; axis < 3; ++axis) {
        for (int side = 0; side < 2; ++side) {
            const std::array<int, 4> corners = faceCorners(axis, side);
            struct Crossing {
                int edge;
                bool outToIn;
            };
            std::vector<Crossing> crossings;
            for (std::size_t n = 0; n < 4; ++n) {
                const int from = corners[n];
                const int to = corners[(n + 1) % 4];
                if (inside(from) != inside(to)) {
                    crossings.push_back({edgeBetween(from, to), inside(to)});
                }
            }
            // Crossings alternate in kind around the face, so the one after an out->in
            // crossing is the in->out crossing on the far side of the same inside run.
            for (std::size_t m = 0; m < crossings.size(); ++m) {
                if (!crossings[m].outToIn) continue;
                const int from = crossings[m].edge;
                const int to = crossings[(m + 1) % crossings.size()].edge;
                if (next[std::size_t(from)] != -1) {
                    throw std::logic_error("marching cubes: edge starts two segments");
                }
                next[std::size_t(from)] = to;
            }
        }
    }
    return next;
}

// Pass 2 for one case: the closed loops of crossed edges.
std::vector<std::vector<int>> buildLoops(int caseIndex, const std::array<int, 12>& next)
{
    std::vector<std::vector<int>> loops;
    std::array<bool, 12> visited{};
    for (int start = 0; start < 12; ++start) {
        if (next[std::size_t(start)] < 0 || visited[std::size_t(start)]) continue;
        std::vector<int> loop;
        int e = start;
        do {
            if (visited[std::size_t(e)] || next[std::size_t(e)] < 0) {
                throw std::logic_error("marching cubes: open segment chain in case " +
                                       std::to_string(caseIndex));
            }
            visited[std::size_t(e)] = true;
            loop.push_back(e);
            e = next[std::size_t(e)];
        } while (e != start);
        loops.push_back(std::move(loop));
    }
    return loops;
}

// Pass 3 for one loop: the fan apex (a position in the loop) with the fewest diagonals lying
// in a cell face; the first such apex wins, so the choice is deterministic.
std::size_t chooseFanApex(const std::vector<int>& loop)
{
    const std::size_t n = loop.size();
    std::size_t best = 0;
    int bestCount = 1 << 30;
    for (std::size_t apex = 0; apex < n; ++apex) {
        int count = 0;
        for (std::size_t d = 2; d + 1 < n; ++d) {
            if (shareFace(loop[apex], loop[(apex + d) % n])) ++count;
        }
        if (count < bestCount) {
            bestCount = count;
            best = apex;
        }
    }
    return best;
}

CaseTables generate()
{
    CaseTables tables;
    for (int caseIndex = 0; caseIndex < 256; ++caseIndex) {
        std::array<std::uint8_t, 16>& out = tables.triangleEdges[std::size_t(caseIndex)];
        out.fill(0xFF);
        std::size_t count = 0;
        for (const std::vector<int>& loop : buildLoops(caseIndex, buildSegments(caseIndex))) {
            const std::size_t n = loop.size();
            const std::size_t apex = chooseFanApex(loop);
            for (std::size_t d = 1; d + 1 < n; ++d) {
                if (count + 3 > std::size_t(kMaxVerticesPerCell)) {
                    throw std::logic_error("marching cubes: case " + std::to_string(caseIndex) +
                                           " needs more than " +
                                           std::to_string(kMaxVerticesPerCell) + " vertices");
                }
                out[count++] = std::uint8_t(loop[apex]);
                out[count++] = std::uint8_t(loop[(apex + d) % n]);
                out[count++] = std::uint8_t(loop[(apex + d + 1) % n]);
            }
        }
        tables.vertexCount[std::size_t(caseIndex)] = std::uint8_t(count);
    }
    return tables;
}

} // namespace

const CaseTables& caseTables()
{
    // A function-local static: initialised once, thread-safe since C++11.
    static const CaseTables tables = generate();
    return tables;
}

} // namespace isoview::mc
