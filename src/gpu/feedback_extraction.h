// The OpenGL 3.3 extraction path (the engine's floor): after the pyramid build, the record pass
// writes the counts; the welded mesh is made only once they are read back, by two passes that
// render points with rasterisation discarded and capture what the vertex shaders write
// (transform feedback): iso_vertices.vert one point per welded vertex, iso_indices.vert one per
// triangle. So the first draw, capture or count after an extract waits for the GPU; the draw
// is then an ordinary indexed one of the counts read back.
//
// Contract: ExtractionPath's (extraction_path.h).
#pragma once

#include "gpu/extraction_path.h"

namespace isoview::gpu {

class FeedbackExtraction final : public ExtractionPath {
public:
    using ExtractionPath::ExtractionPath;

    void finishExtract(const LastExtract& last) override;
    void draw(const LastExtract& last, const SurfaceDrawParams& params) override;

private:
    // The vertex and index passes, sized by the counts read back.
    void fillMesh(const LastExtract& last, const HistoPyramid::Counts& counts, bool grew) override;
};

} // namespace isoview::gpu
