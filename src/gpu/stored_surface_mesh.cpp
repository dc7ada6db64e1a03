#include "gpu/stored_surface_mesh.h"

#include "core/error.h"
#include "gpu/gl_loader.h"
#include "gpu/gl_state.h"
#include "gpu/shader_defines.h"
#include "gpu/surface_buffers.h"

#include <glm/gtc/type_ptr.hpp>

#include <array>
#include <limits>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace isoview::gpu {
namespace {

constexpr GLint kSliceOriginsUnit = 0;
constexpr GLint kLabelStylesUnit = 1;

PackedSurfaceVertex packed(const IsoMesh& mesh, std::size_t v, std::uint32_t label)
{
    PackedSurfaceVertex p;
    for (int c = 0; c < 3; ++c) {
        p.position[c] = mesh.positions[v][c];
        p.normal[c] = mesh.normals[v][c];
    }
    // Edge keys of volumes under 2^32 voxels, as the extractor's own buffers hold them.
    p.lowerVoxel = std::uint32_t(mesh.edgeKeys[v] / 3);
    p.axis = std::uint32_t(mesh.edgeKeys[v] % 3) | (label << 2);
    return p;
}

} // namespace

StoredSurfaceMesh::StoredSurfaceMesh()
{
    // The extractor's vertex layout, so the same vertex shader reads both.
    ScopedVertexArray vao(m_vertexArray.id());
    ScopedBufferBinding bind(GL_ARRAY_BUFFER, m_vertices.id());
    m_vertices.label("stored isosurface vertices");
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(PackedSurfaceVertex),
                          reinterpret_cast<const void*>(offsetof(PackedSurfaceVertex, position)));
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, sizeof(PackedSurfaceVertex),
                          reinterpret_cast<const void*>(offsetof(PackedSurfaceVertex, normal)));
    glEnableVertexAttribArray(2); // read by label programs only
    glVertexAttribIPointer(2, 1, GL_UNSIGNED_INT, sizeof(PackedSurfaceVertex),
                           reinterpret_cast<const void*>(offsetof(PackedSurfaceVertex, axis)));
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, m_indices.id());
    m_indices.label("stored isosurface indices");
}

void StoredSurfaceMesh::store(const IsoMesh& mesh)
{
    if (mesh.vertexCount() > std::numeric_limits<std::uint32_t>::max() ||
        mesh.indices.size() > std::numeric_limits<std::uint32_t>::max()) {
        throw GlError("a stored isosurface has more than 2^32 vertices or indices");
    }
    std::vector<PackedSurfaceVertex> vertices(mesh.vertexCount());
    for (std::size_t v = 0; v < vertices.size(); ++v)
        vertices[v] = packed(mesh, v, 0);
    upload(vertices, mesh.indices);
}

void StoredSurfaceMesh::storeLabels(const std::vector<LabelSurface>& surfaces)
{
    std::uint64_t vertexCount = 0;
    std::uint64_t indexCount = 0;
    for (const LabelSurface& s : surfaces) {
        vertexCount += s.mesh.vertexCount();
        indexCount += s.mesh.indices.size();
    }
    if (vertexCount > std::numeric_limits<std::uint32_t>::max() ||
        indexCount > std::numeric_limits<std::uint32_t>::max()) {
        throw GlError("stored label surfaces have more than 2^32 vertices or indices");
    }
    std::vector<PackedSurfaceVertex> vertices;
    std::vector<std::uint32_t> indices;
    vertices.reserve(vertexCount);
    indices.reserve(indexCount);
    for (const LabelSurface& s : surfaces) {
        const auto first = std::uint32_t(vertices.size());
        for (std::size_t v = 0; v < s.mesh.vertexCount(); ++v)
            vertices.push_back(packed(s.mesh, v, s.label));
        for (const std::uint32_t i : s.mesh.indices)
            indices.push_back(first + i);
    }
    upload(vertices, indices);
}

