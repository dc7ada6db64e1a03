#include "volume/volume_slab.h"

#include "core/error.h"
#include "core/parallel_for.h"
#include "volume/scalar_dispatch.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace isoview {

Volume copySlab(const Volume& volume, std::uint32_t first, std::uint32_t last)
{
    const glm::uvec3 dims = volume.dims();
    if (first > last || last >= dims.z) {
        throw Error("slices " + std::to_string(first) + ".." + std::to_string(last) +
                    " do not lie in a volume of " + std::to_string(dims.z) + " slices");
    }
    const std::size_t voxelBytes = scalarSize(volume.type());
    const std::size_t sliceBytes = std::size_t(dims.x) * dims.y * voxelBytes;
    const std::uint32_t count = last - first + 1;
    std::vector<std::byte> bytes(sliceBytes * count);
    std::memcpy(bytes.data(), volume.bytes() + sliceBytes * first, bytes.size());

    VolumeGeometry geometry = volume.geometry();
    if (geometry.hasSliceOrigins()) {
        geometry.sliceOrigins.assign(volume.geometry().sliceOrigins.begin() + first,
                                     volume.geometry().sliceOrigins.begin() + last + 1);
        geometry.origin = geometry.sliceOrigins.front();
    } else {
        geometry.origin = volume.geometry().toPhysical(glm::dvec3(0.0, 0.0, double(first)));
    }
    Volume slab({dims.x, dims.y, count}, volume.type(), std::move(bytes), geometry,
                volume.rescale());
    slab.setMetadata(volume.metadata());
    return slab;
}

Volume subsample(const Volume& volume, std::uint32_t factor)
{
    if (factor == 0) throw Error("a subsampling factor must be at least 1");
    const glm::uvec3 dims = volume.dims();
    const glm::uvec3 out = (dims + glm::uvec3(factor - 1)) / factor;
    const std::size_t voxelBytes = scalarSize(volume.type());
    std::vector<std::byte> bytes(std::size_t(out.x) * out.y * out.z * voxelBytes);
    std::byte* to = bytes.data();
    for (std::uint32_t k = 0; k < out.z; ++k)
        for (std::uint32_t j = 0; j < out.y; ++j)
            for (std::uint32_t i = 0; i < out.x; ++i) {
                const std::size_t from =
                    (std::size_t(i) * factor +
                     std::size_t(dims.x) * (std::size_t(j) * factor +
                                            std::size_t(dims.y) * std::size_t(k) * factor)) *
                    voxelBytes;
                std::memcpy(to, volume.bytes() + from, voxelBytes);
                to += voxelBytes;
            }
    VolumeGeometry geometry = volume.geometry();
    geometry.spacing *= double(factor);
    if (geometry.hasSliceOrigins()) {
        std::vector<glm::dvec3> origins;
        for (std::uint32_t k = 0; k < out.z; ++k)
            origins.push_back(volume.geometry().sliceOrigins[std::size_t(k) * factor]);
        geometry.sliceOrigins = std::move(origins);
    }
    Volume coarse(out, volume.type(), std::move(bytes), geometry, volume.rescale());
    coarse.setMetadata(volume.metadata());
    return coarse;
}

namespace {

// halfResolution's means for voxels of type T, output slices [begin, end).
template <class T>
void averageBlocks(const Volume& volume, glm::uvec3 out, std::optional<double> padding,
                   std::byte* bytes, std::size_t begin, std::size_t end)
{
    const T* in = reinterpret_cast<const T*>(volume.bytes());
    T* to = reinterpret_cast<T*>(bytes);
    const glm::uvec3 dims = volume.dims();
    const std::size_t row = dims.x;
    const std::size_t slice = std::size_t(dims.x) * dims.y;
    for (std::size_t k = begin; k < end; ++k)
        for (std::size_t j = 0; j < out.y; ++j)
            for (std::size_t i = 0; i < out.x; ++i) {
                const std::size_t first = 2 * i + row * 2 * j + slice * 2 * k;
                double sum = 0.0;
                int count = 0;
                for (const std::size_t offset : {std::size_t(0), std::size_t(1), row, row + 1,
                                                 slice, slice + 1, slice + row, slice + row + 1}) {
                    const double v = double(in[first + offset]);
                    if (!std::isfinite(v) || (padding && v == *padding)) continue;
                    sum += v;
                    ++count;
                }
                T& value = to[i + out.x * (j + std::size_t(out.y) * k)];
                if (count == 0) {
                    // All padding (or NaN): stays so.
                    value = in[first];
                } else if constexpr (std::numeric_limits<T>::is_integer) {
                    value = T(std::llround(sum / count)); // a mean of Ts is in T's range
                } else {
                    value = T(sum / count);
                }
            }
}

} // namespace

Volume halfResolution(const Volume& volume)
{
    const glm::uvec3 dims = volume.dims();
    if (glm::any(glm::lessThan(dims, glm::uvec3(4)))) {
        throw Error("a volume of " + std::to_string(dims.x) + "x" + std::to_string(dims.y) + "x" +
                    std::to_string(dims.z) + " voxels is too small to halve");
    }
    const glm::uvec3 out = dims / 2u;
    std::vector<std::byte> bytes(std::size_t(out.x) * out.y * out.z * scalarSize(volume.type()));
    const std::optional<double> padding = volume.metadata().paddingValue;
    parallelFor(out.z, 1, [&](std::size_t begin, std::size_t end) {
        withScalarType(volume.type(), [&](auto zero) {
            averageBlocks<decltype(zero)>(volume, out, padding, bytes.data(), begin, end);
        });
    });
    // Voxel (i, j, k) sits at the centre of its block: fine index 2i + 0.5 on each axis.
    const VolumeGeometry& fine = volume.geometry();
    VolumeGeometry geometry = fine;
    geometry.spacing *= 2.0;
    geometry.origin = fine.toPhysical(glm::dvec3(0.5));
    if (fine.hasSliceOrigins()) {
        std::vector<glm::dvec3> origins;
        origins.reserve(out.z);
        for (std::uint32_t k = 0; k < out.z; ++k)
            origins.push_back(fine.toPhysical(glm::dvec3(0.5, 0.5, 2.0 * k + 0.5)));
        geometry.sliceOrigins = std::move(origins);
        geometry.origin = geometry.sliceOrigins.front();
    }
    Volume coarse(out, volume.type(), std::move(bytes), geometry, volume.rescale());
    coarse.setMetadata(volume.metadata());
    return coarse;
}

} // namespace isoview
