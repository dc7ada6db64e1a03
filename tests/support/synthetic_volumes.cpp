#include "support/synthetic_volumes.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

namespace isoview::test {
namespace {

template <class T> void storeAs(std::byte* dst, double value)
{
    T stored;
    if constexpr (std::is_floating_point_v<T>) {
        stored = static_cast<T>(value);
    } else {
        // Rounding and clamping keep the conversion defined for any finite input; NaN has no
        // integer meaning and becomes 0.
        const double lo = double(std::numeric_limits<T>::lowest());
        const double hi = double(std::numeric_limits<T>::max());
        stored = std::isnan(value) ? T(0) : static_cast<T>(std::clamp(std::round(value), lo, hi));
    }
    std::memcpy(dst, &stored, sizeof(T));
}

std::size_t linearIndex(glm::uvec3 dims, std::uint32_t i, std::uint32_t j, std::uint32_t k)
{
    return std::size_t(i) + std::size_t(dims.x) * (std::size_t(j) + std::size_t(dims.y) * k);
}

} // namespace

void storeValue(std::byte* dst, ScalarType type, double value)
{
    switch (type) {
    case ScalarType::UInt8: storeAs<std::uint8_t>(dst, value); return;
    case ScalarType::Int8: storeAs<std::int8_t>(dst, value); return;
    case ScalarType::UInt16: storeAs<std::uint16_t>(dst, value); return;
    case ScalarType::Int16: storeAs<std::int16_t>(dst, value); return;
    case ScalarType::UInt32: storeAs<std::uint32_t>(dst, value); return;
    case ScalarType::Int32: storeAs<std::int32_t>(dst, value); return;
    case ScalarType::Float32: storeAs<float>(dst, value); return;
    case ScalarType::Float64: storeAs<double>(dst, value); return;
    }
}

Volume makeFloatField(glm::uvec3 dims, const std::function<float(glm::vec3 p)>& f,
                      VolumeGeometry geometry)
{
    return makeTypedVolume<float>(
        dims,
        [&f](std::uint32_t i, std::uint32_t j, std::uint32_t k) {
            return f(glm::vec3(float(i), float(j), float(k)));
        },
        geometry);
}

Volume makeSphere(glm::uvec3 dims, glm::vec3 center, float radius, VolumeGeometry geometry)
{
    const glm::dmat4 toPhysical = geometry.indexToPhysical();
    return makeTypedVolume<float>(
        dims,
        [&](std::uint32_t i, std::uint32_t j, std::uint32_t k) {
            const glm::dvec3 p(toPhysical * glm::dvec4(double(i), double(j), double(k), 1.0));
            return float(double(radius) - glm::length(p - glm::dvec3(center)));
        },
        geometry);
}

Volume makeWavyField(bool sheared)
{
    VolumeGeometry g;
    g.spacing = {0.8, 0.9, 1.7};
    if (sheared) {
        // Unevenly spaced, sheared slices: positions measured per slice.
        double z = 0.0;
        for (std::uint32_t k = 0; k < 30; ++k) {
            g.sliceOrigins.emplace_back(0.0, 0.15 * k, z);
            z += k % 3 == 0 ? 2.5 : 1.5;
        }
    }
    return makeFloatField(
        {40, 36, 30},
        [](glm::vec3 p) {
            return std::sin(0.31f * p.x) * std::cos(0.23f * p.y) + std::sin(0.19f * p.z + 0.4f);
        },
        g);
}

ValueRange randomValueRange(ScalarType type)
{
    switch (type) {
    case ScalarType::UInt8: return {0.0, 255.0};
    case ScalarType::Int8: return {-128.0, 127.0};
    case ScalarType::UInt16:
    case ScalarType::UInt32: return {0.0, 4095.0};
    case ScalarType::Int16:
    case ScalarType::Int32: return {-1000.0, 3000.0};
    case ScalarType::Float32:
    case ScalarType::Float64: return {-1.0, 1.0};
    }
    return {0.0, 1.0};
}

Volume makeRandomVolume(glm::uvec3 dims, ScalarType type, std::uint32_t seed)
{
    const ValueRange range = randomValueRange(type);
    const bool integral = type != ScalarType::Float32 && type != ScalarType::Float64;
    // Values are derived from raw mt19937 output (whose sequence the standard fixes) rather
    // than std::uniform_*_distribution (whose algorithm is implementation-defined).
    std::mt19937 engine(seed);
    const std::size_t count = std::size_t(dims.x) * dims.y * dims.z;
    const std::size_t size = scalarSize(type);
    std::vector<std::byte> bytes(count * size);
    for (std::size_t n = 0; n < count; ++n) {
        const double unit = double(engine()) / 4294967296.0; // [0, 1)
        double value;
        if (integral) {
            value = range.min + std::floor(unit * (range.max - range.min + 1.0));
        } else {
            value = range.min + unit * (range.max - range.min);
        }
        storeValue(bytes.data() + n * size, type, value);
    }
    return Volume(dims, type, std::move(bytes));
}

Volume withBorder(const Volume& volume, double value, std::uint32_t width)
{
    const glm::uvec3 dims = volume.dims();
    const std::size_t size = scalarSize(volume.type());
    std::vector<std::byte> bytes(volume.bytes(), volume.bytes() + volume.byteCount());
    for (std::uint32_t k = 0; k < dims.z; ++k) {
        for (std::uint32_t j = 0; j < dims.y; ++j) {
            for (std::uint32_t i = 0; i < dims.x; ++i) {
                const glm::uvec3 p(i, j, k);
                const bool border = glm::any(glm::lessThan(p, glm::uvec3(width))) ||
                                    glm::any(glm::greaterThanEqual(p + width, dims));
                if (border)
                    storeValue(bytes.data() + linearIndex(dims, i, j, k) * size, volume.type(),
                               value);
            }
        }
    }
    return Volume(dims, volume.type(), std::move(bytes), volume.geometry(), volume.rescale());
}

Volume padWithValue(const Volume& volume, double value, std::uint32_t width)
{
    const glm::uvec3 inner = volume.dims();
    const glm::uvec3 dims = inner + 2u * width;
    const std::size_t size = scalarSize(volume.type());
    std::vector<std::byte> bytes(std::size_t(dims.x) * dims.y * dims.z * size);
    for (std::size_t n = 0; n < std::size_t(dims.x) * dims.y * dims.z; ++n) {
        storeValue(bytes.data() + n * size, volume.type(), value);
    }
    // Copy the original rows (x runs are contiguous in both layouts).
    for (std::uint32_t k = 0; k < inner.z; ++k) {
        for (std::uint32_t j = 0; j < inner.y; ++j) {
            std::memcpy(bytes.data() + linearIndex(dims, width, j + width, k + width) * size,
                        volume.bytes() + linearIndex(inner, 0, j, k) * size,
                        std::size_t(inner.x) * size);
        }
    }
    VolumeGeometry geometry = volume.geometry();
    geometry.origin -= geometry.direction * (geometry.spacing * double(width));
    return Volume(dims, volume.type(), std::move(bytes), geometry, volume.rescale());
}

} // namespace isoview::test
