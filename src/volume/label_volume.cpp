#include "volume/label_volume.h"

#include "core/error.h"

#include <cmath>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

namespace isoview {

Volume toLabelVolume(const Volume& volume)
{
    const glm::uvec3 d = volume.dims();
    const ValueRescale& rescale = volume.rescale();
    std::vector<std::byte> bytes(volume.voxelCount() * sizeof(std::uint16_t));
    std::size_t at = 0;
    for (std::uint32_t k = 0; k < d.z; ++k) {
        for (std::uint32_t j = 0; j < d.y; ++j) {
            for (std::uint32_t i = 0; i < d.x; ++i, ++at) {
                const double value = rescale.toReal(double(volume.valueAt(at)));
                if (!std::isfinite(value) || value != std::floor(value) || value < 0.0 ||
                    value > double(kMaxLabel)) {
                    std::ostringstream message;
                    message << "not a label map: voxel (" << i << ", " << j << ", " << k
                            << ") holds " << value
                            << "; labels are whole numbers from 0 (background) to " << kMaxLabel;
                    throw InvalidInputError(message.str());
                }
                const auto label = std::uint16_t(value);
                std::memcpy(bytes.data() + at * sizeof(label), &label, sizeof(label));
            }
        }
    }
    Volume labels(d, ScalarType::UInt16, std::move(bytes), volume.geometry());
    labels.setMetadata(volume.metadata());
    return labels;
}

} // namespace isoview
