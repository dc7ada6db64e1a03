// One logging seam: named spdlog loggers per subsystem, all sharing the same sinks, so the
// CLI, tests and the viewer's log panel see the same lines.
#pragma once

#include <spdlog/spdlog.h>

#include <memory>
#include <string>

namespace isoview::log {

// Returns the logger for a subsystem ("engine", "gl", "io", "cli"), creating it on first use
// with the current default sinks and level. Every logger flushes its sinks after each warning
// and error (a file sink holds them on disk before the call returns); lower levels are
// buffered. Thread-safe.
std::shared_ptr<spdlog::logger> get(const std::string& subsystem);

// Sets the level of every isoview logger (existing and future ones).
void setLevel(spdlog::level::level_enum level);

// Adds a sink to every isoview logger (existing and future ones); the viewer forwards its log
// panel this way.
void addSink(const spdlog::sink_ptr& sink);

} // namespace isoview::log
