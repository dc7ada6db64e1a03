// Runs a generic function for a volume's voxel type: f(T{}) with T the C++ type of `type`
// (std::uint8_t ... double), so per-type loops are written once as templates.
//
// Example:
//   withScalarType(volume.type(), [&](auto zero) {
//       using T = decltype(zero);
//       const T* voxels = reinterpret_cast<const T*>(volume.bytes());
//       ...
//   });
#pragma once

#include "volume/volume.h"

#include <cstdint>

namespace isoview {

template <class F> void withScalarType(ScalarType type, F&& f)
{
    switch (type) {
    case ScalarType::UInt8: return f(std::uint8_t{});
    case ScalarType::Int8: return f(std::int8_t{});
    case ScalarType::UInt16: return f(std::uint16_t{});
    case ScalarType::Int16: return f(std::int16_t{});
    case ScalarType::UInt32: return f(std::uint32_t{});
    case ScalarType::Int32: return f(std::int32_t{});
    case ScalarType::Float32: return f(float{});
    case ScalarType::Float64: return f(double{});
    }
}

} // namespace isoview
