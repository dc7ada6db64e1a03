#include "volume/volume_slab.h"

#include "core/error.h"

#include <cstring>
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

} // namespace isoview
