#include "gpu/gl_loader.h"

#include "core/error.h"
#include "core/log.h"

#include <epoxy/gl.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace isoview::gpu {
namespace {

std::string glString(GLenum name)
{
    const auto* s = reinterpret_cast<const char*>(glGetString(name));
    return s ? std::string(s) : std::string();
}

void GLAPIENTRY onDebugMessage(GLenum /*source*/, GLenum type, GLuint id, GLenum severity,
                               GLsizei /*length*/, const GLchar* message, const void* /*user*/)
{
    static const auto logger = log::get("gl");
    if (type == GL_DEBUG_TYPE_ERROR || severity == GL_DEBUG_SEVERITY_HIGH) {
        logger->error("GL debug [{}]: {}", id, message);
    } else if (severity != GL_DEBUG_SEVERITY_NOTIFICATION) {
        logger->debug("GL debug [{}]: {}", id, message);
    }
}

} // namespace

std::string GlCapabilities::summary() const
{
    std::ostringstream s;
    s << renderer << ", OpenGL " << major << "." << minor << " core";
    if (!computeExtraction) s << " (3.3 path)";
    return s.str();
}

namespace {

bool isSoftwareRasterizer(const std::string& renderer)
{
    return renderer.find("llvmpipe") != std::string::npos ||
           renderer.find("softpipe") != std::string::npos;
}

} // namespace

GlCapabilities queryCapabilities(const GlFeatureLimits& limits)
{
    // epoxy_gl_version() needs a current context; without one glGetString returns null.
    if (glGetString(GL_VERSION) == nullptr) {
        throw GlError("no OpenGL context is current on this thread");
    }
    GlCapabilities caps;
    glGetIntegerv(GL_MAJOR_VERSION, &caps.major);
    glGetIntegerv(GL_MINOR_VERSION, &caps.minor);
    caps.renderer = glString(GL_RENDERER);
    caps.vendor = glString(GL_VENDOR);
    caps.version = glString(GL_VERSION);
    if (caps.major * 10 + caps.minor < 33) {
        throw GlError("isoview needs OpenGL 3.3 core or newer; this context (" + caps.renderer +
                      ") offers " + caps.version);
    }
    GLint maxTexture = 0;
    glGetIntegerv(GL_MAX_TEXTURE_SIZE, &maxTexture);
    caps.maxTextureSize = std::uint32_t(maxTexture);
    caps.computeExtraction = !limits.limitToGl33 && caps.major * 10 + caps.minor >= 43;
    caps.debugOutput = epoxy_has_gl_extension("GL_KHR_debug") || caps.major * 10 + caps.minor >= 43;
    caps.softwareRasterizer = isSoftwareRasterizer(caps.renderer);
    return caps;
}

std::optional<std::uint64_t> availableGpuMemory()
{
    if (epoxy_has_gl_extension("GL_NVX_gpu_memory_info")) {
        GLint kilobytes = 0;
        glGetIntegerv(GL_GPU_MEMORY_INFO_CURRENT_AVAILABLE_VIDMEM_NVX, &kilobytes);
        return std::uint64_t(kilobytes) * 1024;
    }
    if (epoxy_has_gl_extension("GL_ATI_meminfo")) {
        GLint info[4] = {0, 0, 0, 0}; // total free, largest free block, ... (kilobytes)
        glGetIntegerv(GL_TEXTURE_FREE_MEMORY_ATI, info);
        return std::uint64_t(info[0]) * 1024;
    }
    if (isSoftwareRasterizer(glString(GL_RENDERER))) {
        // MemAvailable: what the kernel can hand out without swapping.
        std::ifstream meminfo("/proc/meminfo");
        std::string key;
        std::uint64_t kilobytes = 0;
        std::string unit;
        while (meminfo >> key >> kilobytes >> unit) {
            if (key == "MemAvailable:") return kilobytes * 1024;
        }
    }
    return std::nullopt;
}

void installDebugMessageLogger()
{
    if (!(epoxy_gl_version() >= 43 || epoxy_has_gl_extension("GL_KHR_debug"))) return;
    GLint flags = 0;
    glGetIntegerv(GL_CONTEXT_FLAGS, &flags);
    if ((flags & GL_CONTEXT_FLAG_DEBUG_BIT) == 0) return; // non-debug contexts may drop messages
    glEnable(GL_DEBUG_OUTPUT_SYNCHRONOUS);
    glDebugMessageCallback(onDebugMessage, nullptr);
}

namespace {

// The pending glGetError codes (" 0x505 0x502"); empty when there are none.
std::string pendingGlErrors(bool* outOfMemory = nullptr)
{
    std::string codes;
    for (GLenum e = glGetError(); e != GL_NO_ERROR; e = glGetError()) {
        if (outOfMemory && e == GL_OUT_OF_MEMORY) *outOfMemory = true;
        std::ostringstream s;
        s << " 0x" << std::hex << e;
        codes += s.str();
    }
    return codes;
}

} // namespace

void throwOnGlError(const char* what)
{
    const std::string codes = pendingGlErrors();
    if (!codes.empty()) throw GlError(std::string(what) + " failed with GL error" + codes);
}

void throwOnGlAllocationError(std::string_view what, std::uint64_t bytes)
{
    bool outOfMemory = false;
    const std::string codes = pendingGlErrors(&outOfMemory);
    if (outOfMemory) {
        throw GpuMemoryError("the GPU ran out of memory allocating " + std::string(what) + " (" +
                             formatBytes(bytes) + ")");
    }
    if (!codes.empty()) {
        throw GlError("allocating " + std::string(what) + " (" + formatBytes(bytes) +
                      ") failed with GL error" + codes);
    }
}

std::string formatBytes(std::uint64_t bytes)
{
    const double b = double(bytes);
    char text[32];
    if (b >= 1e9)
        std::snprintf(text, sizeof text, "%.2f GB", b / 1e9);
    else if (b >= 1e6)
        std::snprintf(text, sizeof text, "%.1f MB", b / 1e6);
    else
        std::snprintf(text, sizeof text, "%.0f kB", std::ceil(b / 1e3));
    return text;
}

} // namespace isoview::gpu
