#include "gpu/extraction_path.h"

#include "core/log.h"

#include <glm/gtc/type_ptr.hpp>

namespace isoview::gpu {
namespace {

const ShaderProgram& surfaceProgramFor(const LastExtract& last, const SurfaceDrawParams& params)
{
    return params.opacity < 1.0f ? last.programs.surface.translucent : last.programs.surface.opaque;
}

} // namespace

ExtractionPath::ExtractionPath(const ExtractionPrograms& programs, SurfaceBuffers& buffers,
                               GLuint emptyVertexArray, bool softwareRasterizer)
    : m_programs(programs), m_buffers(buffers), m_emptyVertexArray(emptyVertexArray),
      m_softwareRasterizer(softwareRasterizer)
{
}

void ExtractionPath::reset()
{
    m_knownCounts = HistoPyramid::Counts{};
    m_meshComplete = true;
    m_meshError.reset();
}

void ExtractionPath::extractNothing()
{
    m_knownCounts = HistoPyramid::Counts{};
    m_meshComplete = true;
}

void ExtractionPath::beginExtract()
{
    m_meshError.reset();
    m_knownCounts.reset();
    m_meshComplete = false;
    m_drawnWithoutCounts = false;
}

const HistoPyramid::Counts& ExtractionPath::counts(const LastExtract& last)
{
    runPendingPasses(last);
    if (!m_knownCounts) m_knownCounts = last.pyramid.readCounts();
    return *m_knownCounts;
}

const HistoPyramid::Counts& ExtractionPath::completeMesh(const LastExtract& last)
{
    const HistoPyramid::Counts& known = counts(last);
    if (m_meshComplete) return known;
    const bool grew = m_buffers.reserve(known.vertices, known.indices);
    fillMesh(last, known, grew);
    m_meshComplete = true;
    return known;
}

std::optional<std::uint32_t> ExtractionPath::pollIndexCount(const HistoPyramid& pyramid) const
{
    if (passesPending()) return std::nullopt; // the record is an earlier isovalue's
    if (m_knownCounts) return m_knownCounts->indices;
    if (const auto polled = pyramid.pollCounts()) return polled->indices;
    return std::nullopt;
}

std::optional<HistoPyramid::Counts> ExtractionPath::meshToDraw(const LastExtract& last)
{
    if (m_meshError) return std::nullopt; // this isovalue's mesh does not fit; said once
    try {
        return completeMesh(last);
    } catch (const GlError& e) {
        // The buffers are empty (SurfaceBuffers::reserve): nothing of this mesh is drawn.
        failMesh(e, last.isovalue);
        return std::nullopt;
    }
}

void ExtractionPath::failMesh(const GlError& error, float isovalue)
{
    m_meshError = error.what();
    log::get("engine")->error("the surface at stored value {} (the volume's stored units) is "
                              "not drawn: {}",
                              isovalue, error.what());
}

void ExtractionPath::setCapacityUniforms(const ShaderProgram& p) const
{
    ScopedProgram use(p.id());
    glUniform1ui(p.uniform("u_vertexCapacity"), m_buffers.vertexCapacity());
    glUniform1ui(p.uniform("u_indexCapacity"), m_buffers.indexCapacity());
}

ScopedSurfaceDraw::ScopedSurfaceDraw(const LastExtract& last, const SurfaceBuffers& buffers,
                                     const SurfaceDrawParams& params)
    : m_program(surfaceProgramFor(last, params).id()), m_vertexArray(buffers.vertexArray()),
      m_units(last.textures)
{
    const ShaderProgram& surface = surfaceProgramFor(last, params);
    glUniformMatrix4fv(surface.uniform("u_physicalToClip"), 1, GL_FALSE,
                       glm::value_ptr(params.physicalToClip));
    glUniformMatrix3fv(surface.uniform("u_physicalToViewNormal"), 1, GL_FALSE,
                       glm::value_ptr(params.physicalToViewNormal));
    glUniform3fv(surface.uniform("u_surfaceColor"), 1, glm::value_ptr(params.color));
    if (params.opacity < 1.0f) glUniform1f(surface.uniform("u_opacity"), params.opacity);
    if (last.labels) glUniform1f(surface.uniform("u_labelInsetMm"), params.labelInsetMm);
}

} // namespace isoview::gpu
