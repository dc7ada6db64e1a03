#include "volume/label_volume.h"

#include <cstdint>
#include <cstring>
#include <vector>

namespace isoview {

Volume toLabelVolume(const Volume& volume)
{
    return toLabelVolume(volume, analyseLabels(volume));
}

Volume toLabelVolume(const Volume& volume, const LabelStatistics& /*checked*/)
{
    std::vector<std::byte> bytes(volume.voxelCount() * sizeof(std::uint16_t));
    for (std::size_t i = 0; i < volume.voxelCount(); ++i) {
        const auto label = std::uint16_t(volume.valueAt(i)); // whole, 0..65535: checked
        std::memcpy(bytes.data() + i * sizeof(label), &label, sizeof(label));
    }
    Volume labels(volume.dims(), ScalarType::UInt16, std::move(bytes), volume.geometry());
    labels.setMetadata(volume.metadata());
    labels.protectSourceFiles(volume.sharedSourceFileProtection()); // its files are still its
    return labels;
}

} // namespace isoview
