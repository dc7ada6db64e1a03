#include "gpu/compute_extraction.h"

#include "gpu/extraction_record.h"
#include "gpu/gl_state.h"
#include "gpu/texture_units.h"

#include <algorithm>
#include <cstdint>

namespace isoview::gpu {
namespace {

// Active blocks per work group of the vertex and index passes (common/block_work_group.glsl).
constexpr std::uint32_t kBlocksPerWorkGroup = 8;

// `groups` work groups of 64, as rows of at most 32768 (the x limit is 65535). At least one,
// also when no block is active (its invocations return at once): drivers that compile a pass at
// its first dispatch (llvmpipe) then do so on the first extract, not on a later one that may
// run short of memory.
void dispatchGroups(std::uint32_t groups)
{
    groups = std::max(groups, 1u);
    const std::uint32_t perRow = 32768;
    glDispatchCompute(std::min(groups, perRow), (groups + perRow - 1) / perRow, 1);
}

} // namespace

void ComputeExtraction::reset()
{
    ExtractionPath::reset();
    m_blockIndex.release();
}

void ComputeExtraction::finishExtract(const LastExtract& last)
{
    m_passesPending = false;
    try {
        runPasses(last); // writes the record too
        m_meshComplete = m_buffers.holdsAnyOutcome(last.activeBlocks.size(), last.labels);
    } catch (const GlError& e) {
        // Its buffers come first: nothing ran, and draw() draws nothing for this isovalue.
        m_passesPending = true;
        failMesh(e, last.isovalue);
    }
}

void ComputeExtraction::runPendingPasses(const LastExtract& last)
{
    if (!m_passesPending) return;
    runPasses(last);
    m_passesPending = false;
    m_meshComplete = m_buffers.holdsAnyOutcome(last.activeBlocks.size(), last.labels);
    m_knownCounts.reset();
}

void ComputeExtraction::fillMesh(const LastExtract& last, const HistoPyramid::Counts& /*counts*/,
                                 bool grew)
{
    if (grew) runPasses(last); // the record too, for the new capacities
}

void ComputeExtraction::runPasses(const LastExtract& last)
{
    // First: when these throw, nothing has run.
    m_blockIndex.reserve(last.activeBlocks.size());
    HistoPyramid& pyramid = last.pyramid;
    const GLuint blockSlotTexels = pyramid.blockSlotsTexels();
    const auto blocks = std::uint32_t(last.activeBlocks.size());
    const ShaderProgram& vertices = last.programs.vertices;
    const ShaderProgram& indices = m_programs.indices();
    const ShaderProgram& blockStarts = m_programs.blockStarts();
    setCapacityUniforms(vertices);
    setCapacityUniforms(indices);
    setCapacityUniforms(blockStarts);
    for (const ShaderProgram* p : {&blockStarts, &vertices, &indices}) {
        ScopedProgram use(p->id());
        glUniform1ui(p->uniform("u_activeBlockCount"), blocks);
    }
    ScopedTextureUnits<units::kCount> restoreUnits(last.textures);
    pyramid.bindLevelTextures();
    ScopedIndexedBufferBinding slots(GL_SHADER_STORAGE_BUFFER, 2, pyramid.blockSlotsBuffer());
    ScopedIndexedBufferBinding active(GL_SHADER_STORAGE_BUFFER, 3, pyramid.activeBlocksBuffer());
    ScopedIndexedBufferBinding starts(GL_SHADER_STORAGE_BUFFER, 4, m_blockIndex.blockStarts());
    ScopedIndexedBufferBinding cellFirst(GL_SHADER_STORAGE_BUFFER, 5,
                                         m_blockIndex.cellFirstVertex());
    {
        // Block starts and slots, and the record (draw command and counts).
        ScopedProgram use(blockStarts.id());
        ScopedIndexedBufferBinding record(GL_SHADER_STORAGE_BUFFER, 1, pyramid.recordBuffer());
        dispatchGroups((blocks + 63) / 64);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
        pyramid.copyRecordAside();
    }
    {
        ScopedProgram use(vertices.id());
        ScopedIndexedBufferBinding output(GL_SHADER_STORAGE_BUFFER, 0, m_buffers.vertexBuffer());
        dispatchGroups((blocks + kBlocksPerWorkGroup - 1) / kBlocksPerWorkGroup);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT); // cellFirstVertex, for the indices
    }
    {
        ScopedProgram use(indices.id());
        ScopedIndexedBufferBinding output(GL_SHADER_STORAGE_BUFFER, 0, m_buffers.indexBuffer());
        ScopedBufferTextureUnit slotTexels(units::kBlockSlots, blockSlotTexels);
        ScopedBufferTextureUnit cellTexels(units::kCellFirstVertex,
                                           m_blockIndex.cellFirstVertexTexels());
        dispatchGroups((blocks + kBlocksPerWorkGroup - 1) / kBlocksPerWorkGroup);
    }
    // The draw reads them as vertices and indices and its command from the record; capture
    // reads them back.
    glMemoryBarrier(GL_VERTEX_ATTRIB_ARRAY_BARRIER_BIT | GL_ELEMENT_ARRAY_BARRIER_BIT |
                    GL_COMMAND_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
}

void ComputeExtraction::draw(const LastExtract& last, const SurfaceDrawParams& params)
{
    // Straight from the record unless the buffers might be too small for the mesh. Then a GPU
    // draw of a drag frame still goes from the record the first time, which draws nothing
    // when the mesh did not fit (block_starts.comp), rather than stall the CPU on the counts
    // every frame; the caller draws again for the whole mesh.
    if (!m_meshComplete) {
        const bool fromRecord = !m_softwareRasterizer && params.withoutCountWait &&
                                !m_drawnWithoutCounts && !m_passesPending && !m_knownCounts &&
                                !m_meshError;
        if (fromRecord) {
            m_drawnWithoutCounts = true;
            m_lastDrawUnconfirmed = true;
        } else if (!meshToDraw(last)) {
            return;
        }
    }
    ScopedSurfaceDraw bound(last, m_buffers, params);
    if (m_softwareRasterizer) {
        // The compute passes have run by now on a CPU renderer (its dispatches finish before
        // they return), so the count is there to read without a stall, and the draw can go in
        // flushed chunks (drawIndexedTriangles).
        std::uint32_t indices = 0;
        try {
            indices = counts(last).indices;
        } catch (const GlError& e) {
            failMesh(e, last.isovalue);
            return;
        }
        drawIndexedTriangles(indices, true);
    } else {
        ScopedBufferBinding command(GL_DRAW_INDIRECT_BUFFER, last.pyramid.recordBuffer());
        glDrawElementsIndirect(GL_TRIANGLES, GL_UNSIGNED_INT,
                               reinterpret_cast<const void*>(record::kDrawCommand));
    }
}

} // namespace isoview::gpu
