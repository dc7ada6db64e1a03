// The isosurfaces of the scene that are not being dragged: each one's welded mesh kept in its
// own GPU buffers (exact size) once extracted, and drawn from there every frame, so that moving
// the live surface through the pyramid never re-extracts them. StoredSurfaceMesh is one such
// copy; StoredSurfaceProgram draws copies with the extractor's own shaders (isosurface.vert
// maps index space to physical space per slice, so tilted and unevenly spaced stacks stay
// right; isosurface.frag shades, opaque or into the transparency accumulation).
//
// Contract: internal to the engine (SceneRenderer is the facade); every call, the constructors
// and the destructors need the creating OpenGL context current. Bindings are restored.
#pragma once

#include "extraction/iso_mesh.h"
#include "extraction/label_surface.h"
#include "gpu/gl_objects.h"
#include "gpu/isosurface_extractor.h"
#include "gpu/shader_defines.h"
#include "gpu/shader_program.h"
#include "gpu/surface_buffers.h"
#include "gpu/surface_programs.h"
#include "volume/volume.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace isoview::gpu {

class StoredSurfaceMesh {
public:
    StoredSurfaceMesh();

    // Replaces the copy with this mesh (positions in the volume's index space). Throws
    // GpuMemoryError when the driver is out of memory for it, GlError otherwise.
    void store(const IsoMesh& mesh);
    // Replaces the copy with every label's mesh, each vertex carrying its label as the
    // extractor's label-map vertices do (PackedSurfaceVertex::axis), for a label program.
    // Throws as store() does.
    void storeLabels(const std::vector<LabelSurface>& surfaces);
    // Replaces the copy with the extractor's mesh, copied buffer to buffer on the GPU (no
    // download, no wait). Throws as store() does.
    void copyFrom(const IsosurfaceExtractor::MeshBuffers& source);
    // Forgets the copy (no GPU memory kept).
    void clear();
    // The copy as a welded mesh, equal to the one stored. Waits for the GPU; throws GlError.
    IsoMesh download() const;

    std::uint32_t indexCount() const { return m_indexCount; }
    GLuint vertexArray() const { return m_vertexArray.id(); }
    std::size_t bytes() const;

private:
    void upload(const std::vector<PackedSurfaceVertex>& packed,
                const std::vector<std::uint32_t>& indices);

    Buffer m_vertices = Buffer::create();
    Buffer m_indices = Buffer::create();
    VertexArray m_vertexArray = VertexArray::create();
    std::uint32_t m_vertexCount = 0;
    std::uint32_t m_indexCount = 0;
};

class StoredSurfaceProgram {
public:
    // Compiles the programs for regular grids (those for measured slices wait for a volume
    // that has them). `caps`: the context's (on a software rasteriser the meshes are drawn in
    // flushed chunks, see drawIndexedTriangles). Throws ShaderError.
    // With `labels`, the programs draw meshes stored by storeLabels in each label's style.
    explicit StoredSurfaceProgram(const GlCapabilities& caps, bool labels = false);

    // The index -> physical map of the volume the meshes belong to (its slice origins uploaded
    // once here).
    void setVolume(glm::uvec3 dims, const VolumeGeometry& geometry);
    // Draws into the bound framebuffer with the caller's depth, cull and blend state. A label
    // program takes the styles texture (IsosurfaceExtractor::labelStylesTexture) and draws the
    // labels of params' pass (opacity 1: the opaque ones, else the translucent ones).
    void draw(const StoredSurfaceMesh& mesh, const SurfaceDrawParams& params,
              GLuint labelStyles = 0) const;
    // GPU memory of the slice origins.
    std::size_t bytes() const { return m_sliceOriginBytes; }

private:
    SurfacePrograms build(SliceGeometry slices) const;
    const SurfacePrograms& current() const { return *m_programs[std::size_t(m_slices)]; }

    bool m_drawInFlushedChunks; // on a software rasteriser (drawIndexedTriangles)
    bool m_labels;
    std::array<std::optional<SurfacePrograms>, 2> m_programs; // by SliceGeometry, built when needed
    SliceGeometry m_slices = SliceGeometry::Regular;          // the volume's
    Texture m_sliceOrigins = Texture::create();
    std::size_t m_sliceOriginBytes = 0;
};

} // namespace isoview::gpu
