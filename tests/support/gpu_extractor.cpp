#include "support/gpu_extractor.h"

namespace isoview::test {

GpuExtractor::GpuExtractor(bool limitToGl33, bool labels)
    : m_extractor(gpu::IsosurfaceExtractor::Options{.limitToGl33 = limitToGl33, .labels = labels})
{
}

void GpuExtractor::setVolume(const Volume& volume)
{
    auto fresh =
        std::make_unique<gpu::GpuVolume>(volume, m_extractor.capabilities().maxTextureSize);
    m_extractor.setVolume(*fresh);
    m_volume = std::move(fresh);
}

} // namespace isoview::test
