#include "io/dicom/dicom_volume_grouping.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <map>
#include <set>
#include <tuple>
#include <utility>

namespace isoview::io::dicom {
namespace {

// The attributes that tell volumes apart, in the order they are tried.
enum class Attribute { TemporalPosition, Acquisition, Echo, ImageType, DimensionIndex, Rescale };
constexpr std::array kAttributes = {
    Attribute::TemporalPosition, Attribute::Acquisition,    Attribute::Echo,
    Attribute::ImageType,        Attribute::DimensionIndex, Attribute::Rescale};

// One attribute's value, comparable: numbers and/or text.
struct Key {
    std::vector<double> numbers;
    std::string text;
    bool operator==(const Key&) const = default;
    bool operator<(const Key& other) const
    {
        return std::tie(numbers, text) < std::tie(other.numbers, other.text);
    }
};

using PositionKey = std::array<long long, 3>;

PositionKey positionKey(const glm::dvec3& p)
{
    return {std::llround(p.x * 1e3), std::llround(p.y * 1e3), std::llround(p.z * 1e3)};
}

std::vector<std::string> splitBackslash(const std::string& text)
{
    std::vector<std::string> parts;
    std::size_t start = 0;
    while (true) {
        const std::size_t end = text.find('\\', start);
        parts.push_back(text.substr(start, end == std::string::npos ? end : end - start));
        if (end == std::string::npos) return parts;
        start = end + 1;
    }
}

class Grouper {
public:
    Grouper(const std::vector<VolumeImage>& images, bool mosaic)
        : m_images(images), m_mosaic(mosaic)
    {
        // Copies of one image (same SOP instance and frame) are not repeats: the loader drops them.
        std::set<std::pair<std::string, std::uint32_t>> seen;
        for (std::size_t i = 0; i < images.size(); ++i) {
            const VolumeImage& image = images[i];
            if (!image.sopInstanceUid.empty() &&
                !seen.insert({image.sopInstanceUid, image.frame}).second) {
                continue;
            }
            m_counted.push_back(i);
        }
        m_havePositions = std::all_of(m_counted.begin(), m_counted.end(),
                                      [&](std::size_t i) { return images[i].position; });
        if (m_havePositions) {
            for (const std::size_t i : m_counted) {
                m_atPosition[positionKey(*images[i].position)].push_back(i);
            }
            for (const auto& [position, at] : m_atPosition) {
                m_maxRepeat = std::max(m_maxRepeat, at.size());
            }
        }
        findVaryingDimensionIndices();
    }

    std::vector<VolumeGroup> run() const
    {
        const bool repeats = m_maxRepeat > 1 || (m_mosaic && m_counted.size() > 1);
        if (!repeats) return {wholeStack()};
        std::vector<Attribute> varying;
        for (const Attribute attribute : kAttributes) {
            if (!variesAtOnePosition({attribute})) continue;
            varying.push_back(attribute);
            if (auto groups = tryGrouping({attribute})) return *groups;
        }
        if (varying.size() > 1) {
            if (auto groups = tryGrouping(varying)) return *groups;
        }
        if (m_mosaic) return oneVolumePerImage();
        return {wholeStack()};
    }

private:
    std::optional<Key> key(std::size_t index, Attribute attribute) const
    {
        const VolumeImage& image = m_images[index];
        const auto number = [](const std::optional<std::int32_t>& value) -> std::optional<Key> {
            if (!value) return std::nullopt;
            return Key{{double(*value)}, {}};
        };
        switch (attribute) {
        case Attribute::TemporalPosition: return number(image.temporalPositionIndex);
        case Attribute::Acquisition: return number(image.acquisitionNumber);
        case Attribute::Echo: return number(image.echoNumber);
        case Attribute::ImageType:
            if (image.imageType.empty()) return std::nullopt;
            return Key{{}, image.imageType};
        case Attribute::DimensionIndex: {
            if (image.dimensionIndexValues.size() != m_varyingIndex.size()) return std::nullopt;
            Key k;
            for (std::size_t c = 0; c < m_varyingIndex.size(); ++c) {
                if (m_varyingIndex[c]) k.numbers.push_back(image.dimensionIndexValues[c]);
            }
            if (k.numbers.empty()) return std::nullopt;
            return k;
        }
        case Attribute::Rescale:
            return Key{{image.slope.value_or(1.0), image.intercept.value_or(0.0)}, {}};
        }
        return std::nullopt;
    }

    std::optional<std::vector<Key>> keys(std::size_t index,
                                         const std::vector<Attribute>& attributes) const
    {
        std::vector<Key> result;
        for (const Attribute attribute : attributes) {
            std::optional<Key> k = key(index, attribute);
            if (!k) return std::nullopt;
            result.push_back(std::move(*k));
        }
        return result;
    }

    // DimensionIndexValues components that differ between images at one position; the others
    // (the in-stack position, the stack ID) say nothing about which volume an image is in.
    void findVaryingDimensionIndices()
    {
        if (m_counted.empty() || !m_havePositions) return;
        const std::size_t size = m_images[m_counted.front()].dimensionIndexValues.size();
        for (const std::size_t i : m_counted) {
            if (m_images[i].dimensionIndexValues.size() != size) return;
        }
        m_varyingIndex.assign(size, false);
        for (const auto& [position, at] : m_atPosition) {
            for (std::size_t c = 0; c < size; ++c) {
                for (const std::size_t i : at) {
                    if (m_images[i].dimensionIndexValues[c] !=
                        m_images[at.front()].dimensionIndexValues[c]) {
                        m_varyingIndex[c] = true;
                    }
                }
            }
        }
    }

