#include "gpu/surface_layer_cache.h"

#include "core/error.h"
#include "core/log.h"

#include <algorithm>
#include <iterator>
#include <new>

namespace isoview::gpu {

bool SurfaceLayerCache::stale(const std::vector<SurfaceLayer>& layers,
                              std::optional<std::uint32_t> liveId) const
{
    for (const SurfaceLayer& layer : layers) {
        if (isLiveLayer(layer, liveId) || !layer.visible) continue;
        const auto it = m_layers.find(layer.id);
        if (it == m_layers.end() || it->second.isovalue != layer.isovalue) return true;
    }
    return false;
}

// A capture: waits for the GPU, once per change of that layer, never while the live one is
// dragged.
void SurfaceLayerCache::storeStale(const std::vector<SurfaceLayer>& layers,
                                   std::optional<std::uint32_t> liveId, SurfaceBricks& surface,
                                   std::optional<double>& pyramidIsovalue)
{
    for (const SurfaceLayer& layer : layers) {
        if (isLiveLayer(layer, liveId) || !layer.visible) continue;
        StoredLayer& entry = m_layers[layer.id];
        if (entry.isovalue == layer.isovalue) continue;
        entry.isovalue = layer.isovalue;
        try {
            if (pyramidIsovalue != layer.isovalue) {
                surface.extract(layer.isovalue);
                pyramidIsovalue = layer.isovalue;
            }
            // One brick: copied on the GPU; bricks are merged on the CPU first.
            if (const auto buffers = surface.singleBrickMeshBuffers())
                entry.mesh.copyFrom(*buffers);
            else
                entry.mesh.store(surface.capture());
        } catch (const Error& e) {
            entry.mesh.clear();
            log::get("engine")->error("surface {} at isovalue {} (real units) not stored: {}",
                                      layer.id, layer.isovalue, e.what());
        } catch (const std::bad_alloc&) {
            entry.mesh.clear();
            log::get("engine")->error(
                "surface {} at isovalue {} (real units) not stored: out of memory", layer.id,
                layer.isovalue);
        }
    }
}

void SurfaceLayerCache::retain(const std::vector<SurfaceLayer>& layers,
                               std::optional<std::uint32_t> liveId)
{
    for (auto it = m_layers.begin(); it != m_layers.end();) {
        const bool keep = std::any_of(layers.begin(), layers.end(), [&](const SurfaceLayer& l) {
            return l.id == it->first && !isLiveLayer(l, liveId);
        });
        it = keep ? std::next(it) : m_layers.erase(it);
    }
}

void SurfaceLayerCache::markStale()
{
    for (auto& [id, layer] : m_layers)
        layer.isovalue.reset();
}

void SurfaceLayerCache::clearMeshes()
{
    for (auto& [id, layer] : m_layers)
        layer.mesh.clear();
}

const SurfaceLayerCache::StoredLayer* SurfaceLayerCache::find(std::uint32_t layerId) const
{
    const auto it = m_layers.find(layerId);
    return it == m_layers.end() ? nullptr : &it->second;
}

std::size_t SurfaceLayerCache::meshBytes() const
{
    std::size_t bytes = 0;
    for (const auto& [id, layer] : m_layers)
        bytes += layer.mesh.bytes();
    return bytes;
}

} // namespace isoview::gpu
