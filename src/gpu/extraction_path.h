// How the welded mesh is made from a built HistoPyramid and drawn: the part of extraction that
// differs between OpenGL 4.3 and the 3.3 floor. IsosurfaceExtractor builds the pyramid the same
// way on both and picks one path at construction: ComputeExtraction (compute passes sized on the
// GPU, an indirect draw; compute_extraction.h) or FeedbackExtraction (transform-feedback passes
// run once the counts are read back; feedback_extraction.h).
//
// A path keeps what is known of the last extract: its counts once read back, whether the mesh
// buffers hold its whole mesh, and why it is not drawn (the buffers could not grow to it, logged
// once). The extractor tells it when a volume or crop is adopted and when an extract begins and
// ends, and asks it for counts, the complete mesh and draws.
//
// Contract: internal to IsosurfaceExtractor, whose contract holds here: its context current on
// the calling thread, the GL state restored by every call, and no throwing from
// finishExtract() or draw(). The programs, mesh buffers and vertex array given to the
// constructor are borrowed and outlive the path.
#pragma once

#include "core/error.h"
#include "gpu/extraction_programs.h"
#include "gpu/gl_state.h"
#include "gpu/histopyramid.h"
#include "gpu/isosurface_extractor.h"
#include "gpu/surface_buffers.h"
#include "gpu/texture_units.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace isoview::gpu {

// The last extract as a path sees it, lent by the extractor for one call.
struct LastExtract {
    HistoPyramid& pyramid;
    const VolumePrograms& programs; // those of the extract's volume
    std::span<const std::uint32_t> activeBlocks;
    std::array<GLuint, units::kCount> textures; // the volume's units (ScopedTextureUnits)
    float isovalue;                             // stored units (0.5 for a label map)
    bool labels = false;                        // every label of a label map at once
};

class ExtractionPath {
public:
    ExtractionPath(const ExtractionPrograms& programs, SurfaceBuffers& buffers,
                   GLuint emptyVertexArray, bool softwareRasterizer);
    virtual ~ExtractionPath() = default;
    ExtractionPath(const ExtractionPath&) = delete;
    ExtractionPath& operator=(const ExtractionPath&) = delete;

    // A new volume or crop (the extractor has released the mesh buffers): nothing extracted,
    // nothing wrong.
    virtual void reset();
    // extract() on a volume without cells: an empty mesh.
    void extractNothing();
    // extract(), before the pyramid build: the previous counts and error are forgotten.
    void beginExtract();
    // extract(), after the pyramid build: the record and, where the path can without the
    // counts, the mesh. No CPU wait; never throws (meshError() says what failed).
    virtual void finishExtract(const LastExtract& last) = 0;

    // The counts of the last extract, read back once (waits for the GPU the first time). Throws
    // GlError when passes the extract could not run fail again.
    const HistoPyramid::Counts& counts(const LastExtract& last);
    // The same, with the whole mesh in the buffers (they grow to it). Throws GpuMemoryError
    // when the buffers cannot grow to the mesh, GlError as counts() does.
    const HistoPyramid::Counts& completeMesh(const LastExtract& last);
    // The index count without waiting: nullopt while the GPU has not produced it.
    std::optional<std::uint32_t> pollIndexCount(const HistoPyramid& pyramid) const;

    // Draws the last extract into the bound framebuffer (IsosurfaceExtractor::draw). Never
    // throws.
    virtual void draw(const LastExtract& last, const SurfaceDrawParams& params) = 0;
    // Whether the last draw went from the record without the counts, so it may lack the mesh
    // (IsosurfaceExtractor::lastDrawUnconfirmed); forgetDraw() before each draw.
    bool lastDrawUnconfirmed() const { return m_lastDrawUnconfirmed; }
    void forgetDraw() { m_lastDrawUnconfirmed = false; }

    const std::optional<std::string>& meshError() const { return m_meshError; }
    // GPU memory the path keeps beside the mesh buffers, in bytes.
    virtual std::size_t bytes() const { return 0; }

protected:
    // counts(): runs first what the last extract could not.
    virtual void runPendingPasses(const LastExtract& /*last*/) {}
    // Whether the record still holds an earlier isovalue's counts (passes are pending).
    virtual bool passesPending() const { return false; }
    // completeMesh(): fills the buffers, which hold `counts` now (`grew`: they were just
    // reallocated, so what they held is gone).
    virtual void fillMesh(const LastExtract& last, const HistoPyramid::Counts& counts,
                          bool grew) = 0;

    // completeMesh() for a draw: nullopt when the mesh is not drawn, because its buffers could
    // not grow to it, now (said here) or before (said then).
    std::optional<HistoPyramid::Counts> meshToDraw(const LastExtract& last);
    // Records why the last extract's mesh is not drawn and logs it.
    void failMesh(const GlError& error, float isovalue);
    // The mesh buffers' capacities on a program that must not write past them.
    void setCapacityUniforms(const ShaderProgram& p) const;

    const ExtractionPrograms& m_programs;
    SurfaceBuffers& m_buffers;
    GLuint m_emptyVertexArray;
    bool m_softwareRasterizer;
    // The counts of the last extract once read back, and whether the mesh buffers hold its mesh
    // in full (what makes it so is the path's).
    std::optional<HistoPyramid::Counts> m_knownCounts;
    bool m_meshComplete = false;
    std::optional<std::string> m_meshError;
    // This extract was drawn once without the counts (its next draw waits for them), and the
    // last draw was such a draw.
    bool m_drawnWithoutCounts = false;
    bool m_lastDrawUnconfirmed = false;
};

// For one draw of the welded mesh: the surface program for the draw's opacity with the draw's
// uniforms, the mesh buffers' vertex array and the volume's texture units, bound for the scope.
class ScopedSurfaceDraw {
public:
    ScopedSurfaceDraw(const LastExtract& last, const SurfaceBuffers& buffers,
                      const SurfaceDrawParams& params);
    ScopedSurfaceDraw(const ScopedSurfaceDraw&) = delete;
    ScopedSurfaceDraw& operator=(const ScopedSurfaceDraw&) = delete;

private:
    ScopedProgram m_program;
    ScopedVertexArray m_vertexArray;
    ScopedTextureUnits<units::kCount> m_units;
};

} // namespace isoview::gpu