    bool variesAtOnePosition(const std::vector<Attribute>& attributes) const
    {
        for (const auto& [position, at] : m_atPosition) {
            const auto first = keys(at.front(), attributes);
            for (const std::size_t i : at) {
                const auto k = keys(i, attributes);
                if (!first || !k) return false;
                if (*k != *first) return true;
            }
        }
        return false;
    }

    std::optional<std::vector<VolumeGroup>>
    tryGrouping(const std::vector<Attribute>& attributes) const
    {
        std::map<std::vector<Key>, std::vector<std::size_t>> byKey;
        for (std::size_t i = 0; i < m_images.size(); ++i) {
            auto k = keys(i, attributes);
            if (!k) return std::nullopt;
            byKey[std::move(*k)].push_back(i);
        }
        if (byKey.size() > m_maxRepeat) return std::nullopt;
        const std::set<std::size_t> counted(m_counted.begin(), m_counted.end());
        for (const auto& [k, members] : byKey) {
            std::set<PositionKey> positions;
            for (const std::size_t i : members) {
                if (counted.count(i) &&
                    !positions.insert(positionKey(*m_images[i].position)).second) {
                    return std::nullopt;
                }
            }
        }
        std::vector<VolumeGroup> groups;
        std::size_t rank = 0;
        for (const auto& [k, members] : byKey) {
            std::vector<std::string> parts;
            for (std::size_t a = 0; a < attributes.size(); ++a) {
                parts.push_back(describe(attributes[a], k[a], rank, byKey, a));
            }
            std::string what;
            for (const std::string& part : parts)
                what += (what.empty() ? "" : ", ") + part;
            groups.push_back(VolumeGroup{
                members, fmt::format("volume {} of {}: {}", rank + 1, byKey.size(), what)});
            ++rank;
        }
        return groups;
    }

    std::string describe(Attribute attribute, const Key& value, std::size_t rank,
                         const std::map<std::vector<Key>, std::vector<std::size_t>>& byKey,
                         std::size_t slot) const
    {
        switch (attribute) {
        case Attribute::TemporalPosition: return fmt::format("time point {}", value.numbers[0]);
        case Attribute::Acquisition: {
            const auto number = std::int64_t(value.numbers[0]);
            std::string text = fmt::format("time point {}", rank + 1);
            if (number != std::int64_t(rank + 1)) text += fmt::format(" (acquisition {})", number);
            return text;
        }
        case Attribute::Echo: return fmt::format("echo {}", value.numbers[0]);
        case Attribute::ImageType: {
            // Only the values that differ between the volumes: "PHASE", not the whole type.
            const std::vector<std::string> mine = splitBackslash(value.text);
            std::string differing;
            for (std::size_t c = 0; c < mine.size(); ++c) {
                const bool differs =
                    std::any_of(byKey.begin(), byKey.end(), [&](const auto& entry) {
                        const std::vector<std::string> other =
                            splitBackslash(entry.first[slot].text);
                        return c >= other.size() || other[c] != mine[c];
                    });
                if (differs) differing += (differing.empty() ? "" : "\\") + mine[c];
            }
            return "image type " + (differing.empty() ? value.text : differing);
        }
        case Attribute::DimensionIndex: {
            std::string text = "dimension index";
            for (std::size_t c = 0; c < value.numbers.size(); ++c) {
                text += fmt::format("{}{}", c == 0 ? " " : ", ", value.numbers[c]);
            }
            return text;
        }
        case Attribute::Rescale:
            return fmt::format("rescale slope {:g}, intercept {:g}", value.numbers[0],
                               value.numbers[1]);
        }
        return {};
    }

    VolumeGroup wholeStack() const
    {
        VolumeGroup group;
        for (std::size_t i = 0; i < m_images.size(); ++i)
            group.images.push_back(i);
        return group;
    }

    // MOSAICs nothing else separates: each its own volume, by InstanceNumber, then file.
    std::vector<VolumeGroup> oneVolumePerImage() const
    {
        std::vector<std::size_t> order(m_images.size());
        for (std::size_t i = 0; i < order.size(); ++i)
            order[i] = i;
        std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
            const auto instance = [&](std::size_t i) {
                return m_images[i].instanceNumber.value_or(
                    std::numeric_limits<std::int32_t>::max());
            };
            return std::pair(instance(a), m_images[a].file) <
                   std::pair(instance(b), m_images[b].file);
        });
        std::vector<VolumeGroup> groups;
        groups.reserve(order.size());
        for (const std::size_t i : order) {
            groups.push_back(VolumeGroup{
                {i}, fmt::format("volume {} of {}", groups.size() + 1, m_images.size())});
        }
        return groups;
    }

    const std::vector<VolumeImage>& m_images;
    bool m_mosaic;
    std::vector<std::size_t> m_counted; // images that are not copies of another
    bool m_havePositions = false;
    std::map<PositionKey, std::vector<std::size_t>> m_atPosition;
    std::size_t m_maxRepeat = 1;
    std::vector<bool> m_varyingIndex; // per DimensionIndexValues component
};

} // namespace

std::vector<VolumeGroup> groupVolumes(const std::vector<VolumeImage>& images, bool mosaic)
{
    return Grouper(images, mosaic).run();
}

} // namespace isoview::io::dicom
