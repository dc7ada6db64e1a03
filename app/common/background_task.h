// Runs one piece of slow work (loading a volume, writing a mesh) on Qt's thread pool, so the
// window never freezes, and brings its progress and outcome back to the GUI thread as signals.
// The work sees a TaskContext: a LoadMonitor whose progress() is forwarded (throttled to
// ~20 updates a second) and whose cancelRequested() turns true after cancel().
//
// Outcome: exactly one of succeeded(), failed(message) or cancelled() per start(), emitted on
// the task's thread. The work's results travel through state the caller captures in the work
// (a shared_ptr), read in the succeeded() handler. Work that throws CancelledError ends as
// cancelled(); any other exception as failed(what()). Deleting the task while work runs is
// safe: the work finishes in the background and its signals are dropped.
//
// Example:
//   auto result = std::make_shared<std::optional<Volume>>();
//   task->start([path, result](TaskContext& ctx) { result->emplace(io::loadVolume(path, {}, &ctx));
//   });
#pragma once

#include "io/load_monitor.h"

#include <QObject>
#include <QString>
#include <atomic>
#include <functional>
#include <memory>

namespace isoview::app {

class TaskContext : public io::LoadMonitor {
public:
    void progress(std::string_view stage, std::uint64_t done, std::uint64_t total) override;
    bool cancelRequested() const override;

private:
    friend class BackgroundTask;
    struct Shared;
    std::shared_ptr<Shared> m_shared;
};

class BackgroundTask : public QObject {
    Q_OBJECT
public:
    using Work = std::function<void(TaskContext&)>;

    explicit BackgroundTask(QObject* parent = nullptr);
    ~BackgroundTask() override;

    // Starts the work; returns false (and does nothing) while a previous start is running.
    bool start(Work work);
    void cancel();
    bool isRunning() const { return m_running; }

signals:
    void progressChanged(const QString& stage, qint64 done, qint64 total);
    void succeeded();
    void failed(const QString& message);
    void cancelled();

private:
    void finish(int outcome, const QString& message);

    bool m_running = false;
    std::shared_ptr<TaskContext::Shared> m_current;
};

} // namespace isoview::app
