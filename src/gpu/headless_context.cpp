#include "gpu/headless_context.h"

#include "core/error.h"
#include "core/log.h"
#include "gpu/gl_loader.h"

#include <EGL/egl.h>
#include <EGL/eglext.h>

#include <cstring>
#include <sstream>
#include <utility>
#include <vector>

namespace isoview::gpu {
namespace {

bool hasExtension(const char* list, const char* name)
{
    if (list == nullptr) return false;
    const std::size_t n = std::strlen(name);
    for (const char* p = std::strstr(list, name); p != nullptr; p = std::strstr(p + n, name)) {
        const bool startOk = p == list || p[-1] == ' ';
        const bool endOk = p[n] == '\0' || p[n] == ' ';
        if (startOk && endOk) return true;
    }
    return false;
}

std::string eglErrorText()
{
    std::ostringstream s;
    s << "EGL error 0x" << std::hex << eglGetError();
    return s.str();
}

template <class Fn> Fn eglProc(const char* name)
{
    return reinterpret_cast<Fn>(eglGetProcAddress(name));
}

} // namespace

struct HeadlessContext::Impl {
    EGLDisplay display = EGL_NO_DISPLAY;
    EGLContext context = EGL_NO_CONTEXT;
    std::string description;

    ~Impl()
    {
        if (display == EGL_NO_DISPLAY) return;
        eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
        if (context != EGL_NO_CONTEXT) eglDestroyContext(display, context);
        eglTerminate(display);
    }

    // Initialises `candidate` and creates a core context on it; on failure appends the reason
    // to `why` and leaves the candidate terminated.
    bool tryDisplay(EGLDisplay candidate, const std::string& name, const Options& options,
                    std::string& why)
    {
        if (candidate == EGL_NO_DISPLAY) {
            why += "\n  " + name + ": no display (" + eglErrorText() + ")";
            return false;
        }
        EGLint major = 0;
        EGLint minor = 0;
        if (!eglInitialize(candidate, &major, &minor)) {
            why += "\n  " + name + ": eglInitialize failed (" + eglErrorText() + ")";
            return false;
        }
        if (!eglBindAPI(EGL_OPENGL_API)) {
            why += "\n  " + name + ": no desktop OpenGL (" + eglErrorText() + ")";
            eglTerminate(candidate);
            return false;
        }
        const char* extensions = eglQueryString(candidate, EGL_EXTENSIONS);
        if (!hasExtension(extensions, "EGL_KHR_surfaceless_context")) {
            why += "\n  " + name + ": no EGL_KHR_surfaceless_context";
            eglTerminate(candidate);
            return false;
        }
        EGLConfig config = nullptr;
        if (!hasExtension(extensions, "EGL_KHR_no_config_context")) {
            const EGLint attribs[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_SURFACE_TYPE,
                                      EGL_PBUFFER_BIT, EGL_NONE};
            EGLint count = 0;
            if (!eglChooseConfig(candidate, attribs, &config, 1, &count) || count == 0) {
                why += "\n  " + name + ": no OpenGL config";
                eglTerminate(candidate);
                return false;
            }
        }
        const std::pair<int, int> versions[] = {
            {options.major, options.minor}, {4, 3}, {4, 0}, {3, 3}};
        for (auto [maj, min] : versions) {
            if (maj * 10 + min > options.major * 10 + options.minor) continue;
            const EGLint attribs[] = {EGL_CONTEXT_MAJOR_VERSION,
                                      maj,
                                      EGL_CONTEXT_MINOR_VERSION,
                                      min,
                                      EGL_CONTEXT_OPENGL_PROFILE_MASK,
                                      EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                                      EGL_CONTEXT_OPENGL_DEBUG,
                                      options.debug ? EGL_TRUE : EGL_FALSE,
                                      EGL_NONE};
            EGLContext ctx = eglCreateContext(candidate, config, EGL_NO_CONTEXT, attribs);
            if (ctx == EGL_NO_CONTEXT) continue;
            if (!eglMakeCurrent(candidate, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx)) {
                eglDestroyContext(candidate, ctx);
                continue;
            }
            display = candidate;
            context = ctx;
            description = name;
            return true;
        }
        why += "\n  " + name + ": no OpenGL 3.3+ core context (" + eglErrorText() + ")";
        eglTerminate(candidate);
        return false;
    }
};

HeadlessContext::HeadlessContext() : HeadlessContext(Options{}) {}

HeadlessContext::HeadlessContext(const Options& options) : m_impl(std::make_unique<Impl>())
{
    std::string why;
    const char* clientExtensions = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    auto getPlatformDisplay = eglProc<PFNEGLGETPLATFORMDISPLAYEXTPROC>("eglGetPlatformDisplayEXT");

    // 1. A GPU through the device platform: what a server without a display offers.
    if (getPlatformDisplay && hasExtension(clientExtensions, "EGL_EXT_platform_device")) {
        auto queryDevices = eglProc<PFNEGLQUERYDEVICESEXTPROC>("eglQueryDevicesEXT");
        auto queryDeviceString = eglProc<PFNEGLQUERYDEVICESTRINGEXTPROC>("eglQueryDeviceStringEXT");
        EGLint count = 0;
        if (queryDevices && queryDevices(0, nullptr, &count) && count > 0) {
            std::vector<EGLDeviceEXT> devices(std::size_t(count), nullptr);
            queryDevices(count, devices.data(), &count);
            for (EGLint i = 0; i < count; ++i) {
                const char* ext = queryDeviceString
                                      ? queryDeviceString(devices[std::size_t(i)], EGL_EXTENSIONS)
                                      : nullptr;
                // Mesa lists its software rasteriser as a device too; prefer real ones first
                // and leave software to the surfaceless platform below.
                if (hasExtension(ext, "EGL_MESA_device_software")) continue;
                EGLDisplay d =
                    getPlatformDisplay(EGL_PLATFORM_DEVICE_EXT, devices[std::size_t(i)], nullptr);
                if (m_impl->tryDisplay(d, "EGL device " + std::to_string(i), options, why)) break;
            }
        }
    }
    // 2. Mesa's surfaceless platform (llvmpipe on machines without a GPU).
    if (m_impl->context == EGL_NO_CONTEXT && getPlatformDisplay &&
        hasExtension(clientExtensions, "EGL_MESA_platform_surfaceless")) {
        EGLDisplay d =
            getPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
        m_impl->tryDisplay(d, "EGL surfaceless (Mesa)", options, why);
    }
    // 3. Whatever the default display is.
    if (m_impl->context == EGL_NO_CONTEXT) {
        m_impl->tryDisplay(eglGetDisplay(EGL_DEFAULT_DISPLAY), "EGL default display", options, why);
    }
    if (m_impl->context == EGL_NO_CONTEXT) {
        throw GlError("could not create a headless OpenGL context through EGL:" + why);
    }
    if (options.debug) installDebugMessageLogger();
    log::get("gl")->info("headless context on {}", m_impl->description);
}

HeadlessContext::~HeadlessContext() = default;

void HeadlessContext::makeCurrent()
{
    if (!eglMakeCurrent(m_impl->display, EGL_NO_SURFACE, EGL_NO_SURFACE, m_impl->context)) {
        throw GlError("eglMakeCurrent failed (" + eglErrorText() + ")");
    }
}

const std::string& HeadlessContext::platformDescription() const
{
    return m_impl->description;
}

} // namespace isoview::gpu
