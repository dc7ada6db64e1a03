// The compiled programs of one IsosurfaceExtractor, and where they are kept. Those every volume
// shares (pyramid reductions, the record, the index pass and the compute path's helpers) are
// compiled once, by the constructor; those that read the volume are compiled the first time a
// volume of their kind comes (sampler type, then slice geometry) and kept for the extractor's
// life, so a new volume or crop of a kind seen before compiles nothing. Every program's
// samplers point at the engine's fixed units (texture_units.h).
//
// Which shaders: the compute path (OpenGL 4.3) builds the vertex and index passes as compute
// shaders and adds hp_classify_blocks.comp, hp_reduce_level.comp and block_starts.comp; the 3.3
// path builds them as vertex shaders for transform feedback.
//
// Contract: internal to the extractor; needs the creating OpenGL context current. Programs are
// compiled on the calling thread (tens of milliseconds each); the constructor and forVolume()
// throw ShaderError when one fails, nothing else. The references returned stay valid for the
// object's life.
#pragma once

#include "gpu/histopyramid.h"
#include "gpu/shader_program.h"
#include "gpu/surface_programs.h"

#include <array>
#include <cstddef>
#include <optional>
#include <vector>

namespace isoview::gpu {

class GpuVolume;

// The programs that read the volume depend on its sampler type; those that map vertices to
// physical space, on its slice geometry too.
struct VolumePrograms {
    ShaderProgram classify;
    ShaderProgram vertices; // iso_vertices.comp, or iso_vertices.vert on the 3.3 path
    std::optional<ShaderProgram> classifyCompute; // hp_classify_blocks.comp (compute path only)
    SurfacePrograms surface;                      // draw the welded mesh

    // The isovalue (stored units) on every program that compares voxels with it.
    void setIsovalue(float isovalue) const;
};

class ExtractionPrograms {
public:
    // `labels`: programs that extract every label of a label map at once (shader_defines.h);
    // their volumes must have an unsigned sampler.
    ExtractionPrograms(bool computeExtraction, bool labels);

    // The programs for this volume's sampler type and slice geometry, compiled on first use.
    const VolumePrograms& forVolume(const GpuVolume& volume);

    // What HistoPyramid::build runs with this volume's programs.
    HistoPyramidPrograms pyramidPrograms(const VolumePrograms& volume) const;
    // Every program that reads the layout uniforms (volume and pyramid layout, crop origin,
    // index-to-physical maps), with this volume's.
    std::vector<const ShaderProgram*> layoutReaders(const VolumePrograms& volume) const;

    const ShaderProgram& record() const { return *m_record; }   // extraction_record.vert
    const ShaderProgram& indices() const { return *m_indices; } // iso_indices.comp or .vert
    // block_starts.comp; the compute path only.
    const ShaderProgram& blockStarts() const { return *m_blockStarts; }

private:
    static constexpr std::size_t kVolumeKinds = 3 * 2; // sampler kinds x slice geometries

    bool m_compute;
    bool m_labels;
    std::optional<ShaderProgram> m_reduce;
    std::optional<ShaderProgram> m_reduceBlocks;
    std::optional<ShaderProgram> m_record;
    std::optional<ShaderProgram> m_indices;
    std::optional<ShaderProgram> m_blockStarts;   // compute path only
    std::optional<ShaderProgram> m_reduceLevel16; // hp_reduce_level.comp (compute path only)
    std::optional<ShaderProgram> m_reduceLevel32;
    std::array<std::optional<VolumePrograms>, kVolumeKinds> m_volumePrograms;
};

} // namespace isoview::gpu
