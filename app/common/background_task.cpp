#include "common/background_task.h"

#include "core/error.h"
#include "core/log.h"

#include <QElapsedTimer>
#include <QMetaObject>
#include <QPointer>
#include <QThreadPool>
#include <exception>
#include <mutex>

namespace isoview::app {

struct TaskContext::Shared {
    std::atomic<bool> cancel{false};
    QPointer<BackgroundTask> task;
    std::mutex mutex; // guards the throttle timer
    QElapsedTimer sinceLastReport;
};

namespace {
enum Outcome { kSucceeded, kFailed, kCancelled };
constexpr qint64 kProgressIntervalMs = 50;
} // namespace

void TaskContext::progress(std::string_view stage, std::uint64_t done, std::uint64_t total)
{
    {
        std::lock_guard lock(m_shared->mutex);
        const bool last = total != 0 && done >= total;
        if (m_shared->sinceLastReport.isValid() && !last &&
            m_shared->sinceLastReport.elapsed() < kProgressIntervalMs)
            return;
        m_shared->sinceLastReport.start();
    }
    const QString text = QString::fromUtf8(stage.data(), qsizetype(stage.size()));
    QPointer<BackgroundTask> task = m_shared->task;
    if (!task) return;
    QMetaObject::invokeMethod(
        task.data(),
        [task, text, done, total] {
            if (task) emit task->progressChanged(text, qint64(done), qint64(total));
        },
        Qt::QueuedConnection);
}

bool TaskContext::cancelRequested() const
{
    return m_shared->cancel.load();
}

BackgroundTask::BackgroundTask(QObject* parent) : QObject(parent) {}

BackgroundTask::~BackgroundTask()
{
    // The work keeps running to its end (it cannot be interrupted safely) but is told to stop.
    if (m_current) m_current->cancel = true;
}

bool BackgroundTask::start(Work work)
{
    if (m_running) return false;
    m_running = true;
    auto shared = std::make_shared<TaskContext::Shared>();
    shared->task = this;
    m_current = shared;
    QThreadPool::globalInstance()->start([shared, work = std::move(work)] {
        TaskContext context;
        context.m_shared = shared;
        int outcome = kSucceeded;
        QString message;
        try {
            work(context);
        } catch (const CancelledError&) {
            outcome = kCancelled;
        } catch (const std::exception& e) {
            outcome = kFailed;
            message = QString::fromUtf8(e.what());
        } catch (...) {
            outcome = kFailed;
            message = QStringLiteral("unknown error");
        }
        if (outcome == kSucceeded && shared->cancel.load()) outcome = kCancelled;
        QPointer<BackgroundTask> task = shared->task;
        if (!task) return;
        QMetaObject::invokeMethod(
            task.data(),
            [task, shared, outcome, message] {
                // A task restarted since is not told about its predecessor's end.
                if (task && task->m_current == shared) task->finish(outcome, message);
            },
            Qt::QueuedConnection);
    });
    return true;
}

void BackgroundTask::cancel()
{
    if (m_current) m_current->cancel = true;
}

void BackgroundTask::finish(int outcome, const QString& message)
{
    m_running = false;
    m_current.reset();
    switch (outcome) {
    case kSucceeded: emit succeeded(); break;
    case kCancelled: emit cancelled(); break;
    default:
        log::get("app")->error("{}", message.toStdString());
        emit failed(message);
        break;
    }
}

} // namespace isoview::app
