#include "extraction/edge_ownership.h"

#include "extraction/marching_cubes_tables.h"

namespace isoview::mc {

std::uint16_t crossedEdgeMask(std::uint32_t caseIndex)
{
    std::uint16_t mask = 0;
    for (std::size_t e = 0; e < kEdgeCorners.size(); ++e) {
        const bool lowerInside = ((caseIndex >> kEdgeCorners[e][0]) & 1u) != 0;
        const bool upperInside = ((caseIndex >> kEdgeCorners[e][1]) & 1u) != 0;
        if (lowerInside != upperInside) mask = std::uint16_t(mask | (1u << e));
    }
    return mask;
}

std::uint16_t ownedEdgeMask(std::uint32_t farFaces)
{
    std::uint16_t mask = 0;
    for (std::size_t e = 0; e < kEdgeCorners.size(); ++e) {
        const int axis = edgeAxis(int(e));
        bool owned = true;
        for (int d = 0; d < 3; ++d) {
            // Off the edge's axis, a lower corner at offset 1 is only this cell's to own when no
            // cell lies beyond it.
            if (d != axis && cornerOffset(kEdgeCorners[e][0], d) == 1 &&
                ((farFaces >> d) & 1u) == 0)
                owned = false;
        }
        if (owned) mask = std::uint16_t(mask | (1u << e));
    }
    return mask;
}

int edgeAt(int axis, int lowerCorner)
{
    for (std::size_t e = 0; e < kEdgeCorners.size(); ++e) {
        if (edgeAxis(int(e)) == axis && kEdgeCorners[e][0] == lowerCorner) return int(e);
    }
    return -1;
}

} // namespace isoview::mc
