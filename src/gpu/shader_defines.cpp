#include "gpu/shader_defines.h"

#include "extraction/marching_cubes_tables.h"
#include "extraction/pyramid_layout.h"
#include "gpu/extraction_record.h"
#include "gpu/histopyramid.h"

#include <array>
#include <cstdint>
#include <sstream>
#include <utility>

namespace isoview::gpu {

std::string engineShaderDefines(SamplerKind volumeSampler, bool labels)
{
    std::ostringstream s;
    s << "#define ISOVIEW_VOLUME_SAMPLER " << samplerTypeName(volumeSampler) << "\n";
    if (labels) s << "#define ISOVIEW_LABELS 1\n";
    // The base level's image format (HistoPyramid's wideBase), for the compute build.
    s << "#define HP_BASE_FORMAT " << (labels ? "rgba16ui" : "rgba8ui") << "\n";
    s << "#define HP_FIRST_16BIT_LEVEL " << kFirst16BitLevel << "\n";
    s << "#define HP_FIRST_32BIT_LEVEL " << kFirst32BitLevel << "\n";
    // The traversal's steps, unrolled from the highest level any pyramid can have down to 1,
    // each with its own sampler and mip level as literals; the rank query's steps the other
    // way. The samplers are arguments: the triangle and the vertex pyramid share the steps.
    const auto samplerOf = [](int level) -> std::pair<const char*, int> {
        if (level >= kFirst32BitLevel) return {"S32", level - kFirst32BitLevel};
        if (level >= kFirst16BitLevel) return {"S16", level - kFirst16BitLevel};
        return {"S8", level - 1};
    };
    s << "#define HP_DESCEND_LEVELS(S8, S16, S32)";
    for (int level = int(kMaxPyramidLevels) - 1; level >= 1; --level) {
        const auto [sampler, lod] = samplerOf(level);
        s << " HP_DESCEND(" << level << ", " << sampler << ", " << lod << ")";
    }
    s << "\n";
    s << "#define HP_DESCEND_BLOCK_LEVELS(S8, S16, S32)";
    for (int level = int(PyramidLayout::kBlockLevel); level >= 1; --level) {
        const auto [sampler, lod] = samplerOf(level);
        s << " HP_DESCEND(" << level << ", " << sampler << ", " << lod << ")";
    }
    s << "\n";
    // The triangle pyramid stores its 8-bit levels from kFirstStoredTriangleLevel: its steps end
    // there, its 8-bit mips count from it (common/histopyramid_traverse.glsl takes the last step).
    const auto triangleStep = [&](int level) {
        const auto [sampler, lod] = samplerOf(level);
        const bool eightBit = level < kFirst16BitLevel;
        s << " HP_DESCEND(" << level << ", " << sampler << ", "
          << (eightBit ? level - int(kFirstStoredTriangleLevel) : lod) << ")";
    };
    s << "#define HP_TRIANGLE_DESCEND_LEVELS(S8, S16, S32)";
    for (int level = int(kMaxPyramidLevels) - 1; level >= int(kFirstStoredTriangleLevel); --level)
        triangleStep(level);
    s << "\n";
    s << "#define HP_TRIANGLE_DESCEND_BLOCK_LEVELS(S8, S16, S32)";
    for (int level = int(PyramidLayout::kBlockLevel); level >= int(kFirstStoredTriangleLevel);
         --level)
        triangleStep(level);
    s << "\n";
    s << "#define HP_ASCEND_ABOVE_BLOCK_LEVELS(S8, S16, S32)";
    for (int level = int(PyramidLayout::kBlockLevel) + 1; level < int(kMaxPyramidLevels); ++level) {
        const auto [sampler, lod] = samplerOf(level);
        s << " HP_ASCEND(" << level << ", " << sampler << ", " << lod << ")";
    }
    s << "\n";
    s << "#define HP_ASCEND_LEVELS(S8, S16, S32)";
    for (int level = 1; level < int(kMaxPyramidLevels); ++level) {
        const auto [sampler, lod] = samplerOf(level);
        s << " HP_ASCEND(" << level << ", " << sampler << ", " << lod << ")";
    }
    s << "\n";
    s << "#define HP_BLOCK_LEVEL " << PyramidLayout::kBlockLevel << "\n";
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
    // Each case's 15 triangle edges as 4-bit fields, edges 0-7 then 8-14 in two uints: a
    // constant array lookup costs far less than a case-table texel fetch on software rasterisers.
    s << "#define MC_TRIANGLE_EDGES ";
    for (std::size_t c = 0; c < 256; ++c) {
        std::array<std::uint32_t, 2> packed{};
        for (std::size_t v = 0; v < 15; ++v)
            packed[v / 8] |= std::uint32_t(tables.triangleEdges[c][v] & 15u) << (4 * (v % 8));
        s << (c ? "," : "") << packed[0] << "u," << packed[1] << "u";
    }
    s << "\n";
    s << "#define XR_INDEX_COUNT " << record::kIndexCount << "\n";
    s << "#define XR_VERTEX_COUNT " << record::kVertexCount << "\n";
    return s.str();
}

} // namespace isoview::gpu
