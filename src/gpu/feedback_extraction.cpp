#include "gpu/feedback_extraction.h"

#include "gpu/gl_state.h"

#include <cstdint>

namespace isoview::gpu {

void FeedbackExtraction::finishExtract(const LastExtract& last)
{
    // The record (draw command, counts) for the current buffer capacities.
    setCapacityUniforms(m_programs.record());
    ScopedTextureUnits<units::kCount> restoreUnits(last.textures);
    last.pyramid.writeRecord(m_programs.record(), m_emptyVertexArray);
}

void FeedbackExtraction::fillMesh(const LastExtract& last, const HistoPyramid::Counts& counts,
                                  bool /*grew*/)
{
    ScopedTextureUnits<units::kCount> restoreUnits(last.textures);
    last.pyramid.bindLevelTextures();
    ScopedVertexArray vao(m_emptyVertexArray);
    ScopedCapability discard(GL_RASTERIZER_DISCARD, true);
    ScopedFramebuffer framebuffer(last.pyramid.framebufferForDiscardedDraws());
    const auto capture = [](const ShaderProgram& program, GLuint buffer, std::uint32_t points) {
        if (points == 0) return;
        ScopedProgram use(program.id());
        ScopedIndexedBufferBinding target(GL_TRANSFORM_FEEDBACK_BUFFER, 0, buffer);
        glBeginTransformFeedback(GL_POINTS);
        glDrawArrays(GL_POINTS, 0, GLsizei(points));
        glEndTransformFeedback();
    };
    capture(last.programs.vertices, m_buffers.vertexBuffer(), counts.vertices);
    capture(m_programs.indices(), m_buffers.indexBuffer(), counts.indices / 3);
}

void FeedbackExtraction::draw(const LastExtract& last, const SurfaceDrawParams& params)
{
    // The counts are read back once per isovalue (completeMesh keeps them).
    const std::optional<HistoPyramid::Counts> counts = meshToDraw(last);
    if (!counts || counts->indices == 0) return;
    ScopedSurfaceDraw bound(last, m_buffers, params);
    drawIndexedTriangles(counts->indices, m_softwareRasterizer);
}

} // namespace isoview::gpu
