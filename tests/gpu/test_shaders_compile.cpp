// Every shader under shaders/ compiles on the test context, for every volume sampler type the
// engine uses, and a broken shader reports the file and line. The cell arithmetic the shaders
// compute instead of looking up tables equals the CPU's tables.
#include "core/error.h"
#include "extraction/edge_ownership.h"
#include "extraction/marching_cubes_tables.h"
#include "gpu/gl_objects.h"
#include "gpu/gl_state.h"
#include "gpu/shader_defines.h"
#include "gpu/shader_program.h"
#include "support/gl_test_context.h"
#include "test_paths.h"

#include <array>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

namespace isoview::test {
namespace {

namespace fs = std::filesystem;

bool isStage(const std::string& path, const char* extension)
{
    return fs::path(path).extension() == extension;
}

class ShaderCompileTest : public GlTest {};

// Points the engine at a copy of shaders/ for the scope (a planted error, an extra file), and
// back at what it used before, so a run that points the whole suite at other shaders keeps
// doing so.
class ShaderDirCopy {
public:
    explicit ShaderDirCopy(const std::string& name) : m_dir(fs::temp_directory_path() / name)
    {
        const char* previous = std::getenv("ISOVIEW_SHADER_DIR");
        m_hadPrevious = previous != nullptr;
        if (m_hadPrevious) m_previous = previous;
        fs::remove_all(m_dir);
        fs::copy(fs::path(kSourceDir) / "shaders", m_dir, fs::copy_options::recursive);
        ::setenv("ISOVIEW_SHADER_DIR", m_dir.c_str(), 1);
    }
    ~ShaderDirCopy()
    {
        m_hadPrevious ? ::setenv("ISOVIEW_SHADER_DIR", m_previous.c_str(), 1)
                      : ::unsetenv("ISOVIEW_SHADER_DIR");
        fs::remove_all(m_dir);
    }
    ShaderDirCopy(const ShaderDirCopy&) = delete;
    ShaderDirCopy& operator=(const ShaderDirCopy&) = delete;

