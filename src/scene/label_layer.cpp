#include "scene/label_layer.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace isoview {

LabelLayer LabelLayer::of(std::shared_ptr<const Volume> labelMap,
                          std::shared_ptr<const LabelStatistics> statistics, LabelTable table)
{
    LabelLayer layer;
    layer.labelMap = std::move(labelMap);
    layer.statistics = std::move(statistics);
    layer.table = std::move(table);
    for (const LabelInfo& info : layer.statistics->labels) {
        const glm::vec4 c = layer.table.colorOf(info.label);
        const LabelEntry* entry = layer.table.find(info.label);
        LabelStyle style;
        style.color = glm::vec3(c);
        // A table's transparent entries (FreeSurfer's, ITK-SNAP's 0) stay visible but opaque:
        // an invisible structure would look like a failed extraction.
        style.opacity = c.a > 0.0f ? c.a : 1.0f;
        style.visible = entry == nullptr || entry->visible;
        layer.styles.emplace(info.label, style);
    }
    return layer;
}

LabelStyle LabelLayer::style(std::uint32_t label) const
{
    const auto found = styles.find(label);
    if (found != styles.end()) return found->second;
    return LabelStyle{glm::vec3(0.5f), 1.0f, false};
}

std::vector<glm::u8vec4> LabelLayer::drawStyles() const
{
    const std::uint32_t largest = styles.empty() ? 0 : styles.rbegin()->first;
    std::vector<glm::u8vec4> out(std::size_t(largest) + 1, glm::u8vec4(0));
    const auto byte = [](float v) {
        return std::uint8_t(std::lround(std::clamp(v, 0.0f, 1.0f) * 255.0f));
    };
    for (const auto& [label, style] : styles) {
        if (!style.visible || style.opacity <= 0.0f) continue;
        // Alpha 255 is the opaque pass; anything translucent stays below it.
        const std::uint8_t alpha =
            style.opacity >= 0.999f
                ? 255
                : std::min<std::uint8_t>(254, std::max<std::uint8_t>(1, byte(style.opacity)));
        out[label] = {byte(style.color.r), byte(style.color.g), byte(style.color.b), alpha};
    }
    return out;
}

const SmoothedLabelSurfaces* LabelLayer::drawnSmoothing() const
{
    if (smoothingSigmaMm <= 0.0 || !smoothed || smoothed->labelMap != labelMap) return nullptr;
    return smoothed.get();
}

bool LabelLayer::wantsSmoothing(const SmoothedLabelSurfaces& made, const VoxelBox& crop) const
{
    return smoothingSigmaMm > 0.0 && made.labelMap == labelMap &&
           made.sigmaMm == smoothingSigmaMm && made.crop == crop;
}

bool LabelLayer::smoothingIsCurrent(const VoxelBox& crop) const
{
    if (smoothingSigmaMm <= 0.0) return !smoothed;
    return smoothed && wantsSmoothing(*smoothed, crop);
}

} // namespace isoview
