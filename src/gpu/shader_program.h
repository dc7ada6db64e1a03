// Shader programs built from the .glsl files under shaders/ (embedded at build time, or read
// from $ISOVIEW_SHADER_DIR for live editing).
//
// Each stage source gets "#version 330 core" ("#version 430 core" for compute) and a preamble of
// #defines from C++ (constants shared with the engine), and may `#include "common/x.glsl"`. Every
// file gets its own GLSL source-string number through #line, and compile logs are rewritten to name
// the file and line, e.g. "common/histopyramid_traverse.glsl:42: error: ...".
//
// Example:
//   ShaderProgram p("reduce", {{GL_VERTEX_SHADER, "fullscreen_triangle.vert"},
//                              {GL_FRAGMENT_SHADER, "hp_reduce.frag"}}, defines);
//   glUseProgram(p.id());
#pragma once

#include "gpu/gl_objects.h"

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace isoview::gpu {

struct ShaderStage {
    GLenum stage;
    std::string path; // relative to shaders/
};

class ShaderProgram {
public:
    // Compiles and links. Throws ShaderError with the file names, lines and driver log.
    // captureVaryings, when not empty, are recorded interleaved by transform feedback.
    ShaderProgram(std::string label, const std::vector<ShaderStage>& stages,
                  std::string_view defines, const std::vector<std::string>& captureVaryings = {});

    GLuint id() const { return m_program.id(); }
    const std::string& label() const { return m_label; }
    // Location of an active uniform, or -1 when the compiler removed it. Looked up in a table
    // filled once at link time (no driver call per frame).
    GLint uniform(std::string_view name) const;
    // Points a sampler uniform at a texture unit (binds the program for the call).
    void setSamplerUnit(std::string_view name, GLint unit) const;

private:
    void cacheUniformLocations();

    std::string m_label;
    Program m_program;
    std::map<std::string, GLint, std::less<>> m_uniformLocations;
};

// The text of a shader file: from $ISOVIEW_SHADER_DIR when set, else the embedded copy.
// Throws ShaderError when the file is unknown.
std::string loadShaderFile(std::string_view path);

// Every shader file the engine embeds (for the test that compiles them all).
std::vector<std::string> embeddedShaderPaths();

} // namespace isoview::gpu
