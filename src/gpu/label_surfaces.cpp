#include "gpu/label_surfaces.h"

#include "gpu/gpu_volume.h"

#include <algorithm>
#include <utility>

namespace isoview::gpu {

LabelSurfaces::LabelSurfaces(bool limitToGl33)
    : m_extractor(IsosurfaceExtractor::Options{.limitToGl33 = limitToGl33, .labels = true}),
      m_smoothedProgram(m_extractor.capabilities(), /*labels=*/true)
{
}

LabelSurfaces::~LabelSurfaces() = default;

void LabelSurfaces::setLabelMap(std::shared_ptr<const Volume> labelMap, const VoxelBox& crop)
{
    if (!labelMap) {
        m_labelMap.reset();
        m_shown = false;
        m_smoothed.reset();
        m_smoothedMesh.clear();
        return; // the GPU copy stays until the next label map replaces it
    }
    // The new copy is given to the extractor before the old one goes: a label map that does
    // not fit leaves the previous one drawn.
    auto fresh = std::make_unique<GpuVolume>(*labelMap, m_extractor.capabilities().maxTextureSize);
    m_extractor.setVolume(*fresh, crop);
    m_volume = std::move(fresh);
    m_labelMap = std::move(labelMap);
    m_dirty = true;
    m_styles.clear();
    m_smoothed.reset();
    m_smoothedMesh.clear();
    m_smoothedProgram.setVolume(m_labelMap->dims(), m_labelMap->geometry());
    // A fiftieth of the finest spacing: far below what a pixel shows, far above depth
    // precision at any zoom the viewer allows.
    const glm::dvec3 spacing = m_labelMap->geometry().spacing;
    m_insetMm = float(0.02 * std::min({spacing.x, spacing.y, spacing.z}));
}

void LabelSurfaces::setCrop(const VoxelBox& crop)
{
    if (!m_volume || crop == m_extractor.crop()) return;
    m_extractor.setCrop(crop);
    m_dirty = true;
}

void LabelSurfaces::setLayer(const std::optional<LabelLayer>& layer)
{
    m_shown = m_labelMap && layer && layer->labelMap == m_labelMap;
    if (m_shown) adoptSmoothing(layer);
    // Compared as the scene holds them (no allocation in a frame that changes nothing); the
    // texture's bytes are made only when a style changed.
    if (!m_shown || layer->styles == m_styles) return;
    const std::vector<glm::u8vec4> styles = layer->drawStyles();
    m_translucent = std::any_of(styles.begin(), styles.end(),
                                [](const glm::u8vec4& s) { return s.a > 0 && s.a < 255; });
    m_extractor.setLabelStyles(styles);
    m_styles = layer->styles;
}

void LabelSurfaces::adoptSmoothing(const std::optional<LabelLayer>& layer)
{
    const SmoothedLabelSurfaces* wanted = layer->drawnSmoothing();
    if (!wanted) {
        if (m_smoothed) m_smoothedMesh.clear(); // back to the extraction (made when dirty)
        m_smoothed.reset();
        return;
    }
    if (m_smoothed.get() == wanted) return;
    // A mesh that does not fit leaves nothing smoothed drawn (the extraction is drawn instead),
    // and the error goes up to the frame like an upload's.
    m_smoothed.reset();
    m_smoothedMesh.storeLabels(wanted->surfaces);
    m_smoothed = layer->smoothed;
}

void LabelSurfaces::extractIfNeeded()
{
    if (m_shown) extractIfDirty();
}

void LabelSurfaces::extractIfDirty()
{
    if (!m_dirty) return;
    m_extractor.extractLabels();
    m_dirty = false;
    ++m_extractions;
}

void LabelSurfaces::draw(const SurfaceDrawParams& params, bool translucent)
{
    if (!m_shown || (m_dirty && !m_smoothed)) return;
    SurfaceDrawParams labels = params;
    labels.opacity = translucent ? 0.5f : 1.0f; // chooses the pass; each label has its own
    labels.labelInsetMm = m_insetMm;
    if (m_smoothed) {
        m_smoothedProgram.draw(m_smoothedMesh, labels, m_extractor.labelStylesTexture());
        return;
    }
    m_extractor.draw(labels);
}

std::vector<LabelSurface> LabelSurfaces::capture()
{
    if (!m_labelMap) return {};
    if (m_shown && m_smoothed) { // what is drawn: the smoothed surfaces, labels with triangles
        std::vector<LabelSurface> drawn;
        for (const LabelSurface& s : m_smoothed->surfaces) {
            if (s.mesh.triangleCount() > 0) drawn.push_back(s);
        }
        return drawn;
    }
    extractIfDirty(); // a capture before any frame drew it
    return m_extractor.captureLabels();
}

GpuMemoryUse LabelSurfaces::memoryUse() const
{
    GpuMemoryUse use = m_volume ? m_extractor.memoryUse() : GpuMemoryUse{};
    use.meshBytes += m_smoothedMesh.bytes();
    return use;
}

} // namespace isoview::gpu
