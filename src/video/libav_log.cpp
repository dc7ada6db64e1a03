#include "video/libav_log.h"

#include "core/log.h"

extern "C" {
#include <libavutil/log.h>
}

#include <cstdarg>
#include <cstring>
#include <memory>
#include <mutex>

namespace isoview::video {
namespace {

spdlog::level::level_enum spdlogLevel(int libavLevel)
{
    if (libavLevel <= AV_LOG_ERROR) return spdlog::level::err;
    if (libavLevel <= AV_LOG_WARNING) return spdlog::level::warn;
    if (libavLevel <= AV_LOG_INFO) return spdlog::level::debug;
    return spdlog::level::trace;
}

void forward(void* context, int libavLevel, const char* format, va_list arguments)
{
    if (libavLevel < 0 || libavLevel > AV_LOG_DEBUG) return; // AV_LOG_QUIET, AV_LOG_TRACE
    try {
        static const std::shared_ptr<spdlog::logger> logger = log::get("video");
        const spdlog::level::level_enum level = spdlogLevel(libavLevel);
        if (!logger->should_log(level)) return;
        // libav may send a line in pieces; the prefix ("[libx264 @ 0x...] ") starts each line.
        thread_local int printPrefix = 1;
        char line[1024];
        av_log_format_line2(context, libavLevel, format, arguments, line, sizeof line,
                            &printPrefix);
        std::size_t length = std::strlen(line);
        while (length > 0 && (line[length - 1] == '\n' || line[length - 1] == '\r'))
            --length;
        if (length > 0) logger->log(level, "{}", std::string_view(line, length));
    } catch (...) {
        // A log line is never worth an exception through libav's C frames.
    }
}

} // namespace

void installLibavLogForwarding()
{
    static std::once_flag installed;
    std::call_once(installed, [] { av_log_set_callback(&forward); });
}

} // namespace isoview::video
