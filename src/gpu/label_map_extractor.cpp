#include "gpu/label_map_extractor.h"

#include "core/error.h"
#include "gpu/gpu_volume.h"
#include "gpu/isosurface_extractor.h"

#include <utility>

namespace isoview::gpu {

struct LabelMapExtractor::Impl {
    explicit Impl(const Options& options)
        : extractor(
              IsosurfaceExtractor::Options{.limitToGl33 = options.limitToGl33, .labels = true})
    {
    }
    IsosurfaceExtractor extractor;
    std::unique_ptr<GpuVolume> volume; // lent to the extractor
};

LabelMapExtractor::LabelMapExtractor() : LabelMapExtractor(Options{}) {}

LabelMapExtractor::LabelMapExtractor(const Options& options)
    : m_impl(std::make_unique<Impl>(options))
{
}

LabelMapExtractor::~LabelMapExtractor() = default;

const GlCapabilities& LabelMapExtractor::capabilities() const
{
    return m_impl->extractor.capabilities();
}

void LabelMapExtractor::setLabelMap(const Volume& labels, const std::optional<VoxelBox>& crop)
{
    if (labels.type() != ScalarType::UInt16) {
        throw InvalidInputError(
            "a label map is extracted from uint16 labels (toLabelVolume), not " +
            std::string(scalarTypeName(labels.type())));
    }
    if (crop) requireInside(*crop, labels.dims());
    Impl& d = *m_impl;
    // The new volume is given to the extractor before the old one goes, so a label map that
    // does not fit leaves the previous one usable.
    auto fresh = std::make_unique<GpuVolume>(labels, d.extractor.capabilities().maxTextureSize);
    d.extractor.setVolume(*fresh, crop.value_or(VoxelBox::whole(labels.dims())));
    d.volume = std::move(fresh);
}

void LabelMapExtractor::build()
{
    if (!m_impl->volume) throw Error("no label map to extract");
    m_impl->extractor.extractLabels();
}

std::uint32_t LabelMapExtractor::triangleCount()
{
    return m_impl->extractor.vertexCount() / 3;
}

std::vector<LabelSurface> LabelMapExtractor::capture()
{
    return m_impl->extractor.captureLabels();
}

GpuMemoryUse LabelMapExtractor::memoryUse() const
{
    return m_impl->extractor.memoryUse();
}

} // namespace isoview::gpu
