// drawIndexedTriangles in flushed chunks (what software rasterisers get) draws every triangle
// once, chunk boundaries included, and the very image of one draw: a mesh of 50,001 triangles
// (four chunks, the last one shorter) with varying normals, each triangle counted by
// GL_PRIMITIVES_GENERATED and the two images compared pixel for pixel; and fewer indices than a
// triangle draw nothing.
#include "extraction/iso_mesh.h"
#include "gpu/gl_objects.h"
#include "gpu/gl_state.h"
#include "gpu/offscreen_target.h"
#include "gpu/shader_defines.h"
#include "gpu/shader_program.h"
#include "gpu/stored_surface_mesh.h"
#include "gpu/surface_buffers.h"
#include "support/gl_test_context.h"

#include <epoxy/gl.h>
#include <glm/glm.hpp>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/type_ptr.hpp>

#include <cmath>
#include <cstdint>
#include <vector>

namespace isoview::test {
namespace {

constexpr int kQuads = 158; // a side: 2 x 158^2 = 49,928 triangles of a sheet
constexpr int kExtra = 73;  // and 73 small ones along its top: 50,001 in all
constexpr int kImageSize = 240;

// A sheet in the index-space square [0, kQuads]^2 at z = 0, its normals tilting with x and y,
// and a row of small triangles along its top edge.
IsoMesh chunkedSheet()
{
    IsoMesh mesh;
    const auto add = [&](glm::vec3 p) {
        mesh.positions.push_back(p);
        mesh.normals.push_back(
            glm::normalize(glm::vec3(std::sin(0.11f * p.x), std::cos(0.07f * p.y), 1.5f)));
        mesh.edgeKeys.push_back(makeEdgeKey(mesh.positions.size(), 0));
        return std::uint32_t(mesh.positions.size() - 1);
    };
    std::vector<std::uint32_t> grid;
    for (int y = 0; y <= kQuads; ++y)
        for (int x = 0; x <= kQuads; ++x)
            grid.push_back(add(glm::vec3(x, y, 0.0f)));
    const auto at = [&](int x, int y) { return grid[std::size_t(y) * (kQuads + 1) + x]; };
    for (int y = 0; y < kQuads; ++y) {
        for (int x = 0; x < kQuads; ++x) {
            mesh.indices.insert(mesh.indices.end(), {at(x, y), at(x + 1, y), at(x + 1, y + 1)});
            mesh.indices.insert(mesh.indices.end(), {at(x, y), at(x + 1, y + 1), at(x, y + 1)});
        }
    }
    for (int i = 0; i < kExtra; ++i) {
        const float x = 2.0f * float(i);
        const std::uint32_t a = add({x, float(kQuads) + 0.5f, 0.0f});
        const std::uint32_t b = add({x + 1.5f, float(kQuads) + 0.5f, 0.0f});
        const std::uint32_t c = add({x + 0.75f, float(kQuads) + 1.8f, 0.0f});
        mesh.indices.insert(mesh.indices.end(), {a, b, c});
    }
    return mesh;
}

struct Drawn {
    std::vector<std::uint8_t> rgba;
    GLuint triangles = 0;
};

class SurfaceDrawChunksTest : public GlTest {};

TEST_F(SurfaceDrawChunksTest, ChunksDrawEveryTriangleOnceAndTheImageOfOneDraw)
{
    const IsoMesh mesh = chunkedSheet();
    ASSERT_EQ(mesh.triangleCount(), 50001u);
    gpu::StoredSurfaceMesh stored;
    stored.store(mesh);
    const std::string defines = gpu::engineShaderDefines(gpu::SamplerKind::Unsigned) +
                                gpu::sliceGeometryDefine(gpu::SliceGeometry::Regular);
    gpu::ShaderProgram program(
        "chunked sheet",
        {{GL_VERTEX_SHADER, "isosurface.vert"}, {GL_FRAGMENT_SHADER, "isosurface.frag"}}, defines);
    {
        gpu::ScopedProgram use(program.id());
        const glm::mat4 identity(1.0f);
        const glm::mat4 toClip =
            glm::ortho(-1.0f, float(kQuads) + 1.0f, -1.0f, float(kQuads) + 3.0f, -1.0f, 1.0f);
        const glm::mat3 normalToView(1.0f);
        glUniform3i(program.uniform("u_volumeDims"), kQuads + 1, kQuads + 3, 1);
        glUniformMatrix4fv(program.uniform("u_indexToPhysical"), 1, GL_FALSE,
                           glm::value_ptr(identity));
        glUniformMatrix4fv(program.uniform("u_physicalToClip"), 1, GL_FALSE,
                           glm::value_ptr(toClip));
        glUniformMatrix3fv(program.uniform("u_physicalToViewNormal"), 1, GL_FALSE,
                           glm::value_ptr(normalToView));
        glUniform3f(program.uniform("u_surfaceColor"), 0.9f, 0.7f, 0.5f);
    }

    const auto draw = [&](bool inChunks) {
        gpu::OffscreenTarget target(kImageSize, kImageSize);
        target.bind();
        glClearColor(0.0f, 0.0f, 0.0f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
        gpu::Query generated = gpu::Query::create();
        gpu::ScopedProgram use(program.id());
        gpu::ScopedVertexArray vao(stored.vertexArray());
        glBeginQuery(GL_PRIMITIVES_GENERATED, generated.id());
        gpu::drawIndexedTriangles(stored.indexCount(), inChunks);
        glEndQuery(GL_PRIMITIVES_GENERATED);
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
        Drawn drawn;
        drawn.rgba = target.readPixels();
        glGetQueryObjectuiv(generated.id(), GL_QUERY_RESULT, &drawn.triangles);
        return drawn;
    };
    const Drawn whole = draw(false);
    const Drawn chunked = draw(true);
    EXPECT_EQ(glGetError(), GLenum(GL_NO_ERROR));
    EXPECT_EQ(whole.triangles, 50001u);
    EXPECT_EQ(chunked.triangles, 50001u) << "a triangle lost or drawn twice at a chunk boundary";
    std::size_t lit = 0;
    for (std::size_t i = 0; i < whole.rgba.size(); i += 4)
        lit += whole.rgba[i] > 0;
    EXPECT_GT(lit, std::size_t(kImageSize * kImageSize) * 9 / 10) << "the sheet fills the image";
    EXPECT_TRUE(whole.rgba == chunked.rgba) << "the chunked draw's image differs";

    // Fewer indices than a triangle draw nothing (and return).
    for (std::uint32_t indices : {0u, 1u, 2u}) {
        gpu::ScopedProgram use(program.id());
        gpu::ScopedVertexArray vao(stored.vertexArray());
        gpu::Query generated = gpu::Query::create();
        glBeginQuery(GL_PRIMITIVES_GENERATED, generated.id());
        gpu::drawIndexedTriangles(indices, true);
        glEndQuery(GL_PRIMITIVES_GENERATED);
        GLuint primitives = 1;
        glGetQueryObjectuiv(generated.id(), GL_QUERY_RESULT, &primitives);
        EXPECT_EQ(primitives, 0u) << indices << " indices";
    }
}

} // namespace
} // namespace isoview::test
