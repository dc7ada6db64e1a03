// Whether a volume fits in GPU memory, decided before anything of it is uploaded (an upload
// that runs out of memory can take the whole context down with it), and the messages that give
// the sizes and say what the user can do: when the volume is refused, and when the upload runs
// out of memory all the same (the estimate falls short of what the driver needs, or others take
// the GPU's memory meanwhile). With a budget, what the placed volume leaves of it is the live
// surface's mesh buffers'.
//
// Contract: internal to the engine (SceneRenderer::setVolume uses it). No GL: the caller asks
// the GPU for its free memory (availableGpuMemory) and passes the figures in. Arithmetic and
// strings only; the constructor throws GpuMemoryError (gl_loader.h) when the volume is refused.
//
// Example:
//   const GpuMemoryAdmission admission(volume, {.budgetBytes = 0, .freeBytes = free,
//                                               .previousVolumeBytes = previous});
//   try { upload(volume); } catch (const GpuMemoryError& e) { throw admission.uploadFailed(e); }
#pragma once

#include "gpu/gl_loader.h"
#include "gpu/gpu_info.h"
#include "volume/volume.h"

#include <cstdint>
#include <optional>
#include <string>

namespace isoview::gpu {

struct GpuMemoryFigures {
    // SceneRenderer::Options::memoryBudgetBytes; 0: none, the GPU's free memory decides.
    std::uint64_t budgetBytes = 0;
    // What the GPU says it has free (asked only without a budget); nullopt: it does not say,
    // and no volume is refused before its upload.
    std::optional<std::uint64_t> freeBytes;
    // What the volume on the GPU now frees when replaced (texture, pyramids, mesh); counted
    // with freeBytes only (a budget is for one volume).
    std::uint64_t previousVolumeBytes = 0;
};

class GpuMemoryAdmission {
public:
    // Admits the volume, or throws GpuMemoryError with its size, the budget's or the GPU's free
    // memory, and what to do.
    GpuMemoryAdmission(const Volume& volume, const GpuMemoryFigures& figures);
    // The same for a volume not read yet, from its size and type alone.
    GpuMemoryAdmission(glm::uvec3 dims, ScalarType type, const GpuMemoryFigures& figures);

    // GPU memory the volume will take before any isosurface: its texture, both pyramids and
    // margins, rounded up.
    static std::uint64_t estimatedBytes(const Volume& volume);
    static std::uint64_t estimatedBytes(glm::uvec3 dims, ScalarType type);

    // The error for an upload the driver ran out of memory for (`driver`: its error).
    GpuMemoryError uploadFailed(const GpuMemoryError& driver) const;
    // The error for an upload the system ran out of memory for (std::bad_alloc).
    GpuMemoryError systemOutOfMemory() const;

    // With a budget, what the placed volume (`placed`: its memory use) leaves of it for the
    // live surface's mesh buffers, at least a byte; nullopt without a budget.
    std::optional<std::uint64_t> meshByteLimit(const GpuMemoryUse& placed) const;

private:
    std::uint64_t m_budgetBytes;
    std::string m_needs; // "This ... volume needs about ... of GPU memory (...)"
    bool m_wideScalars;  // more than a byte a voxel: an 8-bit copy would help
};

} // namespace isoview::gpu
