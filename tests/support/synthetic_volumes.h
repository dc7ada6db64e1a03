// Synthetic volumes for the tests: analytic fields (spheres, planes, anything given as a
// function), seeded random volumes of every voxel type, and borders of outside values that
// close the isosurface of an arbitrary interior.
//
// Example:
//   Volume sphere = makeSphere({64, 64, 64}, glm::vec3(31.5f), 24.0f); // iso 0
//   Volume noise = padWithValue(makeRandomVolume({7, 5, 3}, ScalarType::Int16, 42), -2000.0);
#pragma once

#include "volume/volume.h"

#include <glm/glm.hpp>

#include <cstdint>
#include <cstring>
#include <functional>
#include <type_traits>
#include <vector>

namespace isoview::test {

// A float32 volume with voxel (i, j, k) = f(vec3(i, j, k)): f receives INDEX-space
// coordinates; the geometry is only attached to the result.
Volume makeFloatField(glm::uvec3 dims, const std::function<float(glm::vec3 p)>& f,
                      VolumeGeometry geometry = {});

// A float32 signed-distance sphere: value = radius - |physical(i, j, k) - center|, so the
// inside (>= 0) is the ball and the isosurface at 0 is the sphere. center and radius are in
// PHYSICAL units (geometry.indexToPhysical), which with the default geometry are index units;
// with anisotropic spacing the physical shape stays a sphere.
Volume makeSphere(glm::uvec3 dims, glm::vec3 center, float radius, VolumeGeometry geometry = {});

// A 40 x 36 x 30 float32 field, sin(0.31 x) cos(0.23 y) + sin(0.19 z + 0.4) in index space,
// with spacing 0.8 x 0.9 x 1.7: interleaved surfaces at any isovalue in -2 .. 2. sheared: the
// slices are unevenly spaced (gaps of 2.5 and 1.5) and sheared along y, positions per slice.
Volume makeWavyField(bool sheared);

// The range makeRandomVolume draws from: 0..255 (uint8), -128..127 (int8), 0..4095 (uint16,
// uint32), -1000..3000 (int16, int32), -1..1 (float32, float64).
ValueRange randomValueRange(ScalarType type);

// Independent uniform values over randomValueRange(type), from std::mt19937 seeded with seed:
// the same arguments give the same volume on every platform.
Volume makeRandomVolume(glm::uvec3 dims, ScalarType type, std::uint32_t seed);

// Writes value, converted to type (integers are rounded and clamped to the type's range), to
// dst. Float types keep NaN and Inf.
void storeValue(std::byte* dst, ScalarType type, double value);

// The ScalarType of a C++ voxel type.
template <class T> constexpr ScalarType scalarTypeOf()
{
    if constexpr (std::is_same_v<T, std::uint8_t>)
        return ScalarType::UInt8;
    else if constexpr (std::is_same_v<T, std::int8_t>)
        return ScalarType::Int8;
    else if constexpr (std::is_same_v<T, std::uint16_t>)
        return ScalarType::UInt16;
    else if constexpr (std::is_same_v<T, std::int16_t>)
        return ScalarType::Int16;
    else if constexpr (std::is_same_v<T, std::uint32_t>)
        return ScalarType::UInt32;
    else if constexpr (std::is_same_v<T, std::int32_t>)
        return ScalarType::Int32;
    else if constexpr (std::is_same_v<T, float>)
        return ScalarType::Float32;
    else {
        static_assert(std::is_same_v<T, double>, "not a voxel type");
        return ScalarType::Float64;
    }
}

// A volume of type T with voxel (i, j, k) = f(i, j, k) (f takes three std::uint32_t), e.g.
//   makeTypedVolume<std::int16_t>({8, 8, 8}, [](auto i, auto, auto) { return i * 100; });
template <class T, class F>
Volume makeTypedVolume(glm::uvec3 dims, F f, VolumeGeometry geometry = {},
                       ValueRescale rescale = {})
{
    std::vector<std::byte> bytes(std::size_t(dims.x) * dims.y * dims.z * sizeof(T));
    std::size_t offset = 0;
    for (std::uint32_t k = 0; k < dims.z; ++k) {
        for (std::uint32_t j = 0; j < dims.y; ++j) {
            for (std::uint32_t i = 0; i < dims.x; ++i) {
                const T value = static_cast<T>(f(i, j, k));
                std::memcpy(bytes.data() + offset, &value, sizeof(T));
                offset += sizeof(T);
            }
        }
    }
    return Volume(dims, scalarTypeOf<T>(), std::move(bytes), geometry, rescale);
}

// A copy of volume whose outermost `width` layers of voxels are set to value (converted as
// in storeValue). With a value below the isovalue every isosurface becomes closed.
Volume withBorder(const Volume& volume, double value, std::uint32_t width = 1);

// volume surrounded by `width` layers of value: dims grow by 2 * width and the origin moves
// so the original voxels keep their physical positions.
Volume padWithValue(const Volume& volume, double value, std::uint32_t width = 1);

} // namespace isoview::test
