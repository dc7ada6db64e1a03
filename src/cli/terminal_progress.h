// A one-line progress display for long CLI work (print preparation): "preparing: decimating
// 40 %" rewritten in place on stderr, at most five times a second, and cleared when done. Only
// when stderr is a terminal: logs and pipes get the report alone, never carriage returns.
//
// Example:
//   TerminalProgress shown("preparing");
//   prepareMesh(mesh, volume, iso, crop, steps, shown.callback());
#pragma once

#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <string_view>
#include <unistd.h>

namespace isoview::cli {

class TerminalProgress {
public:
    explicit TerminalProgress(std::string what)
        : m_what(std::move(what)), m_shown(::isatty(STDERR_FILENO) == 1)
    {
    }
    ~TerminalProgress()
    {
        if (m_drawn) std::fprintf(stderr, "\r\033[K");
    }
    TerminalProgress(const TerminalProgress&) = delete;
    TerminalProgress& operator=(const TerminalProgress&) = delete;

    // A progress callback for prepareMesh: (stage, fraction of it done); never cancels.
    std::function<bool(std::string_view, double)> callback() const
    {
        if (!m_shown) return {};
        return [this](std::string_view stage, double fraction) {
            const auto now = std::chrono::steady_clock::now();
            if (stage == m_stage && now - m_last < std::chrono::milliseconds(200)) return true;
            m_stage = std::string(stage);
            m_last = now;
            m_drawn = true;
            std::fprintf(stderr, "\r\033[K%s: %s %3d %%", m_what.c_str(), m_stage.c_str(),
                         int(std::lround(fraction * 100.0)));
            std::fflush(stderr);
            return true;
        };
    }

private:
    std::string m_what;
    bool m_shown;
    // Drawing state, changed by the callback (mutable: showing progress is not the object's
    // value).
    mutable bool m_drawn = false;
    mutable std::string m_stage;
    mutable std::chrono::steady_clock::time_point m_last;
};

} // namespace isoview::cli