    const fs::path& dir() const { return m_dir; }

private:
    fs::path m_dir;
    std::string m_previous;
    bool m_hadPrevious = false;
};

TEST_F(ShaderCompileTest, EveryStageCompilesForEverySamplerKindAndSliceGeometry)
{
    const std::vector<std::string> paths = gpu::embeddedShaderPaths();
    int compiled = 0;
    // Each sampler kind as the programs that decide the slice geometry per draw build it, and
    // the unsigned one also as the per-vertex programs build it for each slice geometry.
    std::vector<std::string> builds;
    for (gpu::SamplerKind kind :
         {gpu::SamplerKind::Unsigned, gpu::SamplerKind::Signed, gpu::SamplerKind::Float})
        builds.push_back(gpu::engineShaderDefines(kind));
    for (gpu::SliceGeometry slices : {gpu::SliceGeometry::Regular, gpu::SliceGeometry::Measured})
        builds.push_back(gpu::engineShaderDefines(gpu::SamplerKind::Unsigned) +
                         gpu::sliceGeometryDefine(slices));
    for (const std::string& defines : builds) {
        for (const std::string& path : paths) {
            SCOPED_TRACE(path);
            if (isStage(path, ".vert")) {
                // A vertex stage alone links (the count pass is such a program).
                EXPECT_NO_THROW(gpu::ShaderProgram(path, {{GL_VERTEX_SHADER, path}}, defines));
                ++compiled;
            } else if (isStage(path, ".comp")) {
                // Compute stages need OpenGL 4.3, which llvmpipe and every current GPU offer.
                ASSERT_GE(epoxy_gl_version(), 43) << "the test context lacks compute shaders";
                // The level reduction is built per written format, each variant compiled here.
                const std::vector<std::string> variants =
                    path == "hp_reduce_level.comp"
                        ? std::vector<std::string>{gpu::kReduceTo16BitLevelDefine,
                                                   gpu::kReduceTo32BitLevelDefine}
                        : std::vector<std::string>{""};
                for (const std::string& variant : variants) {
                    EXPECT_NO_THROW(
                        gpu::ShaderProgram(path, {{GL_COMPUTE_SHADER, path}}, defines + variant));
                }
                ++compiled;
            } else if (isStage(path, ".frag")) {
                EXPECT_NO_THROW(gpu::ShaderProgram(
                    path,
                    {{GL_VERTEX_SHADER, "fullscreen_triangle.vert"}, {GL_FRAGMENT_SHADER, path}},
                    defines));
                ++compiled;
            }
        }
    }
    EXPECT_GE(compiled, 5 * 10);
}

TEST(ShaderFiles, EveryFileUnderShadersIsEmbedded)
{
    std::set<std::string> onDisk;
    const fs::path root = fs::path(kSourceDir) / "shaders";
    for (const auto& entry : fs::recursive_directory_iterator(root)) {
        const std::string ext = entry.path().extension().string();
        if (ext == ".glsl" || ext == ".vert" || ext == ".frag" || ext == ".comp") {
            onDisk.insert(fs::relative(entry.path(), root).generic_string());
        }
    }
    const std::vector<std::string> embedded = gpu::embeddedShaderPaths();
    EXPECT_EQ(onDisk, std::set<std::string>(embedded.begin(), embedded.end()));
}

TEST_F(ShaderCompileTest, CompileErrorNamesFileAndLine)
{
    // A copy of the shaders with one error planted in an included file.
    std::string message;
    std::string expectedPlace;
    {
        const ShaderDirCopy copy("isoview_broken_shaders");
        const fs::path planted = copy.dir() / "common/histopyramid_channels.glsl";
        int lines = 0;
        {
            std::ifstream in(planted);
            for (std::string line; std::getline(in, line);)
                ++lines;
        }
        {
            std::ofstream f(planted, std::ios::app);
            f << "float broken() { return undeclaredThing; }\n";
        }
        expectedPlace = "common/histopyramid_channels.glsl:" + std::to_string(lines + 1);
        try {
            gpu::ShaderProgram("broken", {{GL_VERTEX_SHADER, "extraction_record.vert"}},
                               gpu::engineShaderDefines(gpu::SamplerKind::Unsigned));
        } catch (const ShaderError& e) {
            message = e.what();
        }
    }
    ASSERT_FALSE(message.empty()) << "the broken shader compiled";
    EXPECT_NE(message.find(expectedPlace), std::string::npos) << message;
    EXPECT_NE(message.find("undeclaredThing"), std::string::npos) << message;
}

// The shaders compute a case's crossed edges, the edges a cell owns on the grid's far faces and
// the edge numbering with bit arithmetic (per-lane table reads cost software rasterisers more);
// every case and far-face combination must give what the CPU's tables say.
TEST_F(ShaderCompileTest, CellBitArithmeticEqualsTheCpuTables)
{
    constexpr std::uint32_t kCombinations = 256 * 8; // case x far faces
    constexpr std::uint32_t kResults = kCombinations + 2 * 12;
    std::array<std::uint32_t, kResults> results{};
    {
        const ShaderDirCopy copy("isoview_cell_arithmetic_shaders");
        std::ofstream(copy.dir() / "cell_arithmetic_check.comp") << R"(
#include "common/marching_cubes_cell.glsl"
layout(local_size_x = 64) in;
layout(std430, binding = 0) writeonly buffer Results {
    uint results[];
};
void main()
{
    uint i = gl_GlobalInvocationID.x;
    uint caseIndex = i & 255u;
    uint far = i >> 8u;
    // u_cellCount is (3, 3, 3): coordinate 2 lies on the far face, 0 and 1 do not.
    ivec3 cell = ivec3((far & 1u) != 0u ? 2 : 0, (far & 2u) != 0u ? 2 : 1, (far & 4u) != 0u ? 2 : 0);
    results[i] = ownedCrossedEdges(cell, caseIndex);
    if (i < 12u) {
        ivec3 o = edgeLowerOffset(int(i));
        results[2048u + i] = uint(o.x | (o.y << 1) | (o.z << 2));
        results[2060u + i] = uint(edgeFromLowerOffset(int(i) >> 2, o));
    }
}
)";
        const gpu::ShaderProgram program("cell arithmetic check",
                                         {{GL_COMPUTE_SHADER, "cell_arithmetic_check.comp"}},
                                         gpu::engineShaderDefines(gpu::SamplerKind::Unsigned));
        const gpu::Buffer buffer = gpu::Buffer::create();
        const gpu::ScopedBufferBinding bind(GL_SHADER_STORAGE_BUFFER, buffer.id());
        glBufferData(GL_SHADER_STORAGE_BUFFER, GLsizeiptr(sizeof(results)), nullptr,
                     GL_STREAM_READ);
        const gpu::ScopedIndexedBufferBinding slot(GL_SHADER_STORAGE_BUFFER, 0, buffer.id());
        const gpu::ScopedProgram use(program.id());
        glUniform3i(program.uniform("u_cellCount"), 3, 3, 3);
        glDispatchCompute(kCombinations / 64, 1, 1);
        glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
        glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, GLsizeiptr(sizeof(results)),
                           results.data());
    }
    int wrong = 0;
    for (std::uint32_t i = 0; i < kCombinations; ++i) {
        const std::uint32_t expected = mc::crossedEdgeMask(i & 255u) & mc::ownedEdgeMask(i >> 8);
        if (results[i] != expected && ++wrong <= 5) {
            ADD_FAILURE() << "case " << (i & 255u) << ", far faces " << (i >> 8) << ": shader "
                          << results[i] << ", tables " << expected;
        }
    }
    EXPECT_EQ(wrong, 0);
    for (int e = 0; e < 12; ++e) {
        SCOPED_TRACE("edge " + std::to_string(e));
        const int lower = mc::kEdgeCorners[std::size_t(e)][0];
        EXPECT_EQ(results[kCombinations + std::size_t(e)], std::uint32_t(lower));
        EXPECT_EQ(results[kCombinations + 12 + std::size_t(e)],
                  std::uint32_t(mc::edgeAt(e / 4, lower)));
    }
}

} // namespace
} // namespace isoview::test
