#include "volume/volume.h"

#include "core/error.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>
#include <string>
#include <utility>

namespace isoview {

std::size_t scalarSize(ScalarType type)
{
    switch (type) {
    case ScalarType::UInt8:
    case ScalarType::Int8: return 1;
    case ScalarType::UInt16:
    case ScalarType::Int16: return 2;
    case ScalarType::UInt32:
    case ScalarType::Int32:
    case ScalarType::Float32: return 4;
    case ScalarType::Float64: return 8;
    }
    return 1;
}

std::string_view scalarTypeName(ScalarType type)
{
    switch (type) {
    case ScalarType::UInt8: return "uint8";
    case ScalarType::Int8: return "int8";
    case ScalarType::UInt16: return "uint16";
    case ScalarType::Int16: return "int16";
    case ScalarType::UInt32: return "uint32";
    case ScalarType::Int32: return "int32";
    case ScalarType::Float32: return "float32";
    case ScalarType::Float64: return "float64";
    }
    return "?";
}

ScalarType parseScalarType(std::string_view name)
{
    constexpr ScalarType all[] = {ScalarType::UInt8,   ScalarType::Int8,   ScalarType::UInt16,
                                  ScalarType::Int16,   ScalarType::UInt32, ScalarType::Int32,
                                  ScalarType::Float32, ScalarType::Float64};
    for (ScalarType t : all) {
        if (scalarTypeName(t) == name) return t;
    }
    if (name == "float") return ScalarType::Float32;
    if (name == "double") return ScalarType::Float64;
    throw InvalidInputError("unknown voxel type '" + std::string(name) +
                            "' (expected uint8, int8, uint16, int16, uint32, int32, float32 or "
                            "float64)");
}

namespace {
glm::dmat3 spacingMatrix(const glm::dvec3& s)
{
    return glm::dmat3(s.x, 0.0, 0.0, 0.0, s.y, 0.0, 0.0, 0.0, s.z);
}
} // namespace

glm::dmat4 VolumeGeometry::indexToPhysical() const
{
    glm::dmat3 linear = direction * spacingMatrix(spacing);
    glm::dmat4 m(linear);
    m[3] = glm::dvec4(origin, 1.0);
    return m;
}

std::size_t VolumeGeometry::sliceIntervalAt(double k) const
{
    const double last = sliceOrigins.empty() ? 0.0 : double(sliceOrigins.size() - 1);
    return std::size_t(std::min(std::floor(std::clamp(k, 0.0, last)), std::max(last - 1.0, 0.0)));
}

glm::dvec3 VolumeGeometry::toPhysical(const glm::dvec3& index) const
{
    // The affine map without building its matrix: slice views call this per contour point.
    if (sliceOrigins.empty()) return origin + direction * (spacing * index);
    const double k = std::clamp(index.z, 0.0, double(sliceOrigins.size() - 1));
    const std::size_t k0 = sliceIntervalAt(k);
    const std::size_t k1 = std::min(k0 + 1, sliceOrigins.size() - 1);
    const glm::dvec3 sliceOrigin =
        sliceOrigins[k0] + (sliceOrigins[k1] - sliceOrigins[k0]) * (k - double(k0));
    return sliceOrigin + direction[0] * (spacing.x * index.x) +
           direction[1] * (spacing.y * index.y);
}

glm::dmat3 VolumeGeometry::jacobianAt(double k) const
{
    glm::dmat3 j = direction * spacingMatrix(spacing);
    if (sliceOrigins.size() >= 2) {
        const std::size_t k0 = sliceIntervalAt(k);
        j[2] = sliceOrigins[k0 + 1] - sliceOrigins[k0];
    }
    return j;
}

glm::dmat3 VolumeGeometry::voxelGradientToPhysical(std::size_t k) const
{
    glm::dmat3 j = direction * spacingMatrix(spacing);
    const std::size_t n = sliceOrigins.size();
    if (n >= 2) {
        const std::size_t below = k > 0 ? k - 1 : 0;
        const std::size_t above = std::min(k + 1, n - 1);
        j[2] = (sliceOrigins[above] - sliceOrigins[below]) / double(above - below);
    }
    return glm::transpose(glm::inverse(j));
}

bool VolumeGeometry::isMirrored() const
{
    return glm::determinant(direction * spacingMatrix(spacing)) < 0.0;
}

glm::dmat3 VolumeGeometry::gradientToPhysical() const
{
    return glm::transpose(glm::inverse(direction * spacingMatrix(spacing)));
}

namespace {

// Beyond these no scan's geometry lies, and the mesh's float coordinates (3.4e38 at most) would
// overflow or lose every digit: refused at load, not found as "non-finite" at export.
constexpr double kMaxSpacingMm = 1e6;  // a kilometre per voxel
constexpr double kMaxPositionMm = 1e9; // a thousand kilometres from the origin

std::string numberText(double v)
{
    std::ostringstream s;
    s << v;
    return s.str();
}

void checkGeometry(const VolumeGeometry& g)
{
    for (int axis = 0; axis < 3; ++axis) {
        const double s = g.spacing[axis];
        if (!std::isfinite(s) || s <= 0.0 || s > kMaxSpacingMm) {
            throw InvalidInputError("the voxel spacing " + numberText(g.spacing.x) + " x " +
                                    numberText(g.spacing.y) + " x " + numberText(g.spacing.z) +
                                    " mm is not a scan's: each must be above 0 and at most " +
                                    numberText(kMaxSpacingMm) + " mm");
        }
    }
    const auto farOff = [](const glm::dvec3& p) {
        return !std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z) ||
               std::abs(p.x) > kMaxPositionMm || std::abs(p.y) > kMaxPositionMm ||
               std::abs(p.z) > kMaxPositionMm;
    };
    bool bad = farOff(g.origin);
    for (const glm::dvec3& slice : g.sliceOrigins)
        bad = bad || farOff(slice);
    for (int c = 0; c < 3; ++c)
        bad = bad || farOff(g.direction[c]);
    if (bad) {
        throw InvalidInputError("the volume's position or orientation is not finite or lies "
                                "more than " +
                                numberText(kMaxPositionMm) + " mm from the origin");
    }
}

} // namespace

