// The GPU extraction without the scene around it, for the GL tests: an IsosurfaceExtractor with
// a GpuVolume of its own, paired exactly as SceneRenderer pairs them (the volume is replaced only
// after the extractor has taken the new one, so a volume that does not fit leaves the previous
// one usable). Isovalues are in stored units, as the extractor takes them.
#pragma once

#include "gpu/gpu_volume.h"
#include "gpu/isosurface_extractor.h"

#include <memory>

namespace isoview::test {

class GpuExtractor {
public:
    // labels: a label-map extractor (IsosurfaceExtractor::Options::labels).
    explicit GpuExtractor(bool limitToGl33 = false, bool labels = false);

    // Uploads the volume and gives it to the extractor. Throws as GpuVolume and
    // IsosurfaceExtractor::setVolume do, with the previous volume still in place.
    void setVolume(const Volume& volume);

    gpu::IsosurfaceExtractor* operator->() { return &m_extractor; }
    const gpu::IsosurfaceExtractor* operator->() const { return &m_extractor; }
    gpu::IsosurfaceExtractor& extractor() { return m_extractor; }

private:
    std::unique_ptr<gpu::GpuVolume> m_volume;
    gpu::IsosurfaceExtractor m_extractor;
};

} // namespace isoview::test