void StoredSurfaceMesh::upload(const std::vector<PackedSurfaceVertex>& packed,
                               const std::vector<std::uint32_t>& indices)
{
    {
        ScopedBufferBinding bind(GL_COPY_WRITE_BUFFER, m_vertices.id());
        glBufferData(GL_COPY_WRITE_BUFFER, GLsizeiptr(packed.size() * sizeof(PackedSurfaceVertex)),
                     packed.empty() ? nullptr : packed.data(), GL_STATIC_DRAW);
    }
    {
        // Through the copy target: the element array binding belongs to whichever VAO is bound.
        ScopedBufferBinding bind(GL_COPY_WRITE_BUFFER, m_indices.id());
        glBufferData(GL_COPY_WRITE_BUFFER, GLsizeiptr(indices.size() * sizeof(std::uint32_t)),
                     indices.empty() ? nullptr : indices.data(), GL_STATIC_DRAW);
    }
    const std::uint64_t bytes =
        packed.size() * sizeof(PackedSurfaceVertex) + indices.size() * sizeof(std::uint32_t);
    m_vertexCount = 0;
    m_indexCount = 0;
    throwOnGlAllocationError("a stored isosurface", bytes);
    m_vertexCount = std::uint32_t(packed.size());
    m_indexCount = std::uint32_t(indices.size());
}

void StoredSurfaceMesh::copyFrom(const IsosurfaceExtractor::MeshBuffers& source)
{
    const auto vertexBytes =
        GLsizeiptr(std::uint64_t(source.vertexCount) * sizeof(PackedSurfaceVertex));
    const auto indexBytes = GLsizeiptr(std::uint64_t(source.indexCount) * sizeof(std::uint32_t));
    m_vertexCount = 0;
    m_indexCount = 0;
    // Exact-size storage first (an allocation error leaves the copy empty), then the copies.
    for (const auto& [id, bytes] :
         {std::pair{m_vertices.id(), vertexBytes}, std::pair{m_indices.id(), indexBytes}}) {
        ScopedBufferBinding bind(GL_COPY_WRITE_BUFFER, id);
        glBufferData(GL_COPY_WRITE_BUFFER, bytes, nullptr, GL_STATIC_DRAW);
    }
    throwOnGlAllocationError("a stored isosurface", std::uint64_t(vertexBytes + indexBytes));
    for (const auto& [from, to, bytes] :
         {std::tuple{source.vertexBuffer, m_vertices.id(), vertexBytes},
          std::tuple{source.indexBuffer, m_indices.id(), indexBytes}}) {
        if (bytes == 0) continue;
        ScopedBufferBinding read(GL_COPY_READ_BUFFER, from);
        ScopedBufferBinding write(GL_COPY_WRITE_BUFFER, to);
        glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 0, 0, bytes);
    }
    throwOnGlError("copying an isosurface into its stored buffers");
    m_vertexCount = source.vertexCount;
    m_indexCount = source.indexCount;
}

void StoredSurfaceMesh::clear()
{
    for (GLuint id : {m_vertices.id(), m_indices.id()}) {
        ScopedBufferBinding bind(GL_COPY_WRITE_BUFFER, id);
        glBufferData(GL_COPY_WRITE_BUFFER, 0, nullptr, GL_STATIC_DRAW);
    }
    m_vertexCount = 0;
    m_indexCount = 0;
}

IsoMesh StoredSurfaceMesh::download() const
{
    if (m_indexCount == 0) return {};
    return downloadPackedMesh(m_vertices.id(), m_indices.id(), m_vertexCount, m_indexCount,
                              "downloading a stored isosurface");
}

std::size_t StoredSurfaceMesh::bytes() const
{
    return std::size_t(m_vertexCount) * sizeof(PackedSurfaceVertex) +
           std::size_t(m_indexCount) * sizeof(std::uint32_t);
}

