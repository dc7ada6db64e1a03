#include "gpu/gpu_memory_admission.h"

namespace isoview::gpu {
namespace {

// "128x128x85 uint16 volume"
std::string describeVolume(glm::uvec3 d, ScalarType type)
{
    return std::to_string(d.x) + "x" + std::to_string(d.y) + "x" + std::to_string(d.z) + " " +
           std::string(scalarTypeName(type)) + " volume";
}

// What the user can do about a volume the GPU cannot hold; ends every such message.
std::string whatToDo(bool wideScalars, const std::string& orElse)
{
    return std::string("To view it, open a cropped part of it (a smaller region or fewer "
                       "slices), a subsampled copy") +
           (wideScalars ? ", an 8-bit copy" : "") + ", or " + orElse + ".";
}

const char* const kCloseOthers = "close other programs that use the GPU";

} // namespace

GpuMemoryAdmission::GpuMemoryAdmission(const Volume& volume, const GpuMemoryFigures& figures)
    : GpuMemoryAdmission(volume.dims(), volume.type(), figures)
{
}

GpuMemoryAdmission::GpuMemoryAdmission(glm::uvec3 dims, ScalarType type,
                                       const GpuMemoryFigures& figures)
    : m_budgetBytes(figures.budgetBytes), m_wideScalars(scalarSize(type) > 1)
{
    const std::uint64_t needed = estimatedBytes(dims, type);
    m_needs = "This " + describeVolume(dims, type) + " needs about " + formatBytes(needed) +
              " of GPU memory (volume texture and pyramids)";
    if (figures.budgetBytes != 0) {
        if (needed > figures.budgetBytes) {
            throw GpuMemoryError(m_needs + ", more than the budget of " +
                                 formatBytes(figures.budgetBytes) + ". " +
                                 whatToDo(m_wideScalars, "raise the budget"));
        }
    } else if (figures.freeBytes) {
        // The GPU's free memory gains what the previous volume frees.
        const std::uint64_t available = *figures.freeBytes + figures.previousVolumeBytes;
        if (needed > available) {
            throw GpuMemoryError(m_needs + ", more than the " + formatBytes(available) +
                                 " the GPU has free. " + whatToDo(m_wideScalars, kCloseOthers));
        }
    }
}

// Flat-3D padding stays under 10% of the texture; both pyramids take about 1.75 bytes a voxel;
// margins and the ray caster's copy of a bricked volume are in the rounding up.
std::uint64_t GpuMemoryAdmission::estimatedBytes(const Volume& volume)
{
    return estimatedBytes(volume.dims(), volume.type());
}

std::uint64_t GpuMemoryAdmission::estimatedBytes(glm::uvec3 d, ScalarType type)
{
    const double voxels = double(d.x) * double(d.y) * double(d.z);
    return std::uint64_t(voxels * (double(scalarSize(type)) * 1.1 + 1.8));
}

GpuMemoryError GpuMemoryAdmission::uploadFailed(const GpuMemoryError& driver) const
{
    return GpuMemoryError(m_needs + " and does not fit: " + driver.what() + ". " +
                          whatToDo(m_wideScalars, kCloseOthers));
}

GpuMemoryError GpuMemoryAdmission::systemOutOfMemory() const
{
    // Software renderers (llvmpipe) keep textures in system memory, as bricks keep copies.
    return GpuMemoryError(m_needs +
                          " and does not fit: the system ran out of memory placing it on the "
                          "GPU. " +
                          whatToDo(m_wideScalars, "close other programs"));
}

std::optional<std::uint64_t> GpuMemoryAdmission::meshByteLimit(const GpuMemoryUse& placed) const
{
    if (m_budgetBytes == 0) return std::nullopt;
    const std::uint64_t taken = placed.volumeTextureBytes + placed.pyramidBytes;
    // At least a byte: 0 would mean no limit.
    return m_budgetBytes > taken ? m_budgetBytes - taken : 1;
}

} // namespace isoview::gpu
