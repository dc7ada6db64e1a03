// The live surface at half the resolution, for the frames of an isovalue drag when the full
// surface takes too long to extract and draw (FrameParams::previewLiveSurface): a 512 x 512 x 140
// CT's 2.4 M triangles take half a second a frame on a software rasteriser, its half-resolution
// surface (a quarter of the triangles, an eighth of the cells) a quarter of that. The volume is
// halved by 2 x 2 x 2 means (volume/volume_slab.h: halfResolution) on first use, in the same
// physical space, and extracted and drawn by its own SurfaceBricks; the full surface is what
// captures and exports take.
//
// Contract: internal to the engine (SceneRenderer is the facade); needs the same OpenGL
// context current for every call. Isovalues in real units.
#pragma once

#include "extraction/voxel_box.h"
#include "gpu/gpu_info.h"
#include "gpu/isosurface_extractor.h"
#include "volume/volume.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace isoview::gpu {

class SurfaceBricks;

class SurfacePreview {
public:
    // Volumes smaller than this get no preview: their full surface is quick enough.
    static constexpr std::uint64_t kMinVoxels = std::uint64_t(1) << 21;

    explicit SurfacePreview(const IsosurfaceExtractor::Options& options);
    ~SurfacePreview();
    SurfacePreview(const SurfacePreview&) = delete;
    SurfacePreview& operator=(const SurfacePreview&) = delete;

    // Whether a preview of `source` (the volume shown) within `crop` (its voxels) can be drawn:
    // made on the first call for a source (halved, uploaded, its pyramid allocated), which takes
    // the time of a volume upload once. False for no source, a small volume or a crop too thin
    // to halve, and when the GPU cannot take it (logged once per source; the caller draws the
    // full surface instead).
    bool prepare(const std::shared_ptr<const Volume>& source, const VoxelBox& crop,
                 std::uint32_t maxTextureSize);
    // Extracts at this isovalue unless it holds it already. After a successful prepare().
    void extract(double realIsovalue);
    void draw(const SurfaceDrawParams& params);
    // Whether the last draw() may lack the mesh (SurfaceBricks::drawUnconfirmed).
    bool drawUnconfirmed() const;
    // The isovalue it holds (what draw() shows), nullopt before the first extract.
    std::optional<double> isovalue() const { return m_isovalue; }
    std::optional<std::uint32_t> pollVertexCount() const;
    std::uint32_t vertexCount();
    // Why its last extract is not drawn (its mesh buffers could not grow), nullopt if it is.
    std::optional<std::string> meshError() const;
    // Frees what it holds on the GPU (a new volume or time point: made again when asked).
    void release();
    GpuMemoryUse memoryUse() const;

private:
    IsosurfaceExtractor::Options m_options;
    std::unique_ptr<SurfaceBricks> m_bricks;
    std::weak_ptr<const Volume> m_source; // identity: the preview is of this volume
    bool m_failed = false;                // the GPU refused this source's preview
    std::optional<double> m_isovalue;
};

} // namespace isoview::gpu
