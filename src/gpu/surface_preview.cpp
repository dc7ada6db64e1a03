#include "gpu/surface_preview.h"

#include "core/error.h"
#include "core/log.h"
#include "gpu/surface_bricks.h"
#include "volume/volume_slab.h"

#include <algorithm>

namespace isoview::gpu {
namespace {

// The cells of a crop of the full volume's voxels in the halved volume's (dims: its own): the
// halved voxels whose blocks it touches. nullopt when that leaves no cell on an axis.
std::optional<VoxelBox> halvedCrop(const VoxelBox& crop, glm::uvec3 dims)
{
    VoxelBox box;
    box.first = glm::min(crop.first / 2u, dims - 1u);
    box.last = glm::min((crop.last + 1u) / 2u, dims - 1u);
    if (glm::any(glm::lessThanEqual(box.last, box.first))) return std::nullopt;
    return box;
}

} // namespace

SurfacePreview::SurfacePreview(const IsosurfaceExtractor::Options& options) : m_options(options) {}

SurfacePreview::~SurfacePreview() = default;

bool SurfacePreview::prepare(const std::shared_ptr<const Volume>& source, const VoxelBox& crop,
                             std::uint32_t maxTextureSize)
{
    if (!source || source->voxelCount() < kMinVoxels) return false;
    if (m_source.lock() != source) {
        release();
        m_source = source;
        try {
            const Volume halved = halfResolution(*source);
            auto bricks = std::make_unique<SurfaceBricks>(m_options);
            bricks->setVolume(halved, maxTextureSize);
            m_bricks = std::move(bricks);
        } catch (const Error& e) {
            m_failed = true;
            log::get("engine")->warn("no half-resolution surface while dragging: {}", e.what());
        } catch (const std::bad_alloc&) {
            m_failed = true;
            log::get("engine")->warn(
                "no half-resolution surface while dragging: out of system memory");
        }
    }
    if (m_failed || !m_bricks) return false;
    const std::optional<VoxelBox> box = halvedCrop(crop, source->dims() / 2u);
    if (!box) return false;
    if (!(*box == m_bricks->crop())) {
        m_bricks->setCrop(*box);
        m_isovalue.reset();
    }
    return true;
}

void SurfacePreview::extract(double realIsovalue)
{
    if (!m_bricks || m_isovalue == realIsovalue) return;
    m_bricks->extract(realIsovalue);
    m_isovalue = realIsovalue;
}

void SurfacePreview::draw(const SurfaceDrawParams& params)
{
    if (m_bricks && m_isovalue) m_bricks->draw(params);
}

bool SurfacePreview::drawUnconfirmed() const
{
    return m_bricks && m_bricks->drawUnconfirmed();
}

std::optional<std::uint32_t> SurfacePreview::pollVertexCount() const
{
    if (!m_bricks || !m_isovalue) return std::nullopt;
    return m_bricks->pollVertexCount();
}

std::uint32_t SurfacePreview::vertexCount()
{
    return m_bricks && m_isovalue ? m_bricks->vertexCount() : 0;
}

std::optional<std::string> SurfacePreview::meshError() const
{
    return m_bricks ? m_bricks->meshError() : std::nullopt;
}

void SurfacePreview::release()
{
    m_bricks.reset();
    m_source.reset();
    m_failed = false;
    m_isovalue.reset();
}

GpuMemoryUse SurfacePreview::memoryUse() const
{
    return m_bricks ? m_bricks->memoryUse() : GpuMemoryUse{};
}

} // namespace isoview::gpu
