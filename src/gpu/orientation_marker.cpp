#include "gpu/orientation_marker.h"

#include "gpu/gl_loader.h"
#include "gpu/gl_state.h"
#include "gpu/shader_defines.h"

#include <glm/gtc/constants.hpp>
#include <glm/gtc/type_ptr.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <vector>

namespace isoview::gpu {
namespace {

// Arrow geometry in units of the arrow's length.
constexpr float kCubeHalf = 0.085f;
constexpr float kShaftRadius = 0.045f;
constexpr float kConeStart = 0.70f;
constexpr float kConeRadius = 0.11f;
constexpr int kSegments = 18;

const std::array<glm::vec3, 3> kAxisColors = {
    glm::vec3(0.92f, 0.30f, 0.28f), glm::vec3(0.35f, 0.80f, 0.35f), glm::vec3(0.35f, 0.52f, 0.98f)};
constexpr glm::vec3 kCubeColor{0.78f, 0.78f, 0.80f};

struct MarkerVertex {
    glm::vec3 position;
    glm::vec3 normal;
    glm::vec3 color;
};

class MarkerMesh {
public:
    std::vector<MarkerVertex> vertices;

    void triangle(const MarkerVertex& a, const MarkerVertex& b, const MarkerVertex& c)
    {
        vertices.insert(vertices.end(), {a, b, c});
    }

    // An arrow along `axis`: (along, across1, across2) is a cyclic permutation of (x, y, z), so
    // every arrow has the same handedness.
    void arrow(int axis, glm::vec3 color)
    {
        const auto toModel = [axis](float along, float a, float b) {
            glm::vec3 p(0.0f);
            p[axis] = along;
            p[(axis + 1) % 3] = a;
            p[(axis + 2) % 3] = b;
            return p;
        };
        const float coneLength = 1.0f - kConeStart;
        const float slope = kConeRadius / coneLength; // cone normals lean toward the tip
        for (int s = 0; s < kSegments; ++s) {
            const float a0 = glm::two_pi<float>() * float(s) / float(kSegments);
            const float a1 = glm::two_pi<float>() * float(s + 1) / float(kSegments);
            const glm::vec2 d0(std::cos(a0), std::sin(a0));
            const glm::vec2 d1(std::cos(a1), std::sin(a1));
            const glm::vec3 n0 = toModel(0.0f, d0.x, d0.y);
            const glm::vec3 n1 = toModel(0.0f, d1.x, d1.y);
            // Shaft: a cylinder from the cube's face to the cone.
            const MarkerVertex s00{toModel(kCubeHalf, kShaftRadius * d0.x, kShaftRadius * d0.y), n0,
                                   color};
            const MarkerVertex s01{toModel(kCubeHalf, kShaftRadius * d1.x, kShaftRadius * d1.y), n1,
                                   color};
            const MarkerVertex s10{toModel(kConeStart, kShaftRadius * d0.x, kShaftRadius * d0.y),
                                   n0, color};
            const MarkerVertex s11{toModel(kConeStart, kShaftRadius * d1.x, kShaftRadius * d1.y),
                                   n1, color};
            triangle(s00, s01, s11);
            triangle(s00, s11, s10);
            // Cone side.
            const glm::vec3 axisDir = toModel(1.0f, 0.0f, 0.0f);
            const glm::vec3 c0n = glm::normalize(n0 + slope * axisDir);
            const glm::vec3 c1n = glm::normalize(n1 + slope * axisDir);
            const glm::vec3 tipN = glm::normalize(c0n + c1n);
            triangle({toModel(kConeStart, kConeRadius * d0.x, kConeRadius * d0.y), c0n, color},
                     {toModel(kConeStart, kConeRadius * d1.x, kConeRadius * d1.y), c1n, color},
                     {toModel(1.0f, 0.0f, 0.0f), tipN, color});
            // Cone base, facing back along the axis.
            const glm::vec3 back = -axisDir;
            triangle({toModel(kConeStart, 0.0f, 0.0f), back, color},
                     {toModel(kConeStart, kConeRadius * d1.x, kConeRadius * d1.y), back, color},
                     {toModel(kConeStart, kConeRadius * d0.x, kConeRadius * d0.y), back, color});
        }
    }

