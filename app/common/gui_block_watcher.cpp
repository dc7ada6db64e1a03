#include "common/gui_block_watcher.h"

#include <algorithm>
#include <cstdio>
#include <fcntl.h>
#include <unistd.h>

namespace isoview::app {

RunQueueWait::RunQueueWait() : m_fd(::open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC)) {}

RunQueueWait::~RunQueueWait()
{
    if (m_fd >= 0) ::close(m_fd);
}

double RunQueueWait::ms() const
{
    char text[128];
    const ssize_t n = m_fd >= 0 ? ::pread(m_fd, text, sizeof text - 1, 0) : -1;
    if (n <= 0) return 0.0;
    text[n] = '\0';
    unsigned long long run = 0;
    unsigned long long wait = 0;
    if (std::sscanf(text, "%llu %llu", &run, &wait) != 2) return 0.0;
    return double(wait) / 1e6;
}

GuiBlockWatcher::GuiBlockWatcher(QObject* parent, int periodMs) : QObject(parent)
{
    m_timer.setInterval(periodMs);
    m_timer.setTimerType(Qt::PreciseTimer);
    connect(&m_timer, &QTimer::timeout, this, &GuiBlockWatcher::tick);
}

void GuiBlockWatcher::start()
{
    m_intervals.clear();
    m_own.clear();
    m_clock.start();
    m_lastTickNs = 0;
    m_firstWaitMs = m_lastWaitMs = m_runQueue.ms();
    m_timer.start();
}

void GuiBlockWatcher::stop()
{
    if (!m_timer.isActive()) return;
    tick();
    m_timer.stop();
}

void GuiBlockWatcher::tick()
{
    const qint64 now = m_clock.nsecsElapsed();
    const double wait = m_runQueue.ms();
    const double interval = double(now - m_lastTickNs) / 1e6;
    m_intervals.push_back(interval);
    m_own.push_back(std::max(0.0, interval - (wait - m_lastWaitMs)));
    m_lastTickNs = now;
    m_lastWaitMs = wait;
}

double GuiBlockWatcher::longestMs() const
{
    return m_intervals.empty() ? 0.0 : *std::max_element(m_intervals.begin(), m_intervals.end());
}

double GuiBlockWatcher::longestOwnMs() const
{
    return m_own.empty() ? 0.0 : *std::max_element(m_own.begin(), m_own.end());
}

std::size_t GuiBlockWatcher::countOver(double ms) const
{
    return std::size_t(
        std::count_if(m_intervals.begin(), m_intervals.end(), [ms](double t) { return t > ms; }));
}

} // namespace isoview::app
