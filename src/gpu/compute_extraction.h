// The OpenGL 4.3 extraction path: after the pyramid build, compute passes make the welded mesh
// with no count visiting the CPU. block_starts.comp gives each active block its place in the
// mesh and writes the record (draw command and counts, sized on the GPU); iso_vertices.comp
// writes each crossed edge's vertex once, iso_indices.comp each triangle's three indices (a
// rank query on the vertex pyramid), 8 invocations per active block. The draw is indexed
// indirect from the record, unless the buffers might be too small for the mesh: then the counts
// are read back once and the passes run again into buffers grown to them.
//
// The per-block index (BlockMeshIndex, surface_buffers.h) is allocated before any pass runs: when
// it cannot grow, nothing runs, the mesh is not drawn (meshError), and the passes are pending
// until counts() runs them.
//
// Contract: ExtractionPath's (extraction_path.h). On a software rasteriser the dispatches
// finish before they return, so the draw reads the count back without a stall and draws in
// flushed chunks.
#pragma once

#include "gpu/extraction_path.h"
#include "gpu/surface_buffers.h"

#include <cstddef>

namespace isoview::gpu {

class ComputeExtraction final : public ExtractionPath {
public:
    using ExtractionPath::ExtractionPath;

    void reset() override;
    void finishExtract(const LastExtract& last) override;
    void draw(const LastExtract& last, const SurfaceDrawParams& params) override;
    std::size_t bytes() const override { return m_blockIndex.bytes(); }

private:
    void runPendingPasses(const LastExtract& last) override;
    bool passesPending() const override { return m_passesPending; }
    void fillMesh(const LastExtract& last, const HistoPyramid::Counts& counts, bool grew) override;

    // Where each active block's mesh starts (and the record), then the vertex and index passes.
    // Throws GlError (GpuMemoryError) when the per-block index cannot grow; nothing ran then.
    void runPasses(const LastExtract& last);

    BlockMeshIndex m_blockIndex;
    // The last extract could not allocate its per-block index, so no pass ran and the record
    // and mesh buffers still hold an earlier isovalue's; counts() runs them first.
    bool m_passesPending = false;
};

} // namespace isoview::gpu
