// The GPU isosurface engine: marching cubes through a HistoPyramid (Dyken et al.), the same
// code for the viewer, the headless CLI, the benchmarks and the tests.
//
// Per isovalue: extract() rebuilds the triangle pyramid and its twin, the vertex pyramid, on the
// GPU, then computes the welded mesh: each crossed grid edge's vertex once (position and
// central-difference normal), and per triangle the indices of its three vertices (a rank query
// on the vertex pyramid). On OpenGL 4.3 these are compute passes sized on the GPU and draw() is
// an indexed indirect draw, so no count visits the CPU unless the mesh buffers might be too
// small (and a drag frame's first draw does not wait even then: withoutCountWait); on the 3.3
// floor they are transform-feedback passes run once the counts are read back.
// capture() copies the same mesh to the CPU.
//
// Contract: internal to the engine (SceneRenderer is the facade). Every call, the constructor and
// the destructor need the same OpenGL 3.3+ core context current on the calling thread.
// Isovalues are in the volume's STORED units (GpuVolume::toStored maps real units to them). The
// volume is borrowed: the GpuVolume given to setVolume must outlive its use here (until the next
// setVolume or the destructor). The per-frame calls (extract, draw) never throw: when the mesh
// buffers cannot grow to a surface (out of GPU memory), draw() draws nothing for that isovalue,
// logs why once and meshError() says it.
//
// Example:
//   HeadlessContext context;
//   IsosurfaceExtractor extractor;
//   GpuVolume gpuVolume(volume, extractor.capabilities().maxTextureSize);
//   extractor.setVolume(gpuVolume);
//   extractor.extract(gpuVolume.toStored(300.0));
//   IsoMesh mesh = extractor.capture();
#pragma once

#include "extraction/iso_mesh.h"
#include "extraction/label_surface.h"
#include "extraction/pyramid_layout.h"
#include "extraction/voxel_box.h"
#include "gpu/gl_loader.h"
#include "volume/stored_value.h"

#include <glm/glm.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace isoview::gpu {

class GpuVolume; // gpu/gpu_volume.h (kept out of this header: it pulls in epoxy)

struct SurfaceDrawParams {
    // projection * view: the camera over physical space (the engine maps the volume's index
    // space into physical space itself, per slice for tilted or unevenly spaced stacks)
    glm::mat4 physicalToClip{1.0f};
    glm::mat3 physicalToViewNormal{1.0f}; // rotates physical-space normals into view space
    glm::vec3 color{0.9f, 0.85f, 0.75f};
    // 1: opaque; less: the accumulation pass of weighted blended transparency (isosurface.frag
    // says what the caller's framebuffer and blending must be)
    float opacity = 1.0f;
    // Label maps: each label's colour and opacity come from setLabelStyles (color and opacity
    // above only choose the pass: opaque labels, or the translucent ones); every vertex is drawn
    // this far (mm) inside its own label, so two labels' coincident surfaces never fight in
    // depth: from either side the nearer label wins.
    float labelInsetMm = 0.0f;
    // A frame of an interactive drag: on a GPU (OpenGL 4.3 path), the first draw after an
    // extract goes from the GPU's own record, without the CPU waiting to read the counts back. The
    // record says 0 triangles when the mesh buffers were too small for the surface, so such a draw
    // may show nothing of it (lastDrawUnconfirmed); any later draw of the same extract waits and
    // draws it whole. Software rasterisers have the counts at no cost and always draw it whole.
    bool withoutCountWait = false;
};

// Appended to the engine's defines for isosurface.frag's translucent build.
inline constexpr const char* kTranslucentSurfaceDefine = "#define ISOVIEW_TRANSLUCENT 1\n";

class IsosurfaceExtractor {
public:
    struct Options {
        // Use only OpenGL 3.3 features even on a newer context (tests the floor).
        bool limitToGl33 = false;
        // A label-map extractor: extractLabels() makes every label's surface in one pass (the
        // isosurface at 0.5 of its indicator, as extractLabelSurfacesCpu does), and extract()
        // is refused. Its volumes must be unsigned integers (GpuVolume of a uint8/16/32 Volume).
        bool labels = false;
        // Draw as on a hardware GPU even on a software rasteriser: one indirect draw from the
        // record, not flushed chunks (tests that path on llvmpipe).
        bool gpuDrawPath = false;
    };

    // Compiles the pyramid programs. Throws GlError / ShaderError.
    IsosurfaceExtractor();
    explicit IsosurfaceExtractor(const Options& options);
    ~IsosurfaceExtractor();
    IsosurfaceExtractor(const IsosurfaceExtractor&) = delete;
    IsosurfaceExtractor& operator=(const IsosurfaceExtractor&) = delete;

    const GlCapabilities& capabilities() const;

