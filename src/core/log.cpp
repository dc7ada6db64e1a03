#include "core/log.h"

#include <spdlog/sinks/stdout_color_sinks.h>

#include <mutex>
#include <vector>

namespace isoview::log {
namespace {

struct Registry {
    std::mutex mutex;
    std::vector<spdlog::sink_ptr> sinks{std::make_shared<spdlog::sinks::stderr_color_sink_mt>()};
    spdlog::level::level_enum level = spdlog::level::warn;
    std::vector<std::shared_ptr<spdlog::logger>> loggers;
};

Registry& registry()
{
    static Registry instance;
    return instance;
}

} // namespace

std::shared_ptr<spdlog::logger> get(const std::string& subsystem)
{
    Registry& reg = registry();
    std::lock_guard lock(reg.mutex);
    for (const auto& logger : reg.loggers) {
        if (logger->name() == subsystem) return logger;
    }
    auto logger = std::make_shared<spdlog::logger>(subsystem, reg.sinks.begin(), reg.sinks.end());
    logger->set_level(reg.level);
    // A warning or an error reaches the log file at once: an error dialog names that file, and
    // a crash after it must not lose the lines that explain it.
    logger->flush_on(spdlog::level::warn);
    reg.loggers.push_back(logger);
    return logger;
}

void setLevel(spdlog::level::level_enum level)
{
    Registry& reg = registry();
    std::lock_guard lock(reg.mutex);
    reg.level = level;
    for (const auto& logger : reg.loggers)
        logger->set_level(level);
}

void addSink(const spdlog::sink_ptr& sink)
{
    Registry& reg = registry();
    std::lock_guard lock(reg.mutex);
    reg.sinks.push_back(sink);
    for (const auto& logger : reg.loggers)
        logger->sinks().push_back(sink);
}

} // namespace isoview::log
