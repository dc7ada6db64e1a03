// Every shader under shaders/ compiles on the test context, for every volume sampler type the
// engine uses, and a broken shader reports the file and line.
#include "core/error.h"
#include "gpu/shader_defines.h"
#include "gpu/shader_program.h"
#include "support/gl_test_context.h"
#include "test_paths.h"

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
    const fs::path dir = fs::temp_directory_path() / "isoview_broken_shaders";
    fs::remove_all(dir);
    fs::copy(fs::path(kSourceDir) / "shaders", dir, fs::copy_options::recursive);
    const fs::path planted = dir / "common/histopyramid_channels.glsl";
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
    const std::string expectedPlace =
        "common/histopyramid_channels.glsl:" + std::to_string(lines + 1);
    const char* previous = std::getenv("ISOVIEW_SHADER_DIR");
    const std::string previousDir = previous ? previous : "";
    ::setenv("ISOVIEW_SHADER_DIR", dir.c_str(), 1);
    std::string message;
    try {
        gpu::ShaderProgram("broken", {{GL_VERTEX_SHADER, "extraction_record.vert"}},
                           gpu::engineShaderDefines(gpu::SamplerKind::Unsigned));
    } catch (const ShaderError& e) {
        message = e.what();
    }
    // Restore, so a run that points the whole suite at other shaders keeps doing so.
    previous ? ::setenv("ISOVIEW_SHADER_DIR", previousDir.c_str(), 1)
             : ::unsetenv("ISOVIEW_SHADER_DIR");
    fs::remove_all(dir);
    ASSERT_FALSE(message.empty()) << "the broken shader compiled";
    EXPECT_NE(message.find(expectedPlace), std::string::npos) << message;
    EXPECT_NE(message.find("undeclaredThing"), std::string::npos) << message;
}

} // namespace
} // namespace isoview::test