    // Takes the volume (borrowed) and allocates its pyramid, replacing the previous one. Throws
    // GlError naming the limit when the pyramid exceeds GL_MAX_TEXTURE_SIZE, ShaderError when a
    // program for the volume's sampler type fails; the previous volume stays in place then.
    void setVolume(const GpuVolume& volume);
    // The same with a crop from the start (one pyramid allocation, not two); throws Error
    // when the box does not lie in the volume.
    void setVolume(const GpuVolume& volume, const VoxelBox& crop);
    // Another volume (borrowed) of the held one's dimensions, texture layout and sampler type
    // (a time point of a series): its values replace the held one's; the crop, the pyramid, the
    // mesh buffers and the programs' uniforms are kept, so nothing is allocated. Any other
    // volume goes through setVolume(volume, crop()). The next extract reads the new values.
    void setValues(const GpuVolume& volume);
    bool hasVolume() const;

    // Limits extraction to the cells inside the box (voxel indices, inclusive; the whole volume
    // after setVolume): a pyramid over those cells only, so a crop also makes frames faster.
    // Positions, edge keys and normals stay those of the whole volume. Throws Error when the box
    // does not lie in the volume, GlError when its pyramid cannot be allocated (the previous
    // crop stays then).
    void setCrop(const VoxelBox& box);
    VoxelBox crop() const;

    // Rebuilds the HistoPyramid for this isovalue (stored units). GPU work only, no wait.
    // Throws Error on a label-map extractor.
    void extract(StoredValue isovalue);
    StoredValue isovalue() const;

    // Label-map extractor only (else throws Error): rebuilds the pyramid for the surfaces of
    // every label at once, one mesh whose vertices carry their label (PackedSurfaceVertex).
    // Only blocks holding more than one label are visited. GPU work only, no wait.
    void extractLabels();
    bool extractsLabels() const;
    // How draw() shows each label: styles[label] is its RGBA (alpha 255: opaque, drawn in the
    // opaque pass; 1..254: translucent pass; 0: hidden); labels beyond the list are hidden.
    // A texture update, never an extraction. Label-map extractor only (else throws Error).
    void setLabelStyles(const std::vector<glm::u8vec4>& styles);
    // The texture setLabelStyles fills (0 before the first call), for meshes of the same label
    // map drawn elsewhere (StoredSurfaceProgram with labels).
    unsigned labelStylesTexture() const; // a GL texture name (no GL header here)

    // Triangle corners (3 per triangle) of the last extract. Waits for the GPU on first call
    // after an extract (cached afterwards).
    std::uint32_t vertexCount();
    // Welded vertices (distinct crossed edges) of the last extract; waits likewise.
    std::uint32_t weldedVertexCount();

    // The same count without waiting: nullopt while the GPU is still building the pyramid of
    // the last extract, never a count of an earlier one. For per-frame statistics.
    std::optional<std::uint32_t> pollVertexCount() const;

    // Draws the last extract into the bound framebuffer, with the caller's depth and cull state.
    // Never throws; nothing is drawn when the mesh does not fit in GPU memory (see meshError).
    void draw(const SurfaceDrawParams& params);
    // Whether the last draw() went without the counts (SurfaceDrawParams::withoutCountWait) and
    // may have shown nothing of a surface the mesh buffers could not hold: the caller draws the
    // frame again for the whole surface. Never waits: once the GPU has produced the counts (a
    // read-back of the frame has waited for them), it says whether the mesh fitted; until then,
    // true.
    bool lastDrawUnconfirmed() const;

    // Why the last extract's surface is not drawn: the GPU ran out of memory growing the mesh
    // buffers to its size (the message names the bytes); nullopt otherwise. Reset by extract().
    std::optional<std::string> meshError() const;
    // The most the mesh buffers may take (0: no limit but the driver's); beyond it a surface
    // fails as when the GPU runs out of memory (meshError). Kept across volumes.
    void setMeshByteLimit(std::uint64_t bytes);

    // The last extract as a welded mesh (positions in index space, normals physical): the
    // vertex and index buffers the draw uses, downloaded. Waits for the GPU. Throws
    // GpuMemoryError when the mesh buffers cannot grow to the mesh.
    IsoMesh capture();
    // The last extractLabels() as one mesh per label (ascending labels, those with triangles),
    // split from the mesh the draw uses. Waits for the GPU; throws as capture() does.
    std::vector<LabelSurface> captureLabels();

    // The buffers holding the last extract's whole mesh (PackedSurfaceVertex and uint32
    // indices, surface_buffers.h) and how much of them it fills, for a copy on the GPU. Reads
    // the counts back (waits) the first time after an extract; throws as capture() does.
    // Valid until the next extract.
    struct MeshBuffers {
        unsigned vertexBuffer = 0; // GL buffer names (GLuint)
        unsigned indexBuffer = 0;
        std::uint32_t vertexCount = 0;
        std::uint32_t indexCount = 0;
    };
    MeshBuffers meshBuffers();

    // GPU memory of the borrowed volume, of the pyramids and of the mesh buffers.
    GpuMemoryUse memoryUse() const;

    // For tests and debugging: the pyramid's layout (empty when the volume has no cells) and
    // the texels of one level of the triangle or the vertex pyramid after the last extract.
    // Waits for the GPU.
    PyramidLayout pyramidLayout() const;
    std::vector<glm::uvec4> readPyramidLevel(std::uint32_t level) const;
    std::vector<glm::uvec4> readVertexPyramidLevel(std::uint32_t level) const;

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

} // namespace isoview::gpu
