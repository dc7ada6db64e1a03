// The scene's label map on the GPU, beside the volume's isosurfaces: its own GpuVolume (uint16
// labels) and label-map extractor. All labels are extracted in one pass once per label map and
// crop; each frame draws them in the scene's per-label styles, which only update a texture.
// While the layer is smoothed, the smoothed surfaces it carries (made on the CPU, off the GUI
// thread) are uploaded once and drawn instead, in the same styles; no extraction runs then.
//
// Contract: internal to SceneRenderer; the same context current on every call. setLabelMap
// throws as GpuVolume and IsosurfaceExtractor::setVolume do, with the previous label map kept;
// the rest never throws except capture (as IsosurfaceExtractor::captureLabels).
#pragma once

#include "extraction/label_surface.h"
#include "extraction/voxel_box.h"
#include "gpu/gpu_info.h"
#include "gpu/isosurface_extractor.h"
#include "gpu/stored_surface_mesh.h"
#include "scene/label_layer.h"

#include <cstdint>
#include <map>
#include <memory>
#include <vector>

namespace isoview::gpu {

class GpuVolume;

class LabelSurfaces {
public:
    explicit LabelSurfaces(bool limitToGl33);
    ~LabelSurfaces();

    // Uploads a label map (uint16, on the volume's grid) over the cells of `crop`; null forgets
    // it. Extracted at the next extractIfNeeded().
    void setLabelMap(std::shared_ptr<const Volume> labelMap, const VoxelBox& crop);
    const std::shared_ptr<const Volume>& labelMap() const { return m_labelMap; }
    void setCrop(const VoxelBox& crop);
    // The scene's layer: its styles when it shows this label map, else nothing is drawn.
    void setLayer(const std::optional<LabelLayer>& layer);

    // The one extraction after a new label map or crop; nothing otherwise.
    bool needsExtraction() const { return m_shown && m_dirty && !m_smoothed; }
    void extractIfNeeded();
    // The opaque labels, or the translucent ones, with the caller's depth and blend state.
    void draw(const SurfaceDrawParams& params, bool translucent);
    bool hasTranslucentLabels() const { return m_shown && m_translucent; }
    // Whether the smoothed surfaces are drawn (the layer's drawnSmoothing()).
    bool drawsSmoothed() const { return m_shown && m_smoothed; }
    std::uint64_t extractions() const { return m_extractions; }
    std::vector<LabelSurface> capture();
    GpuMemoryUse memoryUse() const;

private:
    void extractIfDirty();
    void adoptSmoothing(const std::optional<LabelLayer>& layer);

    IsosurfaceExtractor m_extractor;
    StoredSurfaceProgram m_smoothedProgram;
    StoredSurfaceMesh m_smoothedMesh;
    std::shared_ptr<const SmoothedLabelSurfaces> m_smoothed; // uploaded; null: none drawn
    std::unique_ptr<GpuVolume> m_volume;
    std::shared_ptr<const Volume> m_labelMap;
    std::map<std::uint32_t, LabelStyle> m_styles; // as last uploaded (compared each frame)
    bool m_shown = false;                         // the scene's layer shows this label map
    bool m_translucent = false;                   // some label is drawn translucent
    bool m_dirty = false;                         // a new label map or crop, not yet extracted
    std::uint64_t m_extractions = 0;
    float m_insetMm = 0.0f; // SurfaceDrawParams::labelInsetMm for this label map's spacing
};

} // namespace isoview::gpu
