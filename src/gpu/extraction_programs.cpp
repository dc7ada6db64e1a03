#include "gpu/extraction_programs.h"

#include "core/error.h"
#include "gpu/gl_state.h"
#include "gpu/gpu_volume.h"
#include "gpu/shader_defines.h"
#include "gpu/texture_units.h"

#include <initializer_list>
#include <string>
#include <utility>

namespace isoview::gpu {
namespace {

void pointSamplersAtUnits(const ShaderProgram& p)
{
    p.setSamplerUnit("u_volume", units::kVolume);
    p.setSamplerUnit("u_hpBase", units::kHpBase);
    p.setSamplerUnit("u_hp8", units::kHp8);
    p.setSamplerUnit("u_hp16", units::kHp16);
    p.setSamplerUnit("u_hp32", units::kHp32);
    p.setSamplerUnit("u_vp8", units::kVp8);
    p.setSamplerUnit("u_vp16", units::kVp16);
    p.setSamplerUnit("u_vp32", units::kVp32);
    p.setSamplerUnit("u_source", units::kReduceSource);
    p.setSamplerUnit("u_vertexSource", units::kVertexReduceSource);
    p.setSamplerUnit("u_sliceOrigins", units::kSliceOrigins);
    p.setSamplerUnit("u_labelStyles", units::kLabelStyles);
    p.setSamplerUnit("u_blockSlots", units::kBlockSlots);
    p.setSamplerUnit("u_cellFirstVertex", units::kCellFirstVertex);
}

// Where a volume's programs are kept: by sampler kind, then slice geometry.
std::size_t volumeProgramsIndex(SamplerKind sampler, SliceGeometry slices)
{
    return std::size_t(sampler) * 2 + (slices == SliceGeometry::Measured ? 1 : 0);
}

SliceGeometry sliceGeometryOf(const GpuVolume& volume)
{
    return volume.geometry().hasSliceOrigins() ? SliceGeometry::Measured : SliceGeometry::Regular;
}

} // namespace

void VolumePrograms::setIsovalue(float isovalue) const
{
    for (const ShaderProgram* p : {&classify, &vertices}) {
        ScopedProgram use(p->id());
        glUniform1f(p->uniform("u_isovalue"), isovalue);
    }
    if (classifyCompute) {
        ScopedProgram use(classifyCompute->id());
        glUniform1f(classifyCompute->uniform("u_isovalue"), isovalue);
    }
}

ExtractionPrograms::ExtractionPrograms(bool computeExtraction, bool labels)
    : m_compute(computeExtraction), m_labels(labels)
{
    // For label maps the index pass reads the labels too: from the unsigned textures label maps
    // always have (GpuVolume), so these programs still need no volume of their own.
    const std::string defines = engineShaderDefines(SamplerKind::Unsigned, labels);
    m_reduce.emplace("histopyramid reduce",
                     std::vector<ShaderStage>{{GL_VERTEX_SHADER, "fullscreen_triangle.vert"},
                                              {GL_FRAGMENT_SHADER, "hp_reduce.frag"}},
                     defines);
    m_reduceBlocks.emplace("histopyramid reduce blocks",
                           std::vector<ShaderStage>{{GL_VERTEX_SHADER, "hp_block_quad.vert"},
                                                    {GL_FRAGMENT_SHADER, "hp_reduce.frag"}},
                           defines);
    m_record.emplace("extraction record",
                     std::vector<ShaderStage>{{GL_VERTEX_SHADER, "extraction_record.vert"}},
                     defines, std::vector<std::string>{"v_record0", "v_record1"});
    if (m_compute) {
        m_indices.emplace("isosurface indices",
                          std::vector<ShaderStage>{{GL_COMPUTE_SHADER, "iso_indices.comp"}},
                          defines);
        m_blockStarts.emplace("active block starts",
                              std::vector<ShaderStage>{{GL_COMPUTE_SHADER, "block_starts.comp"}},
                              defines);
        pointSamplersAtUnits(*m_blockStarts);
        m_reduceLevel16.emplace(
            "histopyramid reduce 16-bit level (compute)",
            std::vector<ShaderStage>{{GL_COMPUTE_SHADER, "hp_reduce_level.comp"}},
            defines + kReduceTo16BitLevelDefine);
        m_reduceLevel32.emplace(
            "histopyramid reduce 32-bit level (compute)",
            std::vector<ShaderStage>{{GL_COMPUTE_SHADER, "hp_reduce_level.comp"}},
            defines + kReduceTo32BitLevelDefine);
        pointSamplersAtUnits(*m_reduceLevel16);
        pointSamplersAtUnits(*m_reduceLevel32);
    } else {
        m_indices.emplace("isosurface indices",
                          std::vector<ShaderStage>{{GL_VERTEX_SHADER, "iso_indices.vert"}}, defines,
                          std::vector<std::string>{"v_indices"});
    }
    for (const ShaderProgram* p : {&*m_reduce, &*m_reduceBlocks, &*m_record, &*m_indices})
        pointSamplersAtUnits(*p);
}

const VolumePrograms& ExtractionPrograms::forVolume(const GpuVolume& volume)
{
    const SamplerKind kind = volume.samplerKind();
    if (m_labels && kind != SamplerKind::Unsigned) {
        throw GlError("a label map must be uploaded as unsigned integers (it has " +
                      std::string(samplerTypeName(kind)) + " voxels)");
    }
    const SliceGeometry slices = sliceGeometryOf(volume);
    auto& slot = m_volumePrograms[volumeProgramsIndex(kind, slices)];
    if (slot) return *slot;
    const std::string defines = engineShaderDefines(kind, m_labels) + sliceGeometryDefine(slices);
    ShaderProgram classify(
        "histopyramid classify",
        {{GL_VERTEX_SHADER, "hp_block_quad.vert"}, {GL_FRAGMENT_SHADER, "hp_base_level.frag"}},
        defines);
    ShaderProgram vertices =
        m_compute ? ShaderProgram("isosurface vertices", {{GL_COMPUTE_SHADER, "iso_vertices.comp"}},
                                  defines)
                  : ShaderProgram("isosurface vertices", {{GL_VERTEX_SHADER, "iso_vertices.vert"}},
                                  defines, {"v_position", "v_normal", "v_lowerVoxel", "v_axis"});
    std::optional<ShaderProgram> classifyCompute;
    if (m_compute) {
        classifyCompute.emplace(
            "histopyramid classify and reduce blocks (compute)",
            std::vector<ShaderStage>{{GL_COMPUTE_SHADER, "hp_classify_blocks.comp"}}, defines);
        pointSamplersAtUnits(*classifyCompute);
    }
    slot.emplace(VolumePrograms{std::move(classify), std::move(vertices),
                                std::move(classifyCompute),
                                buildSurfacePrograms("isosurface", defines)});
    for (const ShaderProgram* p :
         {&slot->classify, &slot->vertices, &slot->surface.opaque, &slot->surface.translucent})
        pointSamplersAtUnits(*p);
    return *slot;
}

HistoPyramidPrograms ExtractionPrograms::pyramidPrograms(const VolumePrograms& volume) const
{
    return {volume.classify,
            *m_reduceBlocks,
            *m_reduce,
            volume.classifyCompute ? &*volume.classifyCompute : nullptr,
            m_reduceLevel16 ? &*m_reduceLevel16 : nullptr,
            m_reduceLevel32 ? &*m_reduceLevel32 : nullptr};
}

std::vector<const ShaderProgram*>
ExtractionPrograms::layoutReaders(const VolumePrograms& volume) const
{
    std::vector<const ShaderProgram*> readers = {&volume.classify,
                                                 &volume.vertices,
                                                 &volume.surface.opaque,
                                                 &volume.surface.translucent,
                                                 &*m_reduce,
                                                 &*m_reduceBlocks,
                                                 &*m_record,
                                                 &*m_indices};
    if (volume.classifyCompute) readers.push_back(&*volume.classifyCompute);
    if (m_blockStarts) readers.push_back(&*m_blockStarts);
    return readers;
}

} // namespace isoview::gpu
