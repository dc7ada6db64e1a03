// The scene's stored surfaces: every visible layer but the live one keeps its welded mesh in
// GPU buffers of its own, with the isovalue it was extracted at, so that dragging the live
// surface through the pyramid never re-extracts the others. A layer is stale when its mesh is
// missing or of another isovalue, or of an earlier volume or crop (markStale); storing it
// extracts it in the pyramid and copies the mesh out.
//
// Contract: internal to the engine (SceneRenderer drives it). Every call that touches a mesh
// (storeStale, clearMeshes, retain, the destructor) needs the creating OpenGL context current.
// storeStale() waits for the GPU once per stored layer and never throws: a layer that cannot be
// stored is logged and left empty until its isovalue changes. Isovalues are in real units.
#pragma once

#include "gpu/scene_renderer.h"
#include "gpu/stored_surface_mesh.h"
#include "gpu/surface_bricks.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <vector>

namespace isoview::gpu {

// One surface of the scene as the renderer draws it: its draw colour resolved (its own, else the
// transfer function's), ids the scene's, stable across scenes.
struct SurfaceLayer {
    std::uint32_t id = 0;
    double isovalue = 0.0;               // real units
    glm::vec3 color{0.9f, 0.85f, 0.75f}; // linear RGB
    float opacity = 1.0f;                // 1: opaque; less: translucent (order-independent)
    bool visible = true;
    bool operator==(const SurfaceLayer&) const = default;
};

// Whether the layer is the live one (the one the slider edits, extracted in the pyramid).
inline bool isLiveLayer(const SurfaceLayer& layer, std::optional<std::uint32_t> liveId)
{
    return liveId && layer.id == *liveId;
}

class SurfaceLayerCache {
public:
    struct StoredLayer {
        StoredSurfaceMesh mesh;
        std::optional<double> isovalue; // nullopt: stale, extract before drawing
    };

    // Whether a visible non-live layer's stored mesh is missing or of another isovalue.
    bool stale(const std::vector<SurfaceLayer>& layers, std::optional<std::uint32_t> liveId) const;
    // Extracts each such layer in `surface`'s pyramid and keeps a copy of its mesh (one brick:
    // copied on the GPU; bricks are merged on the CPU first). pyramidIsovalue: the isovalue the
    // pyramid holds, kept up to date (a layer at that isovalue is copied without extracting).
    void storeStale(const std::vector<SurfaceLayer>& layers, std::optional<std::uint32_t> liveId,
                    SurfaceBricks& surface, std::optional<double>& pyramidIsovalue);
    // Forgets the layers that are no longer listed or are live now.
    void retain(const std::vector<SurfaceLayer>& layers, std::optional<std::uint32_t> liveId);
    // An earlier volume or crop: every layer is extracted again before it is drawn.
    void markStale();
    // Frees every stored mesh (of a volume that is gone: markStale() it too).
    void clearMeshes();

    // The layer's stored mesh and isovalue; null when it has none.
    const StoredLayer* find(std::uint32_t layerId) const;
    // GPU memory of the stored meshes.
    std::size_t meshBytes() const;

private:
    std::map<std::uint32_t, StoredLayer> m_layers; // by layer id
};

} // namespace isoview::gpu
