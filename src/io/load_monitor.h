// How a loader reports progress and learns it should stop, so that the viewer can load in the
// background with a progress bar and a Cancel button. Loaders call progress() between units of
// work (files scanned, slices decoded) and throw CancelledError promptly once cancelRequested()
// is true, and admitVolume() once they know what they are about to read, before any voxel is
// allocated or read. All are called on the loading thread; implementations must be thread-safe.
//
// Example:
//   struct Bar : LoadMonitor {
//       void progress(std::string_view stage, std::uint64_t done, std::uint64_t total) override;
//       bool cancelRequested() const override { return m_cancel.load(); }
//       std::atomic<bool> m_cancel{false};
//   };
#pragma once

#include "volume/volume.h"

#include <glm/glm.hpp>

#include <cstdint>
#include <string_view>

namespace isoview::io {

class LoadMonitor {
public:
    virtual ~LoadMonitor() = default;
    // `done` of `total` units of `stage` ("scanning files", "decoding slices"); total may be 0
    // when unknown.
    virtual void progress(std::string_view stage, std::uint64_t done, std::uint64_t total)
    {
        (void)stage;
        (void)done;
        (void)total;
    }
    virtual bool cancelRequested() const { return false; }
    // The volume about to be read: its size and type, known from a header, a name or the
    // caller's parameters. Throwing (an Error) refuses it before its voxels are read, so that
    // a volume the GPU cannot hold costs a header's reading, not gigabytes of it.
    virtual void admitVolume(glm::uvec3 dims, ScalarType type)
    {
        (void)dims;
        (void)type;
    }
};

// Reports progress and throws CancelledError when cancellation was requested; a null monitor
// does nothing. Call it between units of work.
void reportProgress(LoadMonitor* monitor, std::string_view stage, std::uint64_t done,
                    std::uint64_t total);

} // namespace isoview::io
