#include "gpu/surface_bricks.h"

#include "core/error.h"
#include "core/log.h"
#include "extraction/flat3d_layout.h"
#include "gpu/gpu_volume.h"
#include "volume/volume_series.h"
#include "volume/volume_slab.h"

#include <algorithm>
#include <string>
#include <unordered_map>

namespace isoview::gpu {

struct SurfaceBricks::Brick {
    BrickSlab slab;
    std::unique_ptr<GpuVolume> volume;
    std::unique_ptr<IsosurfaceExtractor> ownExtractor; // null for the first brick (m_primary)
    IsosurfaceExtractor* extractor = nullptr;
    bool hasCells = true; // the crop leaves this slab some cells

    // The slab's own voxels (its texture less the margins), in the brick's indices.
    VoxelBox ownCells() const
    {
        const glm::uvec3 dims = volume->dims();
        return {{0, 0, slab.first - slab.textureFirst},
                {dims.x - 1, dims.y - 1, slab.last - slab.textureFirst}};
    }

    // The slab's part of a crop (whole-volume voxels), in the brick's own indices.
    std::optional<VoxelBox> localCrop(const VoxelBox& box) const
    {
        const std::uint32_t lo = std::max(box.first.z, slab.first);
        const std::uint32_t hi = std::min(box.last.z, slab.last);
        if (hi <= lo) return std::nullopt; // no cells of the box in this slab
        return VoxelBox{{box.first.x, box.first.y, lo - slab.textureFirst},
                        {box.last.x, box.last.y, hi - slab.textureFirst}};
    }
};

SurfaceBricks::SurfaceBricks(const IsosurfaceExtractor::Options& options)
    : m_primary(options), m_options(options)
{
}

SurfaceBricks::~SurfaceBricks() = default;

void SurfaceBricks::setVolume(const Volume& volume, std::uint32_t maxTextureSize)
{
    placeVolume(volume, maxTextureSize);
    // After the new volume is in place (a failure above keeps everything as it was).
    m_resident.clear();
    m_timePoint.reset();
}

std::uint64_t SurfaceBricks::residentBytes() const
{
    std::uint64_t bytes = 0;
    for (const Resident& r : m_resident)
        bytes += r.gpu->bytes();
    return bytes;
}

bool SurfaceBricks::isResident(const std::shared_ptr<const Volume>& volume) const
{
    return std::any_of(m_resident.begin(), m_resident.end(),
                       [&](const Resident& r) { return r.volume == volume; });
}

void SurfaceBricks::setTimePoint(std::shared_ptr<const Volume> volume, bool sameSeries,
                                 std::uint32_t maxTextureSize, std::uint64_t residentBytes)
{
    const Volume& v = *volume;
    if (sameSeries && m_timePoint == volume) return; // shown already
    const bool sameGrid = sameSeries && m_bricks.size() == 1 && m_timePoint && v.dims() == m_dims &&
                          samplerKindFor(v.type()) == m_bricks.front()->volume->samplerKind() &&
                          onSameGrid(v, *m_timePoint) &&
                          planBricks(v.dims(), maxTextureSize).size() == 1;
    if (!sameGrid) {
        placeVolume(v, maxTextureSize);
        m_resident.clear();
        m_timePoint = std::move(volume);
        m_lastWasResident = false;
        return;
    }
    // Its texture: resident, or uploaded now.
    Resident next;
    const auto kept = std::find_if(m_resident.begin(), m_resident.end(),
                                   [&](const Resident& r) { return r.volume == volume; });
    m_lastWasResident = kept != m_resident.end();
    if (m_lastWasResident) {
        next = std::move(*kept);
        m_resident.erase(kept);
    } else {
        next.volume = volume;
        next.gpu = std::make_unique<GpuVolume>(v, maxTextureSize);
        next.planeMaxima = PlaneMaxima::compute(v);
    }
    Brick& brick = *m_bricks.front();
    m_primary.setValues(*next.gpu); // keeps its pyramid and buffers: nothing to allocate
    // The one shown until now becomes a resident while the residents fit their bytes.
    Resident previous{std::move(m_timePoint), std::move(brick.volume), std::move(m_planeMaxima)};
    brick.volume = std::move(next.gpu);
    m_planeMaxima = std::move(next.planeMaxima);
    m_timePoint = std::move(next.volume);
    if (this->residentBytes() + previous.gpu->bytes() <= residentBytes)
        m_resident.push_back(std::move(previous));
}

void SurfaceBricks::placeVolume(const Volume& volume, std::uint32_t maxTextureSize)
{
    const glm::uvec3 dims = volume.dims();
    const std::vector<BrickSlab> slabs = planBricks(dims, maxTextureSize);
    // Everything new is built before anything is replaced; the primary extractor last, since
    // it keeps its previous volume when it throws.
    std::vector<std::unique_ptr<Brick>> bricks;
    std::unique_ptr<GpuVolume> raycast;
    for (std::size_t i = 0; i < slabs.size(); ++i) {
        auto brick = std::make_unique<Brick>();
        brick->slab = slabs[i];
        if (slabs.size() == 1) {
            brick->volume = std::make_unique<GpuVolume>(volume, maxTextureSize);
        } else {
            const Volume part = copySlab(volume, slabs[i].textureFirst, slabs[i].textureLast);
            brick->volume = std::make_unique<GpuVolume>(part, maxTextureSize);
        }
        if (i > 0) {
            brick->ownExtractor = std::make_unique<IsosurfaceExtractor>(m_options);
            brick->extractor = brick->ownExtractor.get();
            brick->extractor->setVolume(*brick->volume, brick->ownCells());
        }
        bricks.push_back(std::move(brick));
    }
    if (slabs.size() > 1) {
        // The coarsest grid step that fits one texture, for volume rendering only.
        std::uint32_t factor = 2;
        while (slicesPerTexture((dims + factor - 1u) / factor, maxTextureSize) <
               (dims.z + factor - 1) / factor)
            ++factor;
        raycast = std::make_unique<GpuVolume>(subsample(volume, factor), maxTextureSize);
        log::get("engine")->info("volume {}x{}x{} in {} bricks; volume rendering at 1/{} grid",
                                 dims.x, dims.y, dims.z, slabs.size(), factor);
    }
    PlaneMaxima planeMaxima = PlaneMaxima::compute(volume);
    m_primary.setVolume(*bricks.front()->volume, bricks.front()->ownCells());
    bricks.front()->extractor = &m_primary;
    m_bricks = std::move(bricks);
    m_raycastVolume = std::move(raycast);
    m_dims = dims;
    m_crop = VoxelBox::whole(dims);
    m_planeMaxima = std::move(planeMaxima);
    applyMeshByteLimit();
}

unsigned SurfaceBricks::openCropFaces(double realIsovalue) const
{
    if (!hasVolume()) return PlaneMaxima::kAllFaces;
    return m_planeMaxima.openFaces(m_crop, toStored(realIsovalue));
}

const GpuVolume& SurfaceBricks::raycastVolume() const
{
    return m_raycastVolume ? *m_raycastVolume : *m_bricks.front()->volume;
}

StoredValue SurfaceBricks::toStored(double real) const
{
    return m_bricks.front()->volume->toStored(real);
}

void SurfaceBricks::setCrop(const VoxelBox& box)
{
    if (m_bricks.size() == 1) {
        m_primary.setCrop(box); // validates
        m_crop = box;
        return;
    }
    requireInside(box, m_dims);
    for (auto& brick : m_bricks) {
        const std::optional<VoxelBox> local = brick->localCrop(box);
        brick->hasCells = local.has_value();
        if (local) brick->extractor->setCrop(*local);
    }
    m_crop = box;
}

void SurfaceBricks::extract(double realIsovalue)
{
    for (auto& brick : m_bricks)
        if (brick->hasCells) brick->extractor->extract(brick->volume->toStored(realIsovalue));
}

void SurfaceBricks::draw(const SurfaceDrawParams& params)
{
    for (auto& brick : m_bricks)
        if (brick->hasCells) brick->extractor->draw(params);
}

bool SurfaceBricks::drawUnconfirmed() const
{
    return std::any_of(m_bricks.begin(), m_bricks.end(), [](const auto& brick) {
        return brick->hasCells && brick->extractor->lastDrawUnconfirmed();
    });
}

std::optional<std::string> SurfaceBricks::meshError() const
{
    for (const auto& brick : m_bricks) {
        if (!brick->hasCells) continue;
        if (std::optional<std::string> error = brick->extractor->meshError()) return error;
    }
    return std::nullopt;
}

void SurfaceBricks::setMeshByteLimit(std::uint64_t bytes)
{
    m_meshByteLimit = bytes;
    applyMeshByteLimit();
}

void SurfaceBricks::applyMeshByteLimit()
{
    const std::uint64_t bricks = std::max<std::uint64_t>(m_bricks.size(), 1);
    // Rounded up, so that a limit is never 0 (which means none).
    const std::uint64_t share = m_meshByteLimit == 0 ? 0 : (m_meshByteLimit + bricks - 1) / bricks;
    if (m_bricks.empty()) m_primary.setMeshByteLimit(share); // else it is the first brick's
    for (auto& brick : m_bricks)
        brick->extractor->setMeshByteLimit(share);
}

std::uint32_t SurfaceBricks::vertexCount()
{
    std::uint32_t total = 0;
    for (auto& brick : m_bricks)
        if (brick->hasCells) total += brick->extractor->vertexCount();
    return total;
}

std::optional<std::uint32_t> SurfaceBricks::pollVertexCount() const
{
    std::uint32_t total = 0;
    for (const auto& brick : m_bricks) {
        if (!brick->hasCells) continue;
        const std::optional<std::uint32_t> count = brick->extractor->pollVertexCount();
        if (!count) return std::nullopt;
        total += *count;
    }
    return total;
}

std::optional<IsosurfaceExtractor::MeshBuffers> SurfaceBricks::singleBrickMeshBuffers()
{
    if (m_bricks.size() != 1) return std::nullopt;
    return m_primary.meshBuffers();
}

IsoMesh SurfaceBricks::capture()
{
    if (m_bricks.size() == 1) return m_primary.capture();
    // Each brick's mesh in whole-volume indices. Only vertices on a slice two slabs share can
    // come twice (once from each side); they are welded by edge key, the rest appended as is.
    IsoMesh merged;
    std::unordered_map<EdgeKey, std::uint32_t> sharedVertex;
    const std::uint64_t sliceVoxels = std::uint64_t(m_dims.x) * m_dims.y;
    for (std::size_t b = 0; b < m_bricks.size(); ++b) {
        Brick& brick = *m_bricks[b];
        if (!brick.hasCells) continue;
        const IsoMesh part = brick.extractor->capture();
        const std::uint32_t offset = brick.slab.textureFirst;
        std::vector<std::uint32_t> remap(part.vertexCount());
        for (std::size_t v = 0; v < part.vertexCount(); ++v) {
            const EdgeKey key = part.edgeKeys[v] + 3 * sliceVoxels * offset;
            const std::uint64_t slice = key / 3 / sliceVoxels;
            const bool shared = (b > 0 && slice == brick.slab.first) ||
                                (b + 1 < m_bricks.size() && slice == brick.slab.last);
            const auto next = std::uint32_t(merged.vertexCount());
            bool fresh = true;
            if (shared) {
                const auto [at, inserted] = sharedVertex.try_emplace(key, next);
                fresh = inserted;
                remap[v] = at->second;
            } else {
                remap[v] = next;
            }
            if (fresh) {
                merged.positions.push_back(part.positions[v] +
                                           glm::vec3(0.0f, 0.0f, float(offset)));
                merged.normals.push_back(part.normals[v]);
                merged.edgeKeys.push_back(key);
            }
        }
        for (std::uint32_t index : part.indices)
            merged.indices.push_back(remap[index]);
    }
    return merged;
}

GpuMemoryUse SurfaceBricks::memoryUse() const
{
    GpuMemoryUse use;
    for (const auto& brick : m_bricks) {
        const GpuMemoryUse part = brick->extractor->memoryUse();
        use.volumeTextureBytes += part.volumeTextureBytes;
        use.pyramidBytes += part.pyramidBytes;
        use.meshBytes += part.meshBytes;
    }
    if (m_raycastVolume) use.volumeTextureBytes += m_raycastVolume->bytes();
    use.voxels = std::uint64_t(m_dims.x) * m_dims.y * m_dims.z;
    return use;
}

} // namespace isoview::gpu
