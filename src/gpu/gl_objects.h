// RAII owners for every kind of GL object the engine creates: one move-only handle each, the
// only place where glGen*/glDelete* are called. Destruction needs the creating context (or one
// sharing with it) to be current, as for any GL call.
//
// Each owner counts the objects of its kind alive in the process (liveGlObjects()), so a soak
// can tell that a long session's object count stays flat: one relaxed atomic add per create or
// destroy, no lock.
//
// Example:
//   Texture t = Texture::create();
//   glBindTexture(GL_TEXTURE_2D, t.id());
//   t.label("pyramid base");
#pragma once

#include <epoxy/gl.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

namespace isoview::gpu {

// GL objects alive in the process, by kind, over every context: created by the owners below
// and not yet destroyed. Safe to read from any thread (each count is read atomically; the set
// is not a snapshot while other threads create or destroy objects).
struct GlObjectCounts {
    std::int64_t textures = 0;
    std::int64_t buffers = 0;
    std::int64_t framebuffers = 0;
    std::int64_t vertexArrays = 0;
    std::int64_t queries = 0;
    std::int64_t programs = 0;
    std::int64_t shaders = 0;
    std::int64_t syncs = 0;

    bool operator==(const GlObjectCounts&) const = default;
    // "textures 12, buffers 9, ...", for logs and test failures.
    std::string describe() const;
};

GlObjectCounts liveGlObjects();

// glObjectLabel in debug builds where KHR_debug is present; nothing otherwise.
void labelObject(GLenum labelNamespace, GLuint id, std::string_view label);

// A move-only GL name with a deleter chosen by Kind.
template <class Kind> class GlHandle {
public:
    GlHandle() = default;
    ~GlHandle() { reset(); }
    GlHandle(const GlHandle&) = delete;
    GlHandle& operator=(const GlHandle&) = delete;
    GlHandle(GlHandle&& other) noexcept : m_id(std::exchange(other.m_id, 0)) {}
    GlHandle& operator=(GlHandle&& other) noexcept
    {
        if (this != &other) {
            reset();
            m_id = std::exchange(other.m_id, 0);
        }
        return *this;
    }

    static GlHandle create()
    {
        GlHandle h;
        h.m_id = Kind::create();
        return h;
    }

    // Names the object for debuggers and driver messages (glObjectLabel, debug builds with
    // KHR_debug only). GL requires the object to have been bound once before it is labelled.
    void label(std::string_view name) const { labelObject(Kind::kLabelNamespace, m_id, name); }

    GLuint id() const { return m_id; }
    explicit operator bool() const { return m_id != 0; }

    void reset()
    {
        if (m_id != 0) Kind::destroy(m_id);
        m_id = 0;
    }

private:
    GLuint m_id = 0;
};

struct TextureKind {
    static constexpr GLenum kLabelNamespace = GL_TEXTURE;
    static GLuint create();
    static void destroy(GLuint id);
};
struct BufferKind {
    static constexpr GLenum kLabelNamespace = GL_BUFFER;
    static GLuint create();
    static void destroy(GLuint id);
};
struct FramebufferKind {
    static constexpr GLenum kLabelNamespace = GL_FRAMEBUFFER;
    static GLuint create();
    static void destroy(GLuint id);
};
struct VertexArrayKind {
    static constexpr GLenum kLabelNamespace = GL_VERTEX_ARRAY;
    static GLuint create();
    static void destroy(GLuint id);
};
struct QueryKind {
    static constexpr GLenum kLabelNamespace = GL_QUERY;
    static GLuint create();
    static void destroy(GLuint id);
};
struct ProgramKind {
    static constexpr GLenum kLabelNamespace = GL_PROGRAM;
    static GLuint create();
    static void destroy(GLuint id);
};

using Texture = GlHandle<TextureKind>;
using Buffer = GlHandle<BufferKind>;
using Framebuffer = GlHandle<FramebufferKind>;
using VertexArray = GlHandle<VertexArrayKind>;
using Query = GlHandle<QueryKind>;
using Program = GlHandle<ProgramKind>;

// A fence after the commands submitted so far (glFenceSync); sync objects are pointers, not
// names, so they get their own owner too.
class SyncFence {
public:
    SyncFence() = default;
    ~SyncFence() { reset(); }
    SyncFence(const SyncFence&) = delete;
    SyncFence& operator=(const SyncFence&) = delete;
    SyncFence(SyncFence&& other) noexcept : m_sync(std::exchange(other.m_sync, nullptr)) {}
    SyncFence& operator=(SyncFence&& other) noexcept
    {
        if (this != &other) {
            reset();
            m_sync = std::exchange(other.m_sync, nullptr);
        }
        return *this;
    }

    // Replaces any previous fence with one after the commands submitted so far.
    void insert();
    // True once the GPU has passed the fence. Never waits.
    bool signaled() const;
    bool pending() const { return m_sync != nullptr; }
    void reset();

private:
    GLsync m_sync = nullptr;
};

// Shaders need their stage at creation, so they get their own small owner.
class Shader {
public:
    Shader(GLenum stage, std::string_view label);
    ~Shader();
    Shader(const Shader&) = delete;
    Shader& operator=(const Shader&) = delete;
    Shader(Shader&& other) noexcept : m_id(std::exchange(other.m_id, 0)) {}
    Shader& operator=(Shader&& other) noexcept;

    GLuint id() const { return m_id; }

private:
    GLuint m_id = 0;
};

} // namespace isoview::gpu
