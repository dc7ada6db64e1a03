// Scoped guards: every engine pass restores the GL state it changes, so the engine can run
// inside a host's frame (the viewer's QOpenGLWidget) without disturbing it. Each guard reads
// the old state with glGet* (cheap queries of client-side state in every driver we target).
#pragma once

#include <epoxy/gl.h>

#include <array>

namespace isoview::gpu {

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
template <std::size_t N> class ScopedTextureUnits {
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

// Sets the blend function for the scope (glBlendFuncSeparate state restored); enable GL_BLEND
// with ScopedCapability.
class ScopedBlendFunc {
public:
    ScopedBlendFunc(GLenum source, GLenum destination)
    {
        glGetIntegerv(GL_BLEND_SRC_RGB, &m_srcRgb);
        glGetIntegerv(GL_BLEND_DST_RGB, &m_dstRgb);
        glGetIntegerv(GL_BLEND_SRC_ALPHA, &m_srcAlpha);
        glGetIntegerv(GL_BLEND_DST_ALPHA, &m_dstAlpha);
        glBlendFunc(source, destination);
    }
    ~ScopedBlendFunc()
    {
        glBlendFuncSeparate(GLenum(m_srcRgb), GLenum(m_dstRgb), GLenum(m_srcAlpha),
                            GLenum(m_dstAlpha));
    }
    ScopedBlendFunc(const ScopedBlendFunc&) = delete;
    ScopedBlendFunc& operator=(const ScopedBlendFunc&) = delete;

private:
    GLint m_srcRgb = 0;
    GLint m_dstRgb = 0;
    GLint m_srcAlpha = 0;
    GLint m_dstAlpha = 0;
};

// Depth function and depth writes for the scope; enable GL_DEPTH_TEST with ScopedCapability.
class ScopedDepthState {
public:
    ScopedDepthState(GLenum function, bool write)
    {
        glGetIntegerv(GL_DEPTH_FUNC, &m_function);
        glGetBooleanv(GL_DEPTH_WRITEMASK, &m_write);
        glDepthFunc(function);
        glDepthMask(write ? GL_TRUE : GL_FALSE);
    }
    ~ScopedDepthState()
    {
        glDepthFunc(GLenum(m_function));
        glDepthMask(m_write);
    }
    ScopedDepthState(const ScopedDepthState&) = delete;
    ScopedDepthState& operator=(const ScopedDepthState&) = delete;

private:
    GLint m_function = GL_LESS;
    GLboolean m_write = GL_TRUE;
};

// Which winding is front (GL_CCW or GL_CW) and which faces are culled, for the scope; enable
// GL_CULL_FACE with ScopedCapability.
class ScopedFaceState {
public:
    ScopedFaceState(GLenum frontFace, GLenum cullFace)
    {
        glGetIntegerv(GL_FRONT_FACE, &m_front);
        glGetIntegerv(GL_CULL_FACE_MODE, &m_cull);
        glFrontFace(frontFace);
        glCullFace(cullFace);
    }
    ~ScopedFaceState()
    {
        glFrontFace(GLenum(m_front));
        glCullFace(GLenum(m_cull));
    }
    ScopedFaceState(const ScopedFaceState&) = delete;
    ScopedFaceState& operator=(const ScopedFaceState&) = delete;

private:
    GLint m_front = GL_CCW;
    GLint m_cull = GL_BACK;
};

// The scissor box for the scope; enable GL_SCISSOR_TEST with ScopedCapability.
class ScopedScissor {
public:
    ScopedScissor(GLint x, GLint y, GLsizei w, GLsizei h)
    {
        glGetIntegerv(GL_SCISSOR_BOX, m_old.data());
        glScissor(x, y, w, h);
    }
    ~ScopedScissor() { glScissor(m_old[0], m_old[1], m_old[2], m_old[3]); }
    ScopedScissor(const ScopedScissor&) = delete;
    ScopedScissor& operator=(const ScopedScissor&) = delete;

private:
    std::array<GLint, 4> m_old{};
};

// The values glClear writes (colour and depth), restored after the scope.
class ScopedClearValues {
public:
    ScopedClearValues(const std::array<GLfloat, 4>& color, GLfloat depth)
    {
        glGetFloatv(GL_COLOR_CLEAR_VALUE, m_color.data());
        glGetFloatv(GL_DEPTH_CLEAR_VALUE, &m_depth);
        glClearColor(color[0], color[1], color[2], color[3]);
        glClearDepth(depth);
    }
    ~ScopedClearValues()
    {
        glClearColor(m_color[0], m_color[1], m_color[2], m_color[3]);
        glClearDepth(m_depth);
    }
    ScopedClearValues(const ScopedClearValues&) = delete;
    ScopedClearValues& operator=(const ScopedClearValues&) = delete;

private:
    std::array<GLfloat, 4> m_color{};
    GLfloat m_depth = 1.0f;
};

// Binds a 2D texture to the active unit for the scope and restores the previous binding.
class ScopedTextureBinding {
public:
    explicit ScopedTextureBinding(GLuint texture)
    {
        glGetIntegerv(GL_TEXTURE_BINDING_2D, &m_old);
        glBindTexture(GL_TEXTURE_2D, texture);
    }
    ~ScopedTextureBinding() { glBindTexture(GL_TEXTURE_2D, GLuint(m_old)); }
    ScopedTextureBinding(const ScopedTextureBinding&) = delete;
    ScopedTextureBinding& operator=(const ScopedTextureBinding&) = delete;

private:
    GLint m_old = 0;
};

// Binds a buffer texture (a GL_TEXTURE_BUFFER view of a buffer) to a texture unit for the
// scope, leaving that unit active; restores the unit's previous buffer texture and the active
// unit.
class ScopedBufferTextureUnit {
public:
    ScopedBufferTextureUnit(int unit, GLuint texture) : m_unit(GLenum(GL_TEXTURE0 + unit))
    {
        glGetIntegerv(GL_ACTIVE_TEXTURE, &m_activeUnit);
        glActiveTexture(m_unit);
        glGetIntegerv(GL_TEXTURE_BINDING_BUFFER, &m_old);
        glBindTexture(GL_TEXTURE_BUFFER, texture);
    }
    ~ScopedBufferTextureUnit()
    {
        glActiveTexture(m_unit);
        glBindTexture(GL_TEXTURE_BUFFER, GLuint(m_old));
        glActiveTexture(GLenum(m_activeUnit));
    }
    ScopedBufferTextureUnit(const ScopedBufferTextureUnit&) = delete;
    ScopedBufferTextureUnit& operator=(const ScopedBufferTextureUnit&) = delete;

private:
    GLenum m_unit;
    GLint m_activeUnit = 0;
    GLint m_old = 0;
};

// The GL_*_BINDING query that reports what a buffer target has bound.
inline GLenum bufferBindingQuery(GLenum target)
{
    switch (target) {
    case GL_ARRAY_BUFFER: return GL_ARRAY_BUFFER_BINDING;
    case GL_COPY_READ_BUFFER: return GL_COPY_READ_BUFFER_BINDING;
    case GL_COPY_WRITE_BUFFER: return GL_COPY_WRITE_BUFFER_BINDING;
    case GL_DRAW_INDIRECT_BUFFER: return GL_DRAW_INDIRECT_BUFFER_BINDING;
    case GL_DISPATCH_INDIRECT_BUFFER: return GL_DISPATCH_INDIRECT_BUFFER_BINDING;
    case GL_ELEMENT_ARRAY_BUFFER: return GL_ELEMENT_ARRAY_BUFFER_BINDING;
    case GL_SHADER_STORAGE_BUFFER: return GL_SHADER_STORAGE_BUFFER_BINDING;
    case GL_PIXEL_PACK_BUFFER: return GL_PIXEL_PACK_BUFFER_BINDING;
    case GL_PIXEL_UNPACK_BUFFER: return GL_PIXEL_UNPACK_BUFFER_BINDING;
    case GL_TRANSFORM_FEEDBACK_BUFFER: return GL_TRANSFORM_FEEDBACK_BUFFER_BINDING;
    case GL_UNIFORM_BUFFER: return GL_UNIFORM_BUFFER_BINDING;
    default: return GL_NONE;
    }
}

// Binds a buffer to a (non-indexed) target for the scope and restores the previous binding.
class ScopedBufferBinding {
public:
    ScopedBufferBinding(GLenum target, GLuint buffer) : m_target(target)
    {
        glGetIntegerv(bufferBindingQuery(target), &m_old);
        glBindBuffer(target, buffer);
    }
    ~ScopedBufferBinding() { glBindBuffer(m_target, GLuint(m_old)); }
    ScopedBufferBinding(const ScopedBufferBinding&) = delete;
    ScopedBufferBinding& operator=(const ScopedBufferBinding&) = delete;

private:
    GLenum m_target;
    GLint m_old = 0;
};

// Binds a whole buffer to one index of an indexed target (transform feedback, uniform blocks)
// for the scope; restores the buffer bound there before (as a whole-buffer binding) and the
// target's generic binding, which glBindBufferBase also changes.
class ScopedIndexedBufferBinding {
public:
    ScopedIndexedBufferBinding(GLenum target, GLuint index, GLuint buffer)
        : m_target(target), m_index(index)
    {
        glGetIntegeri_v(bufferBindingQuery(target), index, &m_oldIndexed);
        glGetIntegerv(bufferBindingQuery(target), &m_oldGeneric);
        glBindBufferBase(target, index, buffer);
    }
    ~ScopedIndexedBufferBinding()
    {
        glBindBufferBase(m_target, m_index, GLuint(m_oldIndexed));
        glBindBuffer(m_target, GLuint(m_oldGeneric));
    }
    ScopedIndexedBufferBinding(const ScopedIndexedBufferBinding&) = delete;
    ScopedIndexedBufferBinding& operator=(const ScopedIndexedBufferBinding&) = delete;

private:
    GLenum m_target;
    GLuint m_index;
    GLint m_oldIndexed = 0;
    GLint m_oldGeneric = 0;
};

// One glPixelStorei parameter (GL_UNPACK_ALIGNMENT, GL_PACK_ALIGNMENT, ...) for the scope.
class ScopedPixelStore {
public:
    ScopedPixelStore(GLenum parameter, GLint value) : m_parameter(parameter)
    {
        glGetIntegerv(parameter, &m_old);
        glPixelStorei(parameter, value);
    }
    ~ScopedPixelStore() { glPixelStorei(m_parameter, m_old); }
    ScopedPixelStore(const ScopedPixelStore&) = delete;
    ScopedPixelStore& operator=(const ScopedPixelStore&) = delete;

private:
    GLenum m_parameter;
    GLint m_old = 0;
};

// Which colour channels draws write, for the scope.
class ScopedColorMask {
public:
    ScopedColorMask(bool r, bool g, bool b, bool a)
    {
        glGetBooleanv(GL_COLOR_WRITEMASK, m_old.data());
        glColorMask(GLboolean(r), GLboolean(g), GLboolean(b), GLboolean(a));
    }
    ~ScopedColorMask() { glColorMask(m_old[0], m_old[1], m_old[2], m_old[3]); }
    ScopedColorMask(const ScopedColorMask&) = delete;
    ScopedColorMask& operator=(const ScopedColorMask&) = delete;

private:
    std::array<GLboolean, 4> m_old{};
};

} // namespace isoview::gpu
