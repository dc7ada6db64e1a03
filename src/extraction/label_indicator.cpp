#include "extraction/label_indicator.h"

#include "extraction/cell_marching.h"

#include <cstring>

namespace isoview {
namespace {

template <class T>
void fillIndicator(const Volume& volume, std::uint32_t label, const VoxelBox& box,
                   std::uint8_t* out)
{
    const glm::uvec3 dims = volume.dims();
    const glm::uvec3 size = box.voxelCount();
    const std::byte* base = volume.bytes();
    const T wanted = static_cast<T>(label);
    for (std::uint32_t k = 0; k < size.z; ++k) {
        for (std::uint32_t j = 0; j < size.y; ++j) {
            const std::size_t row = marching::linearIndex(dims, box.first + glm::uvec3(0, j, k));
            for (std::uint32_t i = 0; i < size.x; ++i) {
                T value;
                std::memcpy(&value, base + (row + i) * sizeof(T), sizeof(T));
                *out++ = value == wanted ? 1 : 0;
            }
        }
    }
}

} // namespace

std::vector<std::uint8_t> labelIndicator(const Volume& volume, std::uint32_t label,
                                         const VoxelBox& box)
{
    const glm::uvec3 size = box.voxelCount();
    std::vector<std::uint8_t> inside(std::size_t(size.x) * size.y * size.z);
    std::uint8_t* out = inside.data();
    switch (volume.type()) {
    case ScalarType::UInt8: fillIndicator<std::uint8_t>(volume, label, box, out); break;
    case ScalarType::Int8: fillIndicator<std::int8_t>(volume, label, box, out); break;
    case ScalarType::UInt16: fillIndicator<std::uint16_t>(volume, label, box, out); break;
    case ScalarType::Int16: fillIndicator<std::int16_t>(volume, label, box, out); break;
    case ScalarType::UInt32: fillIndicator<std::uint32_t>(volume, label, box, out); break;
    case ScalarType::Int32: fillIndicator<std::int32_t>(volume, label, box, out); break;
    case ScalarType::Float32: fillIndicator<float>(volume, label, box, out); break;
    case ScalarType::Float64: fillIndicator<double>(volume, label, box, out); break;
    }
    return inside;
}

} // namespace isoview
