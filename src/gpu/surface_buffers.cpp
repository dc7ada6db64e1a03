#include "gpu/surface_buffers.h"

#include "core/error.h"
#include "core/log.h"
#include "gpu/gl_loader.h"
#include "gpu/gl_state.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace isoview::gpu {
namespace {

// Room for `needed` plus half again, so a growing surface reallocates a few times, not every
// frame; at least a small floor; capped at what a 32-bit count can name.
std::uint32_t grownCapacity(std::uint32_t needed, std::uint32_t floor)
{
    const std::uint64_t wanted = std::max<std::uint64_t>(floor, std::uint64_t(needed) * 3 / 2);
    return std::uint32_t(
        std::min<std::uint64_t>(wanted, std::numeric_limits<std::uint32_t>::max()));
}

// The most a block of 8 x 8 x 4 cells can produce.
constexpr std::size_t kCellsPerBlock = 8 * 8 * 4;
constexpr std::uint64_t kMaxIndicesPerBlock = 15ull * kCellsPerBlock;
constexpr std::uint64_t kMaxVerticesPerBlock = 12ull * kCellsPerBlock;
constexpr std::uint64_t kMaxLabelIndicesPerBlock = 24ull * kCellsPerBlock;
constexpr std::uint64_t kMaxLabelVerticesPerBlock = 2 * kMaxVerticesPerBlock;

} // namespace

SurfaceBuffers::SurfaceBuffers()
{
    m_vertices.label("isosurface vertices");
    m_indices.label("isosurface indices");
    ScopedVertexArray vao(m_vertexArray.id());
    ScopedBufferBinding bind(GL_ARRAY_BUFFER, m_vertices.id());
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(PackedSurfaceVertex),
                          reinterpret_cast<const void*>(offsetof(PackedSurfaceVertex, position)));
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, sizeof(PackedSurfaceVertex),
                          reinterpret_cast<const void*>(offsetof(PackedSurfaceVertex, normal)));
    // The axis and, for a label map, the label (isosurface.vert reads it only for label maps).
    glEnableVertexAttribArray(2);
    glVertexAttribIPointer(2, 1, GL_UNSIGNED_INT, sizeof(PackedSurfaceVertex),
                           reinterpret_cast<const void*>(offsetof(PackedSurfaceVertex, axis)));
    // The element array binding is vertex-array state: bound here once, kept by the VAO.
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, m_indices.id());
}

bool SurfaceBuffers::reserve(std::uint32_t vertices, std::uint32_t indices)
{
    if (vertices <= m_vertexCapacity && indices <= m_indexCapacity) return false;
    const auto bytesOf = [](std::uint32_t vertexCount, std::uint32_t indexCount) {
        return std::uint64_t(vertexCount) * sizeof(PackedSurfaceVertex) +
               std::uint64_t(indexCount) * sizeof(std::uint32_t);
    };
    std::uint32_t vertexCapacity =
        vertices <= m_vertexCapacity ? m_vertexCapacity : grownCapacity(vertices, 4096);
    std::uint32_t indexCapacity =
        indices <= m_indexCapacity ? m_indexCapacity : grownCapacity(indices, 3 * 8192);
    if (m_byteLimit != 0 && bytesOf(vertexCapacity, indexCapacity) > m_byteLimit) {
        // No room to grow ahead: exactly what is asked, if that fits.
        vertexCapacity = vertices;
        indexCapacity = indices;
        if (bytesOf(vertices, indices) > m_byteLimit) {
            release(); // as after the driver's out-of-memory below
            throw GpuMemoryError("the isosurface mesh buffers (" +
                                 formatBytes(bytesOf(vertices, indices)) + ") do not fit in the " +
                                 formatBytes(m_byteLimit) + " the GPU memory budget leaves them");
        }
    }
    const std::uint64_t bytes = bytesOf(vertexCapacity, indexCapacity);
    {
        ScopedBufferBinding bind(GL_ARRAY_BUFFER, m_vertices.id());
        glBufferData(GL_ARRAY_BUFFER,
                     GLsizeiptr(std::size_t(vertexCapacity) * sizeof(PackedSurfaceVertex)), nullptr,
                     GL_DYNAMIC_COPY);
    }
    {
        // Through the copy target: the element array binding belongs to whichever VAO is bound.
        ScopedBufferBinding bind(GL_COPY_WRITE_BUFFER, m_indices.id());
        glBufferData(GL_COPY_WRITE_BUFFER,
                     GLsizeiptr(std::size_t(indexCapacity) * sizeof(std::uint32_t)), nullptr,
                     GL_DYNAMIC_COPY);
    }
    try {
        throwOnGlAllocationError("the isosurface mesh buffers", bytes);
    } catch (const GlError&) {
        // Either store may be gone: empty both, so no pass writes past what is there.
        release();
        throw;
    }
    m_vertexCapacity = vertexCapacity;
    m_indexCapacity = indexCapacity;
    return true;
}

