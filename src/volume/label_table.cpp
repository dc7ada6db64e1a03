#include "volume/label_table.h"

#include "core/error.h"

#include <algorithm>
#include <cmath>

namespace isoview {

LabelTable::LabelTable(std::vector<LabelEntry> entries) : m_entries(std::move(entries))
{
    std::stable_sort(m_entries.begin(), m_entries.end(),
                     [](const LabelEntry& a, const LabelEntry& b) { return a.value < b.value; });
    for (std::size_t i = 0; i < m_entries.size(); ++i) {
        const std::uint32_t value = m_entries[i].value;
        if (value > kMaxLabel) {
            throw InvalidInputError("label " + std::to_string(value) + " is over " +
                                    std::to_string(kMaxLabel) + ", the largest label value");
        }
        if (i > 0 && m_entries[i - 1].value == value) {
            throw InvalidInputError("label " + std::to_string(value) + " appears twice");
        }
    }
}

const LabelEntry* LabelTable::find(std::uint32_t value) const
{
    const auto it =
        std::lower_bound(m_entries.begin(), m_entries.end(), value,
                         [](const LabelEntry& entry, std::uint32_t v) { return entry.value < v; });
    return it != m_entries.end() && it->value == value ? &*it : nullptr;
}

std::string LabelTable::nameOf(std::uint32_t value) const
{
    const LabelEntry* entry = find(value);
    return entry ? entry->name : std::string();
}

glm::vec4 LabelTable::colorOf(std::uint32_t value) const
{
    const LabelEntry* entry = find(value);
    if (entry && entry->hasColor) return entry->color;
    return glm::vec4(distinctLabelColor(value), 1.0f);
}

namespace {

// HLS (hue, lightness, saturation, each 0..1) to RGB 0..1.
glm::vec3 hlsToRgb(double hue, double lightness, double saturation)
{
    const double chroma = (1.0 - std::abs(2.0 * lightness - 1.0)) * saturation;
    const double sector = hue * 6.0;
    const double x = chroma * (1.0 - std::abs(std::fmod(sector, 2.0) - 1.0));
    double r = 0.0, g = 0.0, b = 0.0;
    switch (int(sector) % 6) {
    case 0: r = chroma, g = x; break;
    case 1: r = x, g = chroma; break;
    case 2: g = chroma, b = x; break;
    case 3: g = x, b = chroma; break;
    case 4: r = x, b = chroma; break;
    default: r = chroma, b = x; break;
    }
    const double m = lightness - chroma / 2.0;
    return glm::vec3(float(r + m), float(g + m), float(b + m));
}

} // namespace

// Hue and lightness walk the plane (hue, lightness) along the 2-D "R2" low-discrepancy
// sequence: steps of 1/p and 1/p^2 with p the plastic number, the golden ratio's 2-D
// generalisation. Consecutive labels land far apart in hue and in lightness, and any stretch
// of labels covers the plane evenly.
// NOTE: the plain golden-ratio hue walk with lightness cycling by label % k puts labels that
// differ by a Fibonacci number (1 and 378, say) on nearly the same colour (RGB distance
// 0.007); this sequence keeps every pair of labels 1..522 at least 0.038 apart and neighbours
// at least 0.6 apart. Saturation stays at 0.85 and lightness in 0.30..0.75, away from black
// (the background) and white (no contrast with the light).
glm::vec3 distinctLabelColor(std::uint32_t label)
{
    if (label == 0) return glm::vec3(0.0f);
    constexpr double kPlastic = 1.324717957244746;
    constexpr double kStepHue = 1.0 / kPlastic;
    constexpr double kStepLightness = 1.0 / (kPlastic * kPlastic);
    const double n = double(label);
    const double hue = std::fmod(0.5 + n * kStepHue, 1.0);
    const double lightness = 0.30 + 0.45 * std::fmod(0.5 + n * kStepLightness, 1.0);
    return hlsToRgb(hue, lightness, 0.85);
}

} // namespace isoview
