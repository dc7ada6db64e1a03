// Every label's surface of a label map, headless, in one GPU pass: the facade the CLI and the
// benchmarks use (the window will draw label maps through SceneRenderer). Each label's surface
// is the isosurface at 0.5 of its indicator, exactly as extractLabelSurfacesCpu makes it; all
// labels come from one HistoPyramid build over the cells where labels meet
// (IsosurfaceExtractor::Options::labels says how).
//
// Contract: every call, the constructor and the destructor need the same OpenGL 3.3+ core context
// current (a HeadlessContext). No GL type appears in this header.
//
// Example:
//   HeadlessContext context;
//   LabelMapExtractor extractor;
//   extractor.setLabelMap(toLabelVolume(volume));
//   for (const LabelSurface& s : extractor.extract()) exportMesh(s.mesh, ...);
#pragma once

#include "extraction/label_surface.h"
#include "extraction/voxel_box.h"
#include "gpu/gpu_info.h"
#include "volume/volume.h"

#include <cstdint>
#include <memory>
#include <optional>

namespace isoview::gpu {

class LabelMapExtractor {
public:
    struct Options {
        bool limitToGl33 = false; // only OpenGL 3.3 features (tests the floor)
    };

    // Compiles the programs. Throws GlError / ShaderError.
    LabelMapExtractor();
    explicit LabelMapExtractor(const Options& options);
    ~LabelMapExtractor();
    LabelMapExtractor(const LabelMapExtractor&) = delete;
    LabelMapExtractor& operator=(const LabelMapExtractor&) = delete;

    const GlCapabilities& capabilities() const;

    // Uploads a label map (uint16 voxels: toLabelVolume) and its pyramid, over the cells of
    // `crop` (the whole volume without one). Throws InvalidInputError for another voxel type or
    // a crop outside the volume, GlError (GpuMemoryError) when it does not fit; the previous
    // label map stays then.
    void setLabelMap(const Volume& labels, const std::optional<VoxelBox>& crop = std::nullopt);

    // Builds every label's surface on the GPU (no wait), then the counts or the meshes.
    void build();
    // Triangles of the last build over all labels (waits for the GPU).
    std::uint32_t triangleCount();
    // The last build's surfaces, one per label that has triangles, ascending labels (waits).
    std::vector<LabelSurface> capture();

    GpuMemoryUse memoryUse() const;

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

} // namespace isoview::gpu
