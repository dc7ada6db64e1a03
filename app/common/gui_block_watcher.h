// How freely the GUI thread's event loop runs: a precise timer ticks on it every few
// milliseconds, and the intervals between its ticks say how long the thread was kept from its
// events (work of its own, a wait for another thread, or a wait for a core on a busy machine).
// Frames render on their own thread, so a GUI thread that waits for none keeps the intervals
// near the timer's period however long a frame takes.
//
// Each tick also reads how long the thread has waited for a core so far (the kernel's
// schedstat; 0 where there is none), so an interval can be told apart into what the window did
// or waited for itself and what other programs' work on the same cores took from it.
//
// Example:
//   GuiBlockWatcher watcher;       // on the GUI thread
//   watcher.start();
//   ... drive the window ...
//   watcher.stop();
//   watcher.longestMs();           // the longest interval: the longest block the user felt
//   watcher.longestOwnMs();        // the same less the waits for a core
//
// Thread: GUI (the thread that makes it: the one watched).
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>
#include <vector>

namespace isoview::app {

// How long the thread that made it has waited for a core while it could run, ms, since the
// thread began: /proc/thread-self/schedstat's second field; 0 where there is none.
class RunQueueWait {
public:
    RunQueueWait();
    ~RunQueueWait();
    RunQueueWait(const RunQueueWait&) = delete;
    RunQueueWait& operator=(const RunQueueWait&) = delete;

    double ms() const;

private:
    int m_fd;
};

class GuiBlockWatcher : public QObject {
    Q_OBJECT
public:
    static constexpr int kDefaultPeriodMs = 5;

    explicit GuiBlockWatcher(QObject* parent = nullptr, int periodMs = kDefaultPeriodMs);

    // Starts ticking, forgetting what was measured before.
    void start();
    // Stops, counting the interval from the last tick to now.
    void stop();
    bool isRunning() const { return m_timer.isActive(); }

    // The intervals between ticks, ms, in order (wall time; and less the waits for a core).
    const std::vector<double>& intervals() const { return m_intervals; }
    const std::vector<double>& ownIntervals() const { return m_own; }
    // The longest of each (0 before two ticks).
    double longestMs() const;
    double longestOwnMs() const;
    // How many intervals were longer than ms.
    std::size_t countOver(double ms) const;
    // The waits for a core over the whole watch, ms.
    double runQueueWaitMs() const { return m_lastWaitMs - m_firstWaitMs; }

private:
    void tick();

    QTimer m_timer;
    QElapsedTimer m_clock;
    RunQueueWait m_runQueue; // the GUI thread's: made on it
    qint64 m_lastTickNs = -1;
    double m_firstWaitMs = 0.0;
    double m_lastWaitMs = 0.0;
    std::vector<double> m_intervals;
    std::vector<double> m_own;
};

} // namespace isoview::app
