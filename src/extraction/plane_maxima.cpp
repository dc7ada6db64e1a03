#include "extraction/plane_maxima.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace isoview {
namespace {

constexpr float kNegInf = -std::numeric_limits<float>::infinity();

// One pass: every voxel raises the maxima of its x, y and z planes. A row's maximum goes to its
// y and z planes once; the x planes take the row element-wise.
template <class T> void planeMaxima(const Volume& volume, std::array<std::vector<float>, 3>& out)
{
    const glm::uvec3 d = volume.dims();
    const std::byte* bytes = volume.bytes();
    std::vector<T> row(d.x);
    for (std::uint32_t z = 0; z < d.z; ++z) {
        for (std::uint32_t y = 0; y < d.y; ++y) {
            const std::uint64_t r = std::uint64_t(z) * d.y + y;
            std::memcpy(row.data(), bytes + r * d.x * sizeof(T), d.x * sizeof(T));
            float rowMax = kNegInf;
            for (std::uint32_t x = 0; x < d.x; ++x) {
                float v = static_cast<float>(row[x]);
                if (std::isnan(v)) v = kNegInf;
                out[0][x] = std::max(out[0][x], v);
                rowMax = std::max(rowMax, v);
            }
            out[1][y] = std::max(out[1][y], rowMax);
            out[2][z] = std::max(out[2][z], rowMax);
        }
    }
}

} // namespace

PlaneMaxima PlaneMaxima::compute(const Volume& volume)
{
    PlaneMaxima p;
    const glm::uvec3 d = volume.dims();
    for (int a = 0; a < 3; ++a)
        p.m_max[std::size_t(a)].assign(d[a], kNegInf);
    switch (volume.type()) {
    case ScalarType::UInt8: planeMaxima<std::uint8_t>(volume, p.m_max); break;
    case ScalarType::Int8: planeMaxima<std::int8_t>(volume, p.m_max); break;
    case ScalarType::UInt16: planeMaxima<std::uint16_t>(volume, p.m_max); break;
    case ScalarType::Int16: planeMaxima<std::int16_t>(volume, p.m_max); break;
    case ScalarType::UInt32: planeMaxima<std::uint32_t>(volume, p.m_max); break;
    case ScalarType::Int32: planeMaxima<std::int32_t>(volume, p.m_max); break;
    case ScalarType::Float32: planeMaxima<float>(volume, p.m_max); break;
    case ScalarType::Float64: planeMaxima<double>(volume, p.m_max); break;
    }
    return p;
}

float PlaneMaxima::boundaryBound(const VoxelBox& box, unsigned faces) const
{
    float bound = kNegInf;
    for (int a = 0; a < 3; ++a) {
        const std::vector<float>& planes = m_max[std::size_t(a)];
        if (planes.empty()) continue;
        if (faces & (1u << (2 * a))) bound = std::max(bound, planes[box.first[a]]);
        if (faces & (1u << (2 * a + 1))) bound = std::max(bound, planes[box.last[a]]);
    }
    return bound;
}

unsigned PlaneMaxima::openFaces(const VoxelBox& box, StoredValue isovalue) const
{
    unsigned open = 0;
    for (unsigned face = 0; face < 6; ++face)
        if (!(boundaryBound(box, 1u << face) < isovalue.classified())) open |= 1u << face;
    return open;
}

} // namespace isoview
