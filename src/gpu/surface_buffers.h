// The GPU-side welded mesh of one isovalue: a vertex buffer (position, normal and edge key per
// welded vertex) and an index buffer (3 per triangle), with the vertex array that draws them.
// The extraction passes write them; draw() renders them indexed; download() turns them into
// the IsoMesh that export writes, a copy rather than a weld.
//
// Capacity, the one place that decides how the mesh buffers grow and shrink: they grow (never
// shrink while a volume is loaded) to the counts asked for plus headroom, and ahead of an
// extract to what the isovalue before it produced, so dragging the isovalue rarely
// reallocates; a new volume or crop releases them. Growing discards the contents. The compute
// path's per-block index (BlockMeshIndex) grows with the active blocks and is released alike.
//
// Contract: internal to the engine; needs the creating context current. GL side effects of
// reserve(), reserveAhead() and download(): none visible (bindings restored).
#pragma once

#include "extraction/iso_mesh.h"
#include "gpu/gl_objects.h"
#include "gpu/texel_buffer_view.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace isoview::gpu {

// One welded vertex as the extraction writes it (iso_vertices.comp's PackedVertex, and the
// transform-feedback varyings of iso_vertices.vert in this order).
struct PackedSurfaceVertex {
    float position[3]; // index space
    float normal[3];   // physical space, unit
    std::uint32_t lowerVoxel;
    // Bits 0-1: the edge's axis. Above them a label map's vertex has its label (0: an unused
    // slot, shaders/common/label_cells.glsl); an isosurface's has 0.
    std::uint32_t axis;
};
static_assert(sizeof(PackedSurfaceVertex) == 32);

// The first `vertices` PackedSurfaceVertex of vertexBuffer and `indices` indices of indexBuffer
// as an IsoMesh (what both the extraction's buffers and a stored surface's hold). Waits for the
// GPU. Throws GlError (its message starting with `what`) when the GL fails, and when an index
// names a vertex beyond the mesh.
// With vertexLabels, each vertex's label goes there (PackedSurfaceVertex::axis).
IsoMesh downloadPackedMesh(GLuint vertexBuffer, GLuint indexBuffer, std::uint32_t vertices,
                           std::uint32_t indices, const char* what,
                           std::vector<std::uint32_t>* vertexLabels = nullptr);

// Draws the first `indexCount` indices of the bound element array buffer as triangles, with the
// bound program and vertex array. With `inFlushedChunks` (a software rasteriser), as up to 8
// draws of at least 16,384 triangles, each followed by glFlush: llvmpipe bins a draw on the
// calling thread and rasterises a flushed scene on its worker threads, so each chunk is
// rasterised while the next is binned instead of all of them after the last (blob 256^3, 250k
// triangles at 1280x720: render 21 -> 15 ms). Surfaces of millions of triangles fill
// llvmpipe's scenes and are flushed by it anyway.
void drawIndexedTriangles(std::uint32_t indexCount, bool inFlushedChunks);

class SurfaceBuffers {
public:
    SurfaceBuffers();

    // Makes room for at least this many vertices and indices; returns whether the buffers were
    // reallocated (their contents are then undefined). Throws GpuMemoryError (gl_loader.h) when
    // the driver is out of memory for them or they would pass the byte limit, GlError when the
    // driver rejects them otherwise; the buffers are then empty (capacity 0).
    bool reserve(std::uint32_t vertices, std::uint32_t indices);
    // reserve() before an extract's passes, for the counts an earlier isovalue produced (read
    // without a wait), so a surface that grows while the isovalue is dragged rarely needs a
    // second run. Never throws: a failure is logged and leaves the buffers empty; the exact
    // reserve() once the counts are known says why.
    void reserveAhead(std::uint32_t vertices, std::uint32_t indices);
    // Whether the buffers hold whatever `activeBlocks` blocks can produce (a cell makes at most
    // 15 triangle vertices and owns at most 12 edges; of a label map, 24 triangle vertices and
    // 12 edges of 2 slots), so that no count needs checking.
    bool holdsAnyOutcome(std::size_t activeBlocks, bool labels) const;
    // Forgets the storage (a new volume starts small again).
    void release();
    // The most both buffers may take together (0: no limit but the driver's). reserve() beyond
    // it fails as the driver running out of memory does (a memory budget, or a test's).
    void setByteLimit(std::uint64_t bytes) { m_byteLimit = bytes; }

    std::uint32_t vertexCapacity() const { return m_vertexCapacity; }
    std::uint32_t indexCapacity() const { return m_indexCapacity; }
    GLuint vertexBuffer() const { return m_vertices.id(); }
    GLuint indexBuffer() const { return m_indices.id(); }
    // Attribute 0 = position, 1 = normal, 2 = axis and label (uint), the index buffer as
    // element array.
    GLuint vertexArray() const { return m_vertexArray.id(); }

    // The first `vertices` vertices and `indices` indices as an IsoMesh. Waits for the GPU.
    IsoMesh download(std::uint32_t vertices, std::uint32_t indices,
                     std::vector<std::uint32_t>* vertexLabels = nullptr) const;

    std::size_t bytes() const;

private:
    Buffer m_vertices = Buffer::create();
    Buffer m_indices = Buffer::create();
    VertexArray m_vertexArray = VertexArray::create();
    std::uint32_t m_vertexCapacity = 0;
    std::uint32_t m_indexCapacity = 0;
    std::uint64_t m_byteLimit = 0;
};

// The compute path's index of the active blocks of an extract: per block where its mesh starts
// (block_starts.comp writes it) and its cells' first welded vertices (256 each; the vertex pass
// writes them, the index pass reads them). Part of the mesh buffers' memory.
class BlockMeshIndex {
public:
    // Room for `activeBlocks` blocks (at least one); grows only, release() shrinks. Throws
    // GpuMemoryError when the driver is out of memory for it, GlError when it rejects it
    // otherwise (also when its texel buffers are too small for the cells); the capacity is 0
    // then.
    void reserve(std::size_t activeBlocks);
    // Forgets the storage (a new volume or crop starts small again).
    void release();

    GLuint blockStarts() const { return m_blockStarts.id(); }
    GLuint cellFirstVertex() const { return m_cellFirstVertex.id(); }
    // The same as a buffer texture, which the index pass reads (units::kCellFirstVertex).
    GLuint cellFirstVertexTexels() const { return m_cellFirstVertexTexels.id(); }
    std::size_t bytes() const;

private:
    Buffer m_blockStarts = Buffer::create();
    Buffer m_cellFirstVertex = Buffer::create();
    TexelBufferView m_cellFirstVertexTexels;
    std::size_t m_capacity = 0; // blocks
};

} // namespace isoview::gpu
