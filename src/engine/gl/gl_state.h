// Scoped guards: every engine pass restores the GL state it changes, so the engine can run
// inside a host's frame (the viewer's QOpenGLWidget) without disturbing it. Each guard reads
// the old state with glGet* (cheap queries of client-side state in every driver we target).
#pragma once

#include <epoxy/gl.h>

#include <array>

namespace isoview::gl {

class ScopedFramebuffer {
public:
    explicit ScopedFramebuffer(GLuint framebuffer)
    {
        glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &m_draw);
        glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &m_read);
        glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
    }
    ~ScopedFramebuffer()
    {
        glBindFramebuffer(GL_DRAW_FRAMEBUFFER, GLuint(m_draw));
        glBindFramebuffer(GL_READ_FRAMEBUFFER, GLuint(m_read));
    }
    ScopedFramebuffer(const ScopedFramebuffer&) = delete;
    ScopedFramebuffer& operator=(const ScopedFramebuffer&) = delete;

private:
    GLint m_draw = 0;
    GLint m_read = 0;
};

class ScopedViewport {
public:
    ScopedViewport(GLint x, GLint y, GLsizei w, GLsizei h)
    {
        glGetIntegerv(GL_VIEWPORT, m_old.data());
        glViewport(x, y, w, h);
    }
    ~ScopedViewport() { glViewport(m_old[0], m_old[1], m_old[2], m_old[3]); }
    ScopedViewport(const ScopedViewport&) = delete;
    ScopedViewport& operator=(const ScopedViewport&) = delete;

private:
    std::array<GLint, 4> m_old{};
};

class ScopedProgram {
public:
    explicit ScopedProgram(GLuint program)
    {
        glGetIntegerv(GL_CURRENT_PROGRAM, &m_old);
        glUseProgram(program);
    }
    ~ScopedProgram() { glUseProgram(GLuint(m_old)); }
    ScopedProgram(const ScopedProgram&) = delete;
    ScopedProgram& operator=(const ScopedProgram&) = delete;

private:
    GLint m_old = 0;
};

class ScopedVertexArray {
public:
    explicit ScopedVertexArray(GLuint vao)
    {
        glGetIntegerv(GL_VERTEX_ARRAY_BINDING, &m_old);
        glBindVertexArray(vao);
    }
    ~ScopedVertexArray() { glBindVertexArray(GLuint(m_old)); }
    ScopedVertexArray(const ScopedVertexArray&) = delete;
    ScopedVertexArray& operator=(const ScopedVertexArray&) = delete;

private:
    GLint m_old = 0;
};

// Enables or disables a capability for the scope (GL_RASTERIZER_DISCARD, GL_DEPTH_TEST, ...).
class ScopedCapability {
public:
    ScopedCapability(GLenum capability, bool enabled)
        : m_capability(capability), m_old(glIsEnabled(capability) == GL_TRUE)
    {
        set(enabled);
    }
    ~ScopedCapability() { set(m_old); }
    ScopedCapability(const ScopedCapability&) = delete;
    ScopedCapability& operator=(const ScopedCapability&) = delete;

private:
    void set(bool on) { on ? glEnable(m_capability) : glDisable(m_capability); }
    GLenum m_capability;
    bool m_old;
};

// Binds textures to units for the scope and restores the previous bindings and active unit.
template <std::size_t N>
class ScopedTextureUnits {
public:
    explicit ScopedTextureUnits(const std::array<GLuint, N>& textures)
    {
        glGetIntegerv(GL_ACTIVE_TEXTURE, &m_activeUnit);
        for (std::size_t i = 0; i < N; ++i) {
            glActiveTexture(GLenum(GL_TEXTURE0 + i));
            glGetIntegerv(GL_TEXTURE_BINDING_2D, &m_old[i]);
            glBindTexture(GL_TEXTURE_2D, textures[i]);
        }
    }
    ~ScopedTextureUnits()
    {
        for (std::size_t i = 0; i < N; ++i) {
            glActiveTexture(GLenum(GL_TEXTURE0 + i));
            glBindTexture(GL_TEXTURE_2D, GLuint(m_old[i]));
        }
        glActiveTexture(GLenum(m_activeUnit));
    }
    ScopedTextureUnits(const ScopedTextureUnits&) = delete;
    ScopedTextureUnits& operator=(const ScopedTextureUnits&) = delete;

private:
    GLint m_activeUnit = 0;
    std::array<GLint, N> m_old{};
};

} // namespace isoview::gl
