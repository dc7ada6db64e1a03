#include "gpu/gl_objects.h"

#include <string>

namespace isoview::gl {

void labelObject(GLenum labelNamespace, GLuint id, std::string_view label)
{
#ifndef NDEBUG
    if (id != 0 && !label.empty() &&
        (epoxy_gl_version() >= 43 || epoxy_has_gl_extension("GL_KHR_debug"))) {
        glObjectLabel(labelNamespace, id, GLsizei(label.size()), label.data());
    }
#else
    (void)labelNamespace;
    (void)id;
    (void)label;
#endif
}

GLuint TextureKind::create()
{
    GLuint id = 0;
    glGenTextures(1, &id);
    return id;
}
void TextureKind::destroy(GLuint id) { glDeleteTextures(1, &id); }

GLuint BufferKind::create()
{
    GLuint id = 0;
    glGenBuffers(1, &id);
    return id;
}
void BufferKind::destroy(GLuint id) { glDeleteBuffers(1, &id); }

GLuint FramebufferKind::create()
{
    GLuint id = 0;
    glGenFramebuffers(1, &id);
    return id;
}
void FramebufferKind::destroy(GLuint id) { glDeleteFramebuffers(1, &id); }

GLuint VertexArrayKind::create()
{
    GLuint id = 0;
    glGenVertexArrays(1, &id);
    return id;
}
void VertexArrayKind::destroy(GLuint id) { glDeleteVertexArrays(1, &id); }

GLuint QueryKind::create()
{
    GLuint id = 0;
    glGenQueries(1, &id);
    return id;
}
void QueryKind::destroy(GLuint id) { glDeleteQueries(1, &id); }

GLuint ProgramKind::create() { return glCreateProgram(); }
void ProgramKind::destroy(GLuint id) { glDeleteProgram(id); }

void SyncFence::insert()
{
    reset();
    m_sync = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
}

bool SyncFence::signaled() const
{
    if (m_sync == nullptr) return false;
    // A zero timeout polls; flushing makes sure the fence is on its way to the GPU.
    const GLenum result = glClientWaitSync(m_sync, GL_SYNC_FLUSH_COMMANDS_BIT, 0);
    return result == GL_ALREADY_SIGNALED || result == GL_CONDITION_SATISFIED;
}

void SyncFence::reset()
{
    if (m_sync != nullptr) glDeleteSync(m_sync);
    m_sync = nullptr;
}

Shader::Shader(GLenum stage, std::string_view label) : m_id(glCreateShader(stage))
{
    labelObject(GL_SHADER, m_id, label);
}

Shader::~Shader()
{
    if (m_id != 0) glDeleteShader(m_id);
}

Shader& Shader::operator=(Shader&& other) noexcept
{
    if (this != &other) {
        if (m_id != 0) glDeleteShader(m_id);
        m_id = std::exchange(other.m_id, 0);
    }
    return *this;
}

} // namespace isoview::gl
