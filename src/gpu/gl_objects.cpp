#include "gpu/gl_objects.h"

#include <array>
#include <atomic>
#include <cstddef>
#include <string>

namespace isoview::gpu {
namespace {

enum Counted : std::size_t {
    kTextures,
    kBuffers,
    kFramebuffers,
    kVertexArrays,
    kQueries,
    kPrograms,
    kShaders,
    kSyncs,
    kCountedKinds
};

// Relaxed: each count only has to be exact once the threads that changed it are joined or
// synchronised with the reader by other means; nothing else is ordered by it.
std::array<std::atomic<std::int64_t>, kCountedKinds> g_live{};

// Counts a name the driver gave (0 means creation failed: nothing to count).
template <class Name> Name counted(Counted kind, Name name)
{
    if (name) g_live[kind].fetch_add(1, std::memory_order_relaxed);
    return name;
}

void uncount(Counted kind)
{
    g_live[kind].fetch_sub(1, std::memory_order_relaxed);
}

} // namespace

GlObjectCounts liveGlObjects()
{
    const auto live = [](Counted kind) { return g_live[kind].load(std::memory_order_relaxed); };
    return {live(kTextures), live(kBuffers),  live(kFramebuffers), live(kVertexArrays),
            live(kQueries),  live(kPrograms), live(kShaders),      live(kSyncs)};
}

std::string GlObjectCounts::describe() const
{
    return "textures " + std::to_string(textures) + ", buffers " + std::to_string(buffers) +
           ", framebuffers " + std::to_string(framebuffers) + ", vertex arrays " +
           std::to_string(vertexArrays) + ", queries " + std::to_string(queries) + ", programs " +
           std::to_string(programs) + ", shaders " + std::to_string(shaders) + ", syncs " +
           std::to_string(syncs);
}

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
    return counted(kTextures, id);
}
void TextureKind::destroy(GLuint id)
{
    glDeleteTextures(1, &id);
    uncount(kTextures);
}

GLuint BufferKind::create()
{
    GLuint id = 0;
    glGenBuffers(1, &id);
    return counted(kBuffers, id);
}
void BufferKind::destroy(GLuint id)
{
    glDeleteBuffers(1, &id);
    uncount(kBuffers);
}

GLuint FramebufferKind::create()
{
    GLuint id = 0;
    glGenFramebuffers(1, &id);
    return counted(kFramebuffers, id);
}
void FramebufferKind::destroy(GLuint id)
{
    glDeleteFramebuffers(1, &id);
    uncount(kFramebuffers);
}

GLuint VertexArrayKind::create()
{
    GLuint id = 0;
    glGenVertexArrays(1, &id);
    return counted(kVertexArrays, id);
}
void VertexArrayKind::destroy(GLuint id)
{
    glDeleteVertexArrays(1, &id);
    uncount(kVertexArrays);
}

GLuint QueryKind::create()
{
    GLuint id = 0;
    glGenQueries(1, &id);
    return counted(kQueries, id);
}
void QueryKind::destroy(GLuint id)
{
    glDeleteQueries(1, &id);
    uncount(kQueries);
}

GLuint ProgramKind::create()
{
    return counted(kPrograms, glCreateProgram());
}
void ProgramKind::destroy(GLuint id)
{
    glDeleteProgram(id);
    uncount(kPrograms);
}

void SyncFence::insert()
{
    reset();
    m_sync = counted(kSyncs, glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0));
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
    if (m_sync != nullptr) {
        glDeleteSync(m_sync);
        uncount(kSyncs);
    }
    m_sync = nullptr;
}

Shader::Shader(GLenum stage, std::string_view label)
    : m_id(counted(kShaders, glCreateShader(stage)))
{
    labelObject(GL_SHADER, m_id, label);
}

Shader::~Shader()
{
    if (m_id != 0) {
        glDeleteShader(m_id);
        uncount(kShaders);
    }
}

Shader& Shader::operator=(Shader&& other) noexcept
{
    if (this != &other) {
        if (m_id != 0) {
            glDeleteShader(m_id);
            uncount(kShaders);
        }
        m_id = std::exchange(other.m_id, 0);
    }
    return *this;
}

} // namespace isoview::gpu
