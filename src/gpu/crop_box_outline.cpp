#include "gpu/crop_box_outline.h"

#include "gpu/gl_loader.h"
#include "gpu/gl_state.h"
#include "gpu/shader_defines.h"

#include <glm/gtc/type_ptr.hpp>

#include <array>
#include <cstddef>
#include <vector>

namespace isoview::gpu {
namespace {

struct OutlineVertex {
    glm::vec3 physical;
    glm::vec2 offsetPixels;
    float face;   // -1: an edge
    float border; // 1: a handle's dark rim
};

constexpr glm::vec3 kEdgeColor{1.0f, 0.78f, 0.2f};
constexpr glm::vec3 kHighlightColor{0.45f, 0.95f, 1.0f};
constexpr float kBorderPixels = 1.5f;

// Two triangles of a square `half` pixels from its centre each way.
void appendSquare(std::vector<OutlineVertex>& out, glm::vec3 centre, float half, float face,
                  float border)
{
    const std::array<glm::vec2, 6> corners = {glm::vec2(-1, -1), glm::vec2(1, -1),
                                              glm::vec2(1, 1),   glm::vec2(-1, -1),
                                              glm::vec2(1, 1),   glm::vec2(-1, 1)};
    for (glm::vec2 c : corners)
        out.push_back({centre, c * half, face, border});
}

} // namespace

CropBoxOutline::CropBoxOutline()
    : m_program("crop box outline",
                {{GL_VERTEX_SHADER, "crop_box_outline.vert"},
                 {GL_FRAGMENT_SHADER, "crop_box_outline.frag"}},
                engineShaderDefines(SamplerKind::Unsigned))
{
    ScopedVertexArray vao(m_vertexArray.id());
    ScopedBufferBinding vertices(GL_ARRAY_BUFFER, m_vertices.id());
    m_vertices.label("crop box outline");
    const auto attribute = [](GLuint location, GLint size, std::size_t offset) {
        glEnableVertexAttribArray(location);
        glVertexAttribPointer(location, size, GL_FLOAT, GL_FALSE, GLsizei(sizeof(OutlineVertex)),
                              reinterpret_cast<const void*>(offset));
    };
    attribute(0, 3, offsetof(OutlineVertex, physical));
    attribute(1, 2, offsetof(OutlineVertex, offsetPixels));
    attribute(2, 1, offsetof(OutlineVertex, face));
    attribute(3, 1, offsetof(OutlineVertex, border));
    throwOnGlError("setting up the crop box outline");
}

void CropBoxOutline::setGeometry(const VolumeGeometry& geometry)
{
    m_geometry = geometry;
    m_uploadedBox.reset();
}

void CropBoxOutline::upload(const VoxelBox& box)
{
    std::vector<OutlineVertex> vertices;
    for (const glm::vec3& p : cropBoxEdgeLines(box))
        vertices.push_back(
            {glm::vec3(m_geometry.toPhysical(glm::dvec3(p))), glm::vec2(0.0f), -1.0f, 0.0f});
    m_lineVertexCount = GLsizei(vertices.size());
    for (int face = 0; face < kCropBoxFaceCount; ++face) {
        const glm::vec3 centre(m_geometry.toPhysical(cropFaceCenter(box, face)));
        appendSquare(vertices, centre, kHandleHalfSizePixels + kBorderPixels, float(face), 1.0f);
        appendSquare(vertices, centre, kHandleHalfSizePixels, float(face), 0.0f);
    }
    m_handleVertexCount = GLsizei(vertices.size()) - m_lineVertexCount;
    ScopedBufferBinding bind(GL_ARRAY_BUFFER, m_vertices.id());
    glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(vertices.size() * sizeof(OutlineVertex)),
                 vertices.data(), GL_DYNAMIC_DRAW);
    m_uploadedBox = box;
}

void CropBoxOutline::draw(const VoxelBox& box, const glm::mat4& physicalToClip,
                          glm::ivec2 viewportSize, const CropBoxOverlay& overlay)
{
    if (!overlay.show || viewportSize.x <= 0 || viewportSize.y <= 0) return;
    if (m_uploadedBox != box) upload(box);

    ScopedCapability noDepthTest(GL_DEPTH_TEST, false);
    ScopedCapability noBlend(GL_BLEND, false);
    ScopedCapability noCulling(GL_CULL_FACE, false);
    ScopedProgram use(m_program.id());
    ScopedVertexArray vao(m_vertexArray.id());
    glUniformMatrix4fv(m_program.uniform("u_physicalToClip"), 1, GL_FALSE,
                       glm::value_ptr(physicalToClip));
    glUniform2f(m_program.uniform("u_viewportSize"), float(viewportSize.x), float(viewportSize.y));
    glUniform3fv(m_program.uniform("u_color"), 1, glm::value_ptr(kEdgeColor));
    glUniform3fv(m_program.uniform("u_highlightColor"), 1, glm::value_ptr(kHighlightColor));
    glUniform1i(m_program.uniform("u_highlightedFace"), overlay.highlightedFace);
    glDrawArrays(GL_LINES, 0, m_lineVertexCount);
    glDrawArrays(GL_TRIANGLES, m_lineVertexCount, m_handleVertexCount);
}

} // namespace isoview::gpu
