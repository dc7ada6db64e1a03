#include "bench/label_open_bench.h"

#include "common/gui_block_watcher.h"
#include "main_window.h"
#include "scene_model.h"
#include "views/frame_worker.h"
#include "views/viewport_widget.h"

#include <QApplication>
#include <QEvent>
#include <QFileInfo>
#include <QTimer>
#include <QWidget>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <string>
#include <utility>
#include <vector>

namespace isoview::app {
namespace {

using Clock = std::chrono::steady_clock;

// CPU time the calling thread has used, ms.
double threadCpuMs()
{
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) * 1e3 + double(t.tv_nsec) / 1e6;
}

double median(std::vector<double> v)
{
    if (v.empty()) return 0.0;
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// Something the GUI thread did, ms from the open.
struct Mark {
    double atMs;
    double cpuMs; // the GUI thread's CPU time since the open
    std::string what;
};

// Work on the render thread, ms from the open.
struct Span {
    double fromMs;
    double toMs;
    std::string what;
};

// A tick of the 5 ms timer: when, and the GUI thread's CPU time then.
struct Tick {
    double atMs;
    double cpuMs;
    double waitMs; // for a core (RunQueueWait)
};

class LabelOpenBench : public QObject {
public:
    LabelOpenBench(MainWindow& window, LabelOpenBenchOptions options)
        : QObject(&window), m_window(window), m_options(std::move(options)),
          m_view(window.viewport())
    {
        m_timer.setInterval(5);
        m_timer.setTimerType(Qt::PreciseTimer);
        connect(&m_timer, &QTimer::timeout, this, [this] {
            m_ticks.push_back({now(), cpu(), m_runQueue.ms() - m_wait0});
        });
        // The progress widgets appear when a load starts on its background task and disappear
        // first thing when its result reaches the GUI thread.
        for (const char* name : {"loadProgress", "labelLoadProgress"}) {
            if (auto* progress = window.findChild<QWidget*>(name))
                progress->installEventFilter(this);
        }
        connect(window.scene(), &SceneModel::changed, this, [this](SceneChanges what) {
            if (what & SceneChange::Volume) mark("volume on the GPU (waited), the scene set");
            if ((what & SceneChange::Labels) && !(what & SceneChange::Volume))
                mark("labels in the scene, the Labels panel filled");
        });
        connect(&window, &MainWindow::volumeLoaded, this, [this] {
            if (!m_started && !m_options.volume.isEmpty()) {
                // The volume settles (its first frames) before the clock starts.
                QTimer::singleShot(500, this, &LabelOpenBench::begin);
                return;
            }
            mark("volume opened (volumeLoaded)");
        });
        connect(&window, &MainWindow::labelsLoaded, this, [this] {
            mark("label map opened (labelsLoaded)");
            if (m_options.table.isEmpty() || m_tableDone) return;
            m_tableDone = true;
            mark("table: reading, applying");
            m_window.openLabelTable(m_options.table); // as main.cpp does after labelsLoaded
            mark("table applied, the Labels panel refilled");
        });
        connect(&window, &MainWindow::loadFailed, this, [this](const QString& m) { fail(m); });
        connect(m_view, &ViewportWidget::glError, this, [this](const QString& m) { fail(m); });
        connect(m_view, &ViewportWidget::frameShown, this, &LabelOpenBench::onFrame);
    }

    void start()
    {
        if (m_options.volume.isEmpty()) {
            // The empty window is shown and painted first: its first paint is no part of
            // opening the label map.
            QTimer::singleShot(500, this, &LabelOpenBench::begin);
        } else {
            m_window.openPath(m_options.volume);
        }
    }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        const bool volume = watched->objectName() == "loadProgress";
        if (event->type() == QEvent::Show)
            mark(volume ? "volume: loading (background)" : "label map: loading (background)");
        if (event->type() == QEvent::Hide)
            mark(volume ? "volume read" : "label map read and analysed");
        return false;
    }

private:
    double now() const
    {
        return std::chrono::duration<double, std::milli>(Clock::now() - m_t0).count();
    }
    double cpu() const { return threadCpuMs() - m_cpu0; }
    void mark(std::string what)
    {
        if (m_started) m_marks.push_back({now(), cpu(), std::move(what)});
    }

    // The clock starts and the label map opens, as `isoview --labels` opens it.
    void begin()
    {
        m_t0 = Clock::now();
        m_cpu0 = threadCpuMs();
        m_wait0 = m_runQueue.ms();
        m_started = true;
        m_timer.start();
        m_ticks.push_back({0.0, 0.0, 0.0});
        mark("open");
        m_window.openLabelMap(m_options.labels);
    }

    void onFrame()
    {
        if (!m_started || m_done) return;
        const RenderedFrame* frame = m_view->shownFrame();
        // Swaps of the window that carry no new frame of the view (status bar text) are not
        // frames.
        if (!frame || m_view->lastFrameStats().framesRendered == m_seenFrame) return;
        m_seenFrame = m_view->lastFrameStats().framesRendered;
        const double from =
            std::chrono::duration<double, std::milli>(frame->startedAt - m_t0).count();
        const double uploaded = from + frame->labelUploadMs;
        if (frame->labelUploadMs > 0.0) m_spans.push_back({from, uploaded, "label map upload"});
        const bool extracted = frame->labelExtractions > m_labelExtractions;
        m_labelExtractions = frame->labelExtractions;
        m_spans.push_back({uploaded, uploaded + frame->renderMs,
                           extracted ? "a frame with the label map's extraction" : "a frame"});
        if (!frame->labelError.isEmpty()) {
            fail(frame->labelError);
            return;
        }
        if (m_firstLabelledMs < 0.0 && frame->labelExtractions > 0 &&
            m_window.scene()->scene().labels) {
            m_firstLabelledMs = now();
            m_firstLabelledCpuMs = cpu();
            mark("the first frame showing the labels");
            QTimer::singleShot(m_options.afterMs, this, &LabelOpenBench::finish);
        }
    }

    void fail(const QString& message)
    {
        if (m_done) return;
        m_done = true;
        std::fprintf(stderr, "isoview-viewer-bench: %s\n", qPrintable(message));
        QTimer::singleShot(0, qApp, [] { QCoreApplication::exit(1); });
    }

    void finish();

    MainWindow& m_window;
    LabelOpenBenchOptions m_options;
    ViewportWidget* m_view;
    QTimer m_timer;
    Clock::time_point m_t0;
    double m_cpu0 = 0.0;
    RunQueueWait m_runQueue; // the GUI thread's: made on it
    double m_wait0 = 0.0;
    bool m_started = false;
    bool m_done = false;
    bool m_tableDone = false;
    std::vector<Tick> m_ticks;
    std::vector<Mark> m_marks;
    std::vector<Span> m_spans;
    std::uint64_t m_seenFrame = 0;
    std::uint64_t m_labelExtractions = 0;
    double m_firstLabelledMs = -1.0;
    double m_firstLabelledCpuMs = 0.0;
};

void LabelOpenBench::finish()
{
    if (m_done) return;
    m_done = true;
    m_timer.stop();
    const double endMs = now();
    const double endCpuMs = cpu();

    std::printf(
        "label map %s%s, table %s, view %dx%d, renderer %s\n",
        qPrintable(QFileInfo(m_options.labels).fileName()),
        m_options.volume.isEmpty() ? " alone (the volume too)"
                                   : qPrintable(" over " + QFileInfo(m_options.volume).fileName()),
        m_options.table.isEmpty() ? "none" : qPrintable(QFileInfo(m_options.table).fileName()),
        m_view->width(), m_view->height(), qPrintable(m_view->rendererName()));
    std::printf("timeline, ms from the open (GUI thread, with its CPU time so far):\n");
    for (const Mark& m : m_marks)
        std::printf("  %9.1f  CPU %6.1f  %s\n", m.atMs, m.cpuMs, m.what.c_str());
    std::printf("render thread, ms from the open (frames over 33 ms and the label map's):\n");
    for (const Span& s : m_spans) {
        if (s.toMs - s.fromMs > 33.0 || s.what != "a frame")
            std::printf("  %9.1f .. %9.1f  %s (%.1f ms)\n", s.fromMs, s.toMs, s.what.c_str(),
                        s.toMs - s.fromMs);
    }

    std::vector<double> intervals;
    std::vector<double> own; // less the waits for a core: what the window itself took
    for (std::size_t i = 1; i < m_ticks.size(); ++i) {
        intervals.push_back(m_ticks[i].atMs - m_ticks[i - 1].atMs);
        own.push_back(intervals.back() - (m_ticks[i].waitMs - m_ticks[i - 1].waitMs));
    }
    std::vector<double> sorted = intervals;
    std::sort(sorted.begin(), sorted.end());
    const auto over = [&](double ms) {
        return std::count_if(sorted.begin(), sorted.end(), [ms](double t) { return t > ms; });
    };
    const double p95 = sorted.empty() ? 0.0 : sorted[sorted.size() * 95 / 100];
    const double max = sorted.empty() ? 0.0 : sorted.back();
    std::printf("first labelled frame %.0f ms after the open; 5 ms timer until %d ms after it: "
                "%zu intervals, median %.1f ms, p95 %.1f ms, max %.1f ms, over 33 ms %td, over "
                "100 ms %td\n",
                m_firstLabelledMs, m_options.afterMs, intervals.size(), median(intervals), p95, max,
                over(33.0), over(100.0));
    const auto ownOver = [&](double ms) {
        return std::count_if(own.begin(), own.end(), [ms](double t) { return t > ms; });
    };
    const double ownMax = own.empty() ? 0.0 : *std::max_element(own.begin(), own.end());
    std::printf("less the GUI thread's waits for a core (%.0f ms in all): max %.1f ms, over 33 ms "
                "%td, over 100 ms %td\n",
                m_ticks.back().waitMs, ownMax, ownOver(33.0), ownOver(100.0));
    std::printf("GUI thread CPU %.0f ms until the first labelled frame, %.0f ms in all (%.0f ms "
                "of wall time)\n",
                m_firstLabelledCpuMs, endCpuMs, endMs);

    // Each long interval with what the GUI thread did last before it and during it, its CPU
    // time and its wait for a core (the rest it was blocked or idle), and the render thread's
    // work overlapping it.
    std::printf("intervals over 33 ms:\n");
    for (std::size_t i = 1; i < m_ticks.size(); ++i) {
        const Tick& a = m_ticks[i - 1];
        const Tick& b = m_ticks[i];
        if (b.atMs - a.atMs <= 33.0) continue;
        std::string after = "-";
        std::string during;
        for (const Mark& m : m_marks) {
            if (m.atMs <= a.atMs) after = m.what;
            if (m.atMs > a.atMs && m.atMs <= b.atMs)
                during += (during.empty() ? "" : "; ") + m.what;
        }
        std::string render;
        for (const Span& s : m_spans) {
            if (s.fromMs < b.atMs && s.toMs > a.atMs)
                render += (render.empty() ? "" : "; ") + s.what;
        }
        std::printf("  %9.1f .. %9.1f  %6.1f ms, GUI CPU %6.1f ms, waiting for a core %6.1f ms "
                    "| after: %s | during: %s | render thread: %s\n",
                    a.atMs, b.atMs, b.atMs - a.atMs, b.cpuMs - a.cpuMs, b.waitMs - a.waitMs,
                    after.c_str(), during.empty() ? "-" : during.c_str(),
                    render.empty() ? "-" : render.c_str());
    }
    // One line for scripts that take medians of runs.
    std::printf("summary first_labelled_ms=%.0f median_ms=%.2f p95_ms=%.2f max_ms=%.1f "
                "over33=%td over100=%td own_max_ms=%.1f own_over33=%td gui_cpu_ms=%.0f "
                "gui_cpu_to_first_ms=%.0f gui_wait_ms=%.0f\n",
                m_firstLabelledMs, median(intervals), p95, max, over(33.0), over(100.0), ownMax,
                ownOver(33.0), endCpuMs, m_firstLabelledCpuMs, m_ticks.back().waitMs);
    std::fflush(stdout);
    QTimer::singleShot(0, qApp, [] { QCoreApplication::quit(); });
}

} // namespace

void startLabelOpenBench(MainWindow& window, const LabelOpenBenchOptions& options)
{
    auto* bench = new LabelOpenBench(window, options);
    QTimer::singleShot(0, bench, [bench] { bench->start(); });
}

} // namespace isoview::app
