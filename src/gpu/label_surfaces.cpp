#include "gpu/label_surfaces.h"

#include "gpu/gpu_volume.h"

#include <algorithm>
#include <utility>

namespace isoview::gpu {

LabelSurfaces::LabelSurfaces(bool limitToGl33)
    : m_extractor(IsosurfaceExtractor::Options{.limitToGl33 = limitToGl33, .labels = true})
{
}

LabelSurfaces::~LabelSurfaces() = default;

void LabelSurfaces::setLabelMap(std::shared_ptr<const Volume> labelMap, const VoxelBox& crop)
{
    if (!labelMap) {
        m_labelMap.reset();
        m_shown = false;
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
    // Compared as the scene holds them (no allocation in a frame that changes nothing); the
    // texture's bytes are made only when a style changed.
    if (!m_shown || layer->styles == m_styles) return;
    const std::vector<glm::u8vec4> styles = layer->drawStyles();
    m_translucent = std::any_of(styles.begin(), styles.end(),
                                [](const glm::u8vec4& s) { return s.a > 0 && s.a < 255; });
    m_extractor.setLabelStyles(styles);
    m_styles = layer->styles;
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
    if (!m_shown || m_dirty) return;
    SurfaceDrawParams labels = params;
    labels.opacity = translucent ? 0.5f : 1.0f; // chooses the pass; each label has its own
    labels.labelInsetMm = m_insetMm;
    m_extractor.draw(labels);
}

std::vector<LabelSurface> LabelSurfaces::capture()
{
    if (!m_labelMap) return {};
    extractIfDirty(); // a capture before any frame drew it
    return m_extractor.captureLabels();
}

GpuMemoryUse LabelSurfaces::memoryUse() const
{
    return m_volume ? m_extractor.memoryUse() : GpuMemoryUse{};
}

} // namespace isoview::gpu
