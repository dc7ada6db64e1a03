#include "io/load_monitor.h"

#include "core/error.h"

namespace isoview::io {

void reportProgress(LoadMonitor* monitor, std::string_view stage, std::uint64_t done,
                    std::uint64_t total)
{
    if (monitor == nullptr) return;
    if (monitor->cancelRequested()) throw CancelledError("loading cancelled");
    monitor->progress(stage, done, total);
}

} // namespace isoview::io