void Volume::setGeometry(const VolumeGeometry& geometry)
{
    checkGeometry(geometry);
    m_geometry = geometry;
}

Volume::Volume(glm::uvec3 dims, ScalarType type, std::vector<std::byte> voxels,
               VolumeGeometry geometry, ValueRescale rescale)
    : m_dims(dims), m_type(type), m_voxels(std::move(voxels)), m_geometry(std::move(geometry)),
      m_rescale(rescale)
{
    if (dims.x == 0 || dims.y == 0 || dims.z == 0) {
        throw InvalidInputError("volume has a zero dimension");
    }
    const std::size_t expected = voxelCount() * scalarSize(type);
    if (m_voxels.size() != expected) {
        throw InvalidInputError(
            "volume data holds " + std::to_string(m_voxels.size()) + " bytes, but " +
            std::to_string(dims.x) + "x" + std::to_string(dims.y) + "x" + std::to_string(dims.z) +
            " " + std::string(scalarTypeName(type)) + " needs " + std::to_string(expected));
    }
    if (!std::isfinite(rescale.slope) || rescale.slope <= 0.0 ||
        !std::isfinite(rescale.intercept)) {
        throw InvalidInputError("value rescale must have a positive finite slope");
    }
    checkGeometry(m_geometry);
    measureStoredRange(); // no metadata yet, so no padding
    // Real values are compared and shaded as 32-bit floats: a rescale past their range (a
    // NIfTI scl_slope of 3e38) would make every surface empty without a word.
    const ValueRange real = realRange();
    if (std::abs(real.min) > double(std::numeric_limits<float>::max()) ||
        std::abs(real.max) > double(std::numeric_limits<float>::max())) {
        throw InvalidInputError("the value rescale (slope " + numberText(rescale.slope) +
                                ", intercept " + numberText(rescale.intercept) +
                                ") maps the stored values to " + numberText(real.min) + " .. " +
                                numberText(real.max) + ", beyond what 32-bit floating point holds");
    }
}

void Volume::setMetadata(VolumeMetadata metadata)
{
    const bool paddingChanged = metadata.paddingValue != m_metadata.paddingValue;
    m_metadata = std::move(metadata);
    if (paddingChanged) measureStoredRange();
}

void Volume::measureStoredRange()
{
    // The padding value is no data: the range is that of the other finite values.
    // Without padding the test compares with NaN, which matches nothing.
    const float padding = m_metadata.paddingValue ? float(*m_metadata.paddingValue)
                                                  : std::numeric_limits<float>::quiet_NaN();
    double lo = std::numeric_limits<double>::infinity();
    double hi = -lo;
    const std::size_t n = voxelCount();
    for (std::size_t i = 0; i < n; ++i) {
        const float v = valueAt(i);
        if (!std::isfinite(v) || v == padding) continue;
        lo = std::min(lo, double(v));
        hi = std::max(hi, double(v));
    }
    if (lo > hi) lo = hi = 0.0; // nothing but padding and non-finite voxels
    m_range = {lo, hi};
}

std::size_t Volume::voxelCount() const
{
    return std::size_t(m_dims.x) * m_dims.y * m_dims.z;
}

namespace {
template <class T> float load(const std::byte* base, std::size_t index)
{
    T value;
    std::memcpy(&value, base + index * sizeof(T), sizeof(T));
    return static_cast<float>(value);
}
} // namespace

float Volume::valueAt(std::size_t index) const
{
    const std::byte* base = m_voxels.data();
    switch (m_type) {
    case ScalarType::UInt8: return load<std::uint8_t>(base, index);
    case ScalarType::Int8: return load<std::int8_t>(base, index);
    case ScalarType::UInt16: return load<std::uint16_t>(base, index);
    case ScalarType::Int16: return load<std::int16_t>(base, index);
    case ScalarType::UInt32: return load<std::uint32_t>(base, index);
    case ScalarType::Int32: return load<std::int32_t>(base, index);
    case ScalarType::Float32: return load<float>(base, index);
    case ScalarType::Float64: return load<double>(base, index);
    }
    return 0.0f;
}

float Volume::valueAt(std::uint32_t i, std::uint32_t j, std::uint32_t k) const
{
    return valueAt(std::size_t(i) +
                   std::size_t(m_dims.x) * (std::size_t(j) + std::size_t(m_dims.y) * k));
}

ValueRange Volume::realRange() const
{
    const double a = m_rescale.toReal(m_range.min);
    const double b = m_rescale.toReal(m_range.max);
    return {std::min(a, b), std::max(a, b)};
}

} // namespace isoview
