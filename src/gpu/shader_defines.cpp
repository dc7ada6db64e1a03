#include "gpu/shader_defines.h"

#include "extraction/marching_cubes_tables.h"
#include "gpu/histopyramid.h"

#include <sstream>

namespace isoview::gl {

std::string engineShaderDefines(SamplerKind volumeSampler)
{
    std::ostringstream s;
    s << "#define ISOVIEW_VOLUME_SAMPLER " << samplerTypeName(volumeSampler) << "\n";
    s << "#define HP_FIRST_16BIT_LEVEL " << kFirst16BitLevel << "\n";
    s << "#define HP_FIRST_32BIT_LEVEL " << kFirst32BitLevel << "\n";
    s << "#define MC_EDGE_LOWER_CORNER ";
    for (std::size_t e = 0; e < mc::kEdgeCorners.size(); ++e) {
        s << (e ? ", " : "") << int(mc::kEdgeCorners[e][0]);
    }
    s << "\n";
    return s.str();
}

} // namespace isoview::gl