    void cube(float half, glm::vec3 color)
    {
        for (int axis = 0; axis < 3; ++axis) {
            for (float side : {-1.0f, 1.0f}) {
                glm::vec3 n(0.0f);
                n[axis] = side;
                const auto corner = [&](float a, float b) {
                    glm::vec3 p(0.0f);
                    p[axis] = side * half;
                    p[(axis + 1) % 3] = a * half;
                    p[(axis + 2) % 3] = b * half;
                    return MarkerVertex{p, n, color};
                };
                triangle(corner(-1, -1), corner(1, -1), corner(1, 1));
                triangle(corner(-1, -1), corner(1, 1), corner(-1, 1));
            }
        }
    }
};

} // namespace

OrientationMarker::OrientationMarker()
    : m_program("orientation marker",
                {{GL_VERTEX_SHADER, "orientation_marker.vert"},
                 {GL_FRAGMENT_SHADER, "orientation_marker.frag"}},
                engineShaderDefines(SamplerKind::Unsigned))
{
    MarkerMesh mesh;
    mesh.cube(kCubeHalf, kCubeColor);
    for (int axis = 0; axis < 3; ++axis)
        mesh.arrow(axis, kAxisColors[std::size_t(axis)]);
    m_vertexCount = GLsizei(mesh.vertices.size());

    ScopedVertexArray vao(m_vertexArray.id());
    ScopedBufferBinding vertices(GL_ARRAY_BUFFER, m_vertices.id());
    m_vertices.label("orientation marker");
    glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(mesh.vertices.size() * sizeof(MarkerVertex)),
                 mesh.vertices.data(), GL_STATIC_DRAW);
    const auto attribute = [](GLuint location, std::size_t offset) {
        glEnableVertexAttribArray(location);
        glVertexAttribPointer(location, 3, GL_FLOAT, GL_FALSE, GLsizei(sizeof(MarkerVertex)),
                              reinterpret_cast<const void*>(offset));
    };
    attribute(0, offsetof(MarkerVertex, position));
    attribute(1, offsetof(MarkerVertex, normal));
    attribute(2, offsetof(MarkerVertex, color));
    throwOnGlError("setting up the orientation marker");
}

void OrientationMarker::draw(const glm::mat4& view, glm::ivec2 viewportSize)
{
    const OrientationMarkerSquare square = orientationMarkerSquare(viewportSize);
    const GLint x = GLint(square.margin);
    const GLsizei size = GLsizei(square.side);

    ScopedViewport viewport(x, x, size, size);
    ScopedCapability scissorTest(GL_SCISSOR_TEST, true);
    ScopedScissor scissor(x, x, size, size);
    ScopedCapability depthTest(GL_DEPTH_TEST, true);
    ScopedDepthState depth(GL_LESS, true);
    ScopedCapability noBlend(GL_BLEND, false);
    ScopedCapability noCulling(GL_CULL_FACE, false);
    {
        ScopedClearValues clear({0.0f, 0.0f, 0.0f, 0.0f}, 1.0f);
        glClear(GL_DEPTH_BUFFER_BIT);
    }
    ScopedProgram use(m_program.id());
    ScopedVertexArray vao(m_vertexArray.id());
    const glm::mat3 rotation = viewRotation(view);
    glUniformMatrix3fv(m_program.uniform("u_rotation"), 1, GL_FALSE, glm::value_ptr(rotation));
    glUniform1f(m_program.uniform("u_scale"), kOrientationArrowReach);
    glDrawArrays(GL_TRIANGLES, 0, m_vertexCount);
}

} // namespace isoview::gpu
