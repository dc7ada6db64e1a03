#include "gpu/shader_program.h"

#include "core/error.h"
#include "core/log.h"
#include "gpu/embedded_shaders.h"
#include "gpu/gl_state.h"

#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>

namespace isoview::gpu {
namespace {

constexpr std::string_view kVersionLine = "#version 330 core\n";
// Compute shaders exist from OpenGL 4.3 on; the engine only builds them on such contexts.
constexpr std::string_view kComputeVersionLine = "#version 430 core\n";

// File k of an expanded shader starts at line k * kLineStride + 1. Line numbers, unlike
// source-string numbers (which Mesa drops from some messages), come back reliably in every
// driver's log, so they alone identify the file.
constexpr int kLineStride = 100000;

std::string lineDirective(int fileNumber, int line)
{
    return "#line " + std::to_string(fileNumber * kLineStride + line) + " " +
           std::to_string(fileNumber) + "\n";
}

// Expands #include "x" lines recursively, numbering lines as described above.
void expandIncludes(const std::string& path, std::vector<std::string>& files, std::string& out,
                    int depth)
{
    if (depth > 8) throw ShaderError("shader includes nest too deeply at " + path);
    const int fileNumber = int(files.size());
    files.push_back(path);
    std::istringstream in(loadShaderFile(path));
    std::string line;
    int lineNumber = 0;
    out += lineDirective(fileNumber, 1);
    static const std::regex includeRe(R"(^\s*#\s*include\s+"([^"]+)\"\s*$)");
    while (std::getline(in, line)) {
        ++lineNumber;
        std::smatch m;
        if (std::regex_match(line, m, includeRe)) {
            expandIncludes(m[1].str(), files, out, depth + 1);
            out += lineDirective(fileNumber, lineNumber + 1);
        } else {
            out += line;
            out += '\n';
        }
    }
}

// Rewrites the "N:L(C)" (Mesa) and "N(L)" (NVIDIA) prefixes of a compile log into "file:line".
std::string mapLog(const std::string& log, const std::vector<std::string>& files)
{
    static const std::regex mesaRe(R"(^\d+:(\d+)\(\d+\))");
    static const std::regex nvRe(R"(^\d+\((\d+)\))");
    std::string result;
    std::istringstream in(log);
    std::string line;
    while (std::getline(in, line)) {
        std::smatch m;
        if (std::regex_search(line, m, mesaRe) || std::regex_search(line, m, nvRe)) {
            const long global = std::stol(m[1].str());
            const std::size_t file = std::size_t(global / kLineStride);
            if (file < files.size()) {
                line = files[file] + ":" + std::to_string(global % kLineStride) + m.suffix().str();
            }
        }
        result += line + "\n";
    }
    return result;
}

std::string infoLog(GLuint object, bool isProgram)
{
    GLint length = 0;
    isProgram ? glGetProgramiv(object, GL_INFO_LOG_LENGTH, &length)
              : glGetShaderiv(object, GL_INFO_LOG_LENGTH, &length);
    std::string text(std::size_t(std::max(length, 1)), '\0');
    isProgram ? glGetProgramInfoLog(object, length, nullptr, text.data())
              : glGetShaderInfoLog(object, length, nullptr, text.data());
    text.resize(std::strlen(text.c_str()));
    return text;
}

} // namespace

std::string loadShaderFile(std::string_view path)
{
    if (const char* dir = std::getenv("ISOVIEW_SHADER_DIR"); dir != nullptr && *dir != '\0') {
        const std::string full = std::string(dir) + "/" + std::string(path);
        std::ifstream file(full, std::ios::binary);
        if (!file) throw ShaderError("cannot read shader " + full + " (ISOVIEW_SHADER_DIR)");
        std::ostringstream text;
        text << file.rdbuf();
        return text.str();
    }
    for (const EmbeddedShader& s : embeddedShaders()) {
        if (s.path == path) return std::string(s.source);
    }
    throw ShaderError("no shader named " + std::string(path) + " is embedded in the engine");
}

std::vector<std::string> embeddedShaderPaths()
{
    std::vector<std::string> paths;
    for (const EmbeddedShader& s : embeddedShaders())
        paths.emplace_back(s.path);
    return paths;
}

ShaderProgram::ShaderProgram(std::string label, const std::vector<ShaderStage>& stages,
                             std::string_view defines,
                             const std::vector<std::string>& captureVaryings)
    : m_label(std::move(label)), m_program(Program::create())
{
    std::vector<Shader> shaders;
    for (const ShaderStage& stage : stages) {
        std::vector<std::string> files;
        std::string body;
        expandIncludes(stage.path, files, body, 0);
        const std::string_view version =
            stage.stage == GL_COMPUTE_SHADER ? kComputeVersionLine : kVersionLine;
        const std::string source = std::string(version) + std::string(defines) + body;
        Shader shader(stage.stage, stage.path);
        const char* text = source.c_str();
        glShaderSource(shader.id(), 1, &text, nullptr);
        glCompileShader(shader.id());
        GLint ok = GL_FALSE;
        glGetShaderiv(shader.id(), GL_COMPILE_STATUS, &ok);
        if (ok != GL_TRUE) {
            throw ShaderError("shader " + stage.path + " (program '" + m_label +
                              "') failed to compile:\n" +
                              mapLog(infoLog(shader.id(), false), files));
        }
        glAttachShader(m_program.id(), shader.id());
        shaders.push_back(std::move(shader));
    }
    if (!captureVaryings.empty()) {
        std::vector<const char*> names;
        names.reserve(captureVaryings.size());
        for (const std::string& v : captureVaryings)
            names.push_back(v.c_str());
        glTransformFeedbackVaryings(m_program.id(), GLsizei(names.size()), names.data(),
                                    GL_INTERLEAVED_ATTRIBS);
    }
    glLinkProgram(m_program.id());
    for (const Shader& s : shaders)
        glDetachShader(m_program.id(), s.id());
    GLint ok = GL_FALSE;
    glGetProgramiv(m_program.id(), GL_LINK_STATUS, &ok);
    if (ok != GL_TRUE) {
        throw ShaderError("program '" + m_label + "' failed to link:\n" +
                          infoLog(m_program.id(), true));
    }
    m_program.label(m_label);
    cacheUniformLocations();
    log::get("gl")->debug("linked program '{}' ({} active uniforms)", m_label,
                          m_uniformLocations.size());
}

void ShaderProgram::cacheUniformLocations()
{
    GLint count = 0;
    GLint longest = 0;
    glGetProgramiv(m_program.id(), GL_ACTIVE_UNIFORMS, &count);
    glGetProgramiv(m_program.id(), GL_ACTIVE_UNIFORM_MAX_LENGTH, &longest);
    std::string name(std::size_t(std::max(longest, 1)), '\0');
    for (GLint i = 0; i < count; ++i) {
        GLsizei length = 0;
        GLint size = 0;
        GLenum type = GL_NONE;
        glGetActiveUniform(m_program.id(), GLuint(i), GLsizei(name.size()), &length, &size, &type,
                           name.data());
        std::string key(name.data(), std::size_t(length));
        // Arrays report "name[0]"; callers ask for "name".
        if (key.size() > 3 && key.ends_with("[0]")) key.resize(key.size() - 3);
        const GLint location = glGetUniformLocation(m_program.id(), key.c_str());
        if (location >= 0) m_uniformLocations.emplace(std::move(key), location);
    }
}

GLint ShaderProgram::uniform(std::string_view name) const
{
    const auto it = m_uniformLocations.find(name);
    return it == m_uniformLocations.end() ? -1 : it->second;
}

void ShaderProgram::setSamplerUnit(std::string_view name, GLint unit) const
{
    const GLint location = uniform(name);
    if (location < 0) return;
    ScopedProgram use(m_program.id());
    glUniform1i(location, unit);
}

} // namespace isoview::gpu
