#include "gpu/shader_defines.h"

#include "extraction/marching_cubes_tables.h"
#include "extraction/pyramid_layout.h"
#include "gpu/histopyramid.h"

#include <sstream>

namespace isoview::gl {

std::string engineShaderDefines(SamplerKind volumeSampler)
{
    std::ostringstream s;
    s << "#define ISOVIEW_VOLUME_SAMPLER " << samplerTypeName(volumeSampler) << "\n";
    s << "#define HP_FIRST_16BIT_LEVEL " << kFirst16BitLevel << "\n";
    s << "#define HP_FIRST_32BIT_LEVEL " << kFirst32BitLevel << "\n";
    // The traversal's steps, unrolled from the highest level any pyramid can have down to 1,
    // each with its own sampler and mip level as literals.
    s << "#define HP_DESCEND_LEVELS";
    for (int level = int(kMaxPyramidLevels) - 1; level >= 1; --level) {
        if (level >= kFirst32BitLevel) {
            s << " HP_DESCEND(" << level << ", u_hp32, " << level - kFirst32BitLevel << ")";
        } else if (level >= kFirst16BitLevel) {
            s << " HP_DESCEND(" << level << ", u_hp16, " << level - kFirst16BitLevel << ")";
        } else {
            s << " HP_DESCEND(" << level << ", u_hp8, " << level - 1 << ")";
        }
    }
    s << "\n";
    const glm::uvec3 block = PyramidLayout::kBlockCells;
    s << "#define HP_BLOCK_CELLS_X " << block.x << "\n";
    s << "#define HP_BLOCK_CELLS_Y " << block.y << "\n";
    s << "#define HP_BLOCK_CELLS_Z " << block.z << "\n";
    s << "#define MC_EDGE_LOWER_CORNER ";
    for (std::size_t e = 0; e < mc::kEdgeCorners.size(); ++e) {
        s << (e ? ", " : "") << int(mc::kEdgeCorners[e][0]);
    }
    s << "\n";
    // Counts as uint literals: GLSL has no implicit int-to-uint conversion in array
    // constructors.
    const mc::CaseTables& tables = mc::caseTables();
    s << "#define MC_VERTEX_COUNTS ";
    for (std::size_t c = 0; c < tables.vertexCount.size(); ++c) {
        s << (c ? "," : "") << int(tables.vertexCount[c]) << "u";
    }
    s << "\n";
    return s.str();
}

} // namespace isoview::gl