SurfacePrograms StoredSurfaceProgram::build(SliceGeometry slices) const
{
    const std::string defines =
        engineShaderDefines(SamplerKind::Unsigned, m_labels) + sliceGeometryDefine(slices);
    SurfacePrograms programs =
        buildSurfacePrograms(m_labels ? "stored label surfaces" : "stored isosurface", defines);
    for (const ShaderProgram* program : {&programs.opaque, &programs.translucent}) {
        program->setSamplerUnit("u_sliceOrigins", kSliceOriginsUnit);
        if (m_labels) program->setSamplerUnit("u_labelStyles", kLabelStylesUnit);
    }
    return programs;
}

StoredSurfaceProgram::StoredSurfaceProgram(const GlCapabilities& caps, bool labels)
    : m_drawInFlushedChunks(caps.softwareRasterizer), m_labels(labels)
{
    m_programs[std::size_t(SliceGeometry::Regular)].emplace(build(SliceGeometry::Regular));
    ScopedTextureBinding bind(m_sliceOrigins.id());
    m_sliceOrigins.label("stored isosurface slice origins");
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, 0);
}

void StoredSurfaceProgram::setVolume(glm::uvec3 dims, const VolumeGeometry& geometry)
{
    std::vector<glm::vec4> texels;
    texels.reserve(geometry.sliceOrigins.size());
    for (const glm::dvec3& o : geometry.sliceOrigins)
        texels.emplace_back(glm::vec3(o), 1.0f);
    if (texels.empty()) texels.emplace_back(0.0f);
    {
        ScopedTextureBinding bind(m_sliceOrigins.id());
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA32F, GLsizei(texels.size()), 1, 0, GL_RGBA, GL_FLOAT,
                     texels.data());
    }
    m_sliceOriginBytes = texels.size() * sizeof(glm::vec4);

    const SliceGeometry slices =
        geometry.hasSliceOrigins() ? SliceGeometry::Measured : SliceGeometry::Regular;
    auto& programs = m_programs[std::size_t(slices)];
    if (!programs) programs.emplace(build(slices));
    m_slices = slices;
    const glm::mat4 indexToPhysical(geometry.indexToPhysical());
    for (const ShaderProgram* program : {&programs->opaque, &programs->translucent}) {
        ScopedProgram use(program->id());
        glUniform3i(program->uniform("u_volumeDims"), GLint(dims.x), GLint(dims.y), GLint(dims.z));
        glUniformMatrix4fv(program->uniform("u_indexToPhysical"), 1, GL_FALSE,
                           glm::value_ptr(indexToPhysical));
    }
}

void StoredSurfaceProgram::draw(const StoredSurfaceMesh& mesh, const SurfaceDrawParams& params,
                                GLuint labelStyles) const
{
    if (mesh.indexCount() == 0) return;
    const bool translucent = params.opacity < 1.0f;
    const ShaderProgram& program = translucent ? current().translucent : current().opaque;
    ScopedProgram use(program.id());
    ScopedVertexArray vao(mesh.vertexArray());
    ScopedTextureUnits<2> units({m_sliceOrigins.id(), labelStyles});
    glUniformMatrix4fv(program.uniform("u_physicalToClip"), 1, GL_FALSE,
                       glm::value_ptr(params.physicalToClip));
    glUniformMatrix3fv(program.uniform("u_physicalToViewNormal"), 1, GL_FALSE,
                       glm::value_ptr(params.physicalToViewNormal));
    glUniform3fv(program.uniform("u_surfaceColor"), 1, glm::value_ptr(params.color));
    if (translucent) glUniform1f(program.uniform("u_opacity"), params.opacity);
    if (m_labels) glUniform1f(program.uniform("u_labelInsetMm"), params.labelInsetMm);
    drawIndexedTriangles(mesh.indexCount(), m_drawInFlushedChunks);
}

} // namespace isoview::gpu
