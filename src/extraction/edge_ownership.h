// Which cell owns each grid edge: the rule that lets the GPU compute every welded vertex once.
//
// A crossed grid edge is shared by up to four cells. Its vertex belongs to exactly one of them,
// the owner: the cell whose lowest voxel is the edge's lower voxel, moved back inside the grid
// on the axes where that voxel lies on the far face (there is no cell beyond it). So an
// interior cell owns its three edges leaving corner 0 (0, 4 and 8), and cells on the far faces
// also own the face's edges that no cell further on could. The vertex pyramid counts, per cell,
// the crossed edges it owns; their order within the cell is ascending edge number.
//
// Pure tables, no GL: the shaders get them as #defines (gpu/shader_defines.cpp), the tests
// check that every crossed edge of a volume has exactly one owner.
#pragma once

#include <glm/glm.hpp>

#include <cstdint>

namespace isoview::mc {

// Bit e set when edge e of a cell of case `caseIndex` is crossed (its two corners differ).
std::uint16_t crossedEdgeMask(std::uint32_t caseIndex);

// The edges a cell owns. farFaces bit d (0 = x, 1 = y, 2 = z) is set when the cell is the last
// along axis d (cell[d] == cellCount[d] - 1).
std::uint16_t ownedEdgeMask(std::uint32_t farFaces);

// farFaces of a cell, as ownedEdgeMask takes it.
inline std::uint32_t farFacesOf(glm::uvec3 cell, glm::uvec3 cellCount)
{
    return (cell.x + 1 == cellCount.x ? 1u : 0u) | (cell.y + 1 == cellCount.y ? 2u : 0u) |
           (cell.z + 1 == cellCount.z ? 4u : 0u);
}

// The edge of a cell along `axis` whose lower corner is `lowerCorner` (which has no offset along
// the axis); -1 when there is none.
int edgeAt(int axis, int lowerCorner);

} // namespace isoview::mc