void SurfaceBuffers::reserveAhead(std::uint32_t vertices, std::uint32_t indices)
{
    try {
        reserve(vertices, indices);
    } catch (const GlError& e) {
        // The buffers are empty now; the draw grows them to the exact counts or says why not.
        log::get("engine")->warn("sizing the mesh buffers ahead failed: {}", e.what());
    }
}

bool SurfaceBuffers::holdsAnyOutcome(std::size_t activeBlocks, bool labels) const
{
    const std::uint64_t blocks = activeBlocks;
    return blocks * (labels ? kMaxLabelIndicesPerBlock : kMaxIndicesPerBlock) <= m_indexCapacity &&
           blocks * (labels ? kMaxLabelVerticesPerBlock : kMaxVerticesPerBlock) <= m_vertexCapacity;
}

void SurfaceBuffers::release()
{
    for (GLuint id : {m_vertices.id(), m_indices.id()}) {
        ScopedBufferBinding bind(GL_COPY_WRITE_BUFFER, id);
        glBufferData(GL_COPY_WRITE_BUFFER, 0, nullptr, GL_DYNAMIC_COPY);
    }
    m_vertexCapacity = 0;
    m_indexCapacity = 0;
}

void drawIndexedTriangles(std::uint32_t indexCount, bool inFlushedChunks)
{
    constexpr std::uint32_t kMaxChunks = 8;
    constexpr std::uint32_t kMinChunkTriangles = 16384;
    const std::uint32_t triangles = indexCount / 3;
    if (triangles == 0) return;
    const std::uint32_t chunks =
        inFlushedChunks
            ? std::clamp((triangles + kMinChunkTriangles - 1) / kMinChunkTriangles, 1u, kMaxChunks)
            : 1u;
    const std::uint32_t perChunk = 3 * ((triangles + chunks - 1) / chunks); // >= 3
    const std::uint32_t end = 3 * triangles;
    for (std::uint32_t first = 0; first < end; first += perChunk) {
        const std::uint32_t count = std::min(perChunk, end - first);
        glDrawElements(
            GL_TRIANGLES, GLsizei(count), GL_UNSIGNED_INT,
            reinterpret_cast<const void*>(std::uintptr_t(first) * sizeof(std::uint32_t)));
        if (chunks > 1) glFlush();
    }
}

