// The isosurface of a volume of any height: one brick (the common case: the volume's own
// texture and pyramid, shared with the ray caster), or, for a volume whose flat-3D layout
// exceeds the GPU's texture size, several slabs of slices (extraction/brick_plan.h), each its
// own GpuVolume, pyramid and extractor. Every cell lies in exactly one slab and each slab's
// texture carries a margin slice on either side, so the bricked surface is the unbricked one:
// captures are merged by grid-edge key, which also welds the vertices of the shared slices.
// Volume rendering of a bricked volume ray casts a copy subsampled to fit one texture.
//
// Contract: internal to the engine (SceneRenderer is the facade); needs the same OpenGL
// context current for every call. Isovalues are in real units here (each brick maps them to
// its stored units).
#pragma once

#include "extraction/brick_plan.h"
#include "extraction/iso_mesh.h"
#include "extraction/plane_maxima.h"
#include "extraction/voxel_box.h"
#include "gpu/gpu_info.h"
#include "gpu/isosurface_extractor.h"
#include "volume/volume.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace isoview::gpu {

class GpuVolume;

class SurfaceBricks {
public:
    explicit SurfaceBricks(const IsosurfaceExtractor::Options& options);
    ~SurfaceBricks();
    SurfaceBricks(const SurfaceBricks&) = delete;
    SurfaceBricks& operator=(const SurfaceBricks&) = delete;

    const GlCapabilities& capabilities() const { return m_primary.capabilities(); }

    // Plans the bricks for textures of at most maxTextureSize texels a side and uploads them.
    // Throws GlError naming the limit when the volume cannot be placed; the previous volume
    // stays then.
    void setVolume(const Volume& volume, std::uint32_t maxTextureSize);
    // A time point of a series: another volume on the held one's grid, of its type, in one
    // brick. Its values replace the held one's (IsosurfaceExtractor::setValues: the pyramid,
    // crop and mesh buffers stay). The volume held so far stays on the GPU as a resident time
    // point while the residents take at most residentBytes in all, so stepping back to it
    // uploads nothing; beyond that it is dropped and uploaded again when shown again
    // (streaming). Any other volume goes through setVolume (and drops the residents).
    // Throws like setVolume; the held volume stays then.
    // sameSeries false: the first time point of another series (placed as setVolume does, the
    // residents dropped).
    void setTimePoint(std::shared_ptr<const Volume> volume, bool sameSeries,
                      std::uint32_t maxTextureSize, std::uint64_t residentBytes);
    // Time points kept on the GPU besides the one shown, and their texture bytes.
    std::size_t residentCount() const { return m_resident.size(); }
    std::uint64_t residentBytes() const;
    // Whether that volume is a resident time point (setTimePoint would upload nothing).
    bool isResident(const std::shared_ptr<const Volume>& volume) const;
    // How the last setTimePoint took its volume: from a resident texture (no upload).
    bool lastTimePointWasResident() const { return m_lastWasResident; }
    bool hasVolume() const { return !m_bricks.empty(); }
    std::size_t brickCount() const { return m_bricks.size(); }
    // The volume the ray caster samples: the volume itself with one brick, else the
    // subsampled copy. Only valid while hasVolume().
    const GpuVolume& raycastVolume() const;
    // A real isovalue in the volume's stored units.
    StoredValue toStored(double real) const;

    // Voxel indices of the whole volume; throws Error when the box does not lie in it.
    void setCrop(const VoxelBox& box);
    VoxelBox crop() const { return m_crop; }
    // The crop box's faces (PlaneMaxima's bits) where the surface at this real isovalue may be
    // open: a voxel on the face may be inside (extraction/plane_maxima.h; conservative for
    // crops). All of them without a volume.
    unsigned openCropFaces(double realIsovalue) const;

    void extract(double realIsovalue);
    void draw(const SurfaceDrawParams& params);
    // Whether the last draw() may lack a brick's mesh (IsosurfaceExtractor::lastDrawUnconfirmed).
    bool drawUnconfirmed() const;
    // Why the last extract is not (wholly) drawn: the first failing brick's meshError, or nullopt.
    std::optional<std::string> meshError() const;
    // The most the bricks' mesh buffers may take together (0: no limit but the driver's),
    // shared evenly between the bricks of this and later volumes.
    void setMeshByteLimit(std::uint64_t bytes);
    std::uint32_t vertexCount();
    std::optional<std::uint32_t> pollVertexCount() const;
    IsoMesh capture();
    // The one brick's mesh buffers (IsosurfaceExtractor::meshBuffers), nullopt for a bricked
    // volume, whose bricks' meshes are merged on the CPU (capture()).
    std::optional<IsosurfaceExtractor::MeshBuffers> singleBrickMeshBuffers();
    GpuMemoryUse memoryUse() const;

private:
    struct Brick;
    void placeVolume(const Volume& volume, std::uint32_t maxTextureSize);
    IsosurfaceExtractor m_primary; // the first brick's (kept across volumes: no recompiles)
    IsosurfaceExtractor::Options m_options;
    std::vector<std::unique_ptr<Brick>> m_bricks;
    std::unique_ptr<GpuVolume> m_raycastVolume; // bricked volumes only
    glm::uvec3 m_dims{0};
    VoxelBox m_crop;
    std::uint64_t m_meshByteLimit = 0; // setMeshByteLimit's, for all bricks
    void applyMeshByteLimit();
    PlaneMaxima m_planeMaxima; // of the whole volume, in stored units
    // A time point on the GPU that is not shown (setTimePoint): its volume (held, so that its
    // address names it while it is here), texture and plane maxima.
    struct Resident {
        std::shared_ptr<const Volume> volume;
        std::unique_ptr<GpuVolume> gpu;
        PlaneMaxima planeMaxima;
    };
    std::vector<Resident> m_resident;
    std::shared_ptr<const Volume> m_timePoint; // the shown one, when setTimePoint gave it
    bool m_lastWasResident = false;
};

} // namespace isoview::gpu