IsoMesh downloadPackedMesh(GLuint vertexBuffer, GLuint indexBuffer, std::uint32_t vertices,
                           std::uint32_t indices, const char* what,
                           std::vector<std::uint32_t>* vertexLabels)
{
    std::vector<PackedSurfaceVertex> packed(vertices);
    IsoMesh mesh;
    mesh.indices.resize(indices);
    {
        ScopedBufferBinding read(GL_COPY_READ_BUFFER, vertexBuffer);
        glGetBufferSubData(GL_COPY_READ_BUFFER, 0,
                           GLsizeiptr(packed.size() * sizeof(PackedSurfaceVertex)), packed.data());
    }
    {
        ScopedBufferBinding read(GL_COPY_READ_BUFFER, indexBuffer);
        glGetBufferSubData(GL_COPY_READ_BUFFER, 0,
                           GLsizeiptr(mesh.indices.size() * sizeof(std::uint32_t)),
                           mesh.indices.data());
    }
    throwOnGlError(what);
    mesh.positions.reserve(vertices);
    mesh.normals.reserve(vertices);
    mesh.edgeKeys.reserve(vertices);
    for (const PackedSurfaceVertex& v : packed) {
        mesh.positions.emplace_back(v.position[0], v.position[1], v.position[2]);
        mesh.normals.emplace_back(v.normal[0], v.normal[1], v.normal[2]);
        mesh.edgeKeys.push_back(makeEdgeKey(v.lowerVoxel, int(v.axis & 3u)));
    }
    if (vertexLabels != nullptr) {
        vertexLabels->clear();
        vertexLabels->reserve(vertices);
        for (const PackedSurfaceVertex& v : packed)
            vertexLabels->push_back(v.axis >> 2);
    }
    for (std::uint32_t index : mesh.indices) {
        if (index >= vertices) throw GlError("the GPU wrote a vertex index beyond the mesh");
    }
    return mesh;
}

IsoMesh SurfaceBuffers::download(std::uint32_t vertices, std::uint32_t indices,
                                 std::vector<std::uint32_t>* vertexLabels) const
{
    if (vertices > m_vertexCapacity || indices > m_indexCapacity) {
        throw GlError("the isosurface mesh buffers are smaller than the mesh");
    }
    return downloadPackedMesh(m_vertices.id(), m_indices.id(), vertices, indices,
                              "downloading the isosurface", vertexLabels);
}

std::size_t SurfaceBuffers::bytes() const
{
    return std::size_t(m_vertexCapacity) * sizeof(PackedSurfaceVertex) +
           std::size_t(m_indexCapacity) * sizeof(std::uint32_t);
}

void BlockMeshIndex::reserve(std::size_t activeBlocks)
{
    const std::size_t blocks = std::max<std::size_t>(activeBlocks, 1);
    if (blocks <= m_capacity) return;
    m_capacity = 0;
    const std::size_t cellBytes = blocks * kCellsPerBlock * sizeof(std::uint32_t);
    const std::size_t startBytes = blocks * 4 * sizeof(std::uint32_t);
    {
        ScopedBufferBinding bind(GL_SHADER_STORAGE_BUFFER, m_cellFirstVertex.id());
        m_cellFirstVertex.label("first welded vertex per cell of the active blocks");
        glBufferData(GL_SHADER_STORAGE_BUFFER, GLsizeiptr(cellBytes), nullptr, GL_DYNAMIC_COPY);
    }
    {
        ScopedBufferBinding bind(GL_SHADER_STORAGE_BUFFER, m_blockStarts.id());
        m_blockStarts.label("mesh start and size per active block");
        glBufferData(GL_SHADER_STORAGE_BUFFER, GLsizeiptr(startBytes), nullptr, GL_DYNAMIC_COPY);
    }
    throwOnGlAllocationError("the isosurface mesh buffers' per-block index",
                             cellBytes + startBytes);
    m_cellFirstVertexTexels.attach(m_cellFirstVertex.id(), GL_R32UI, blocks * kCellsPerBlock,
                                   "first welded vertex per cell of the active blocks");
    m_capacity = blocks;
}

void BlockMeshIndex::release()
{
    if (m_capacity == 0) return;
    m_blockStarts = Buffer::create();
    m_cellFirstVertexTexels.release();
    m_cellFirstVertex = Buffer::create();
    m_capacity = 0;
}

std::size_t BlockMeshIndex::bytes() const
{
    return m_capacity * (kCellsPerBlock + 4) * sizeof(std::uint32_t);
}

} // namespace isoview::gpu
