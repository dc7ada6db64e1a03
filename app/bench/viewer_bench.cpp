// isoview-viewer-bench [PATH] [--iso VALUE] [--frames N] [--size WxH] [--view WxH]
//                      [--layout 2x2|1x3|3d] [--mode surface|volume|both|mip|minip|average]
//                      [--no-preview]
// isoview-viewer-bench [PATH] --labels FILE [--label-table FILE] [--after MS] [--size WxH] ...
// isoview-viewer-bench PATH --play N [--iso VALUE] [--view WxH] [--layout ...] [--mode ...]
// Measures what a user feels while dragging the isovalue, in the real window (MainWindow, the
// view's render thread, the same renderer), on the bundled sample by default:
// 1. "every frame": the isovalue changes once per frame (a new value as soon as the previous
//    frame is swapped), sweeping +-10% around VALUE: frames per second and the delay from the
//    change to the swap of the frame that shows it.
// 2. "drag at 200 Hz": a timer offers a new value every 5 ms, as mouse moves do (and then,
//    "after the drag", how long after the last value the full surface showing it arrives: after
//    a drag's previews it waits for the pause); frames per
//    second and the delay from the oldest value not yet on screen to the swap of the frame that
//    shows the newest one (during a long drag no frame shows the newest value, so this grows
//    with the drag); and how freely the GUI thread runs meanwhile: the intervals between the
//    timer's ticks (median, 95th percentile, max). Frames render on their own thread, so these
//    stay near 5 ms however long a frame takes; a GUI thread blocked by a frame would show the
//    frame time here.
// Both count the frames that showed the half-resolution surface of a drag (View > Coarse
// Surface While Dragging, on unless --no-preview; only when full frames are slow) and print the
// median age of the surface on screen: at each swap, how long ago the isovalue
// it shows was set. That is what a user dragging the slider sees: how far the surface lags the
// thumb. And the GUI thread's CPU time per frame: on a machine without a GPU the window's own
// work (events, repaints, text) runs on the cores the renderer needs. And the GUI thread's
// longest block (common/gui_block_watcher.h: a 5 ms timer's longest interval, and the same less
// its waits for a core): what the user feels as a freeze.
// 3. "--labels FILE" (label_open_bench.h): how freely the GUI thread runs while a label map
//    opens, as `isoview [PATH] --labels FILE --label-table TABLE` opens it (without PATH the
//    label map is the volume too, and the clock starts once the empty window is painted; with
//    PATH it starts once PATH is shown): the load and analysis on their background tasks, the
//    Labels panel's rows, the upload and the one-pass extraction on the render thread, the first
//    frame that shows the labels. A 5 ms timer ticks on the GUI thread from the open until MS
//    (default 1000) after that frame is shown. Prints the time to that frame; the ticks'
//    intervals (median, 95th percentile, max, how many over 33 ms, the 30 Hz the window must
//    keep, and over 100 ms), and the same less the GUI thread's waits for a core (the kernel's
//    schedstat: what the window itself took, on a machine busy with other work); the GUI
//    thread's CPU time; a timeline of the phases (GUI thread marks with its CPU time, and the
//    render thread's upload and extraction from the frames' own timings); and each interval
//    over 33 ms with the phase it fell in, its GUI CPU time and its wait for a core (the rest
//    the thread was blocked or idle). The last line, "summary ...", is for scripts.
// 4. "--play N" (play_bench.h): PATH, a series of volumes on one grid, played as the time bar
//    plays it, at its fastest: time points shown a second over N steps, each step's latency to
//    its frame, the GUI thread's longest block.
// The window is --size, or sized so that the 3D view itself is --view (what compares with a
// program that renders the whole window, as HPMC's demo does: --layout 3d --view 1280x720).
// Prints medians. Needs a display (xvfb-run on headless machines).
#include "bench/label_open_bench.h"
#include "bench/play_bench.h"
#include "common/app_defaults.h"
#include "common/gui_block_watcher.h"
#include "core/heap_reuse.h"
#include "main_window.h"
#include "scene/scene.h"
#include "scene_model.h"
#include "surfaces/isovalue_panel.h"
#include "view_layout.h"
#include "views/viewport_widget.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QSize>
#include <QTimer>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <optional>
#include <utility>
#include <vector>

#ifndef ISOVIEW_SAMPLE_DIR
#define ISOVIEW_SAMPLE_DIR ""
#endif

namespace {

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

} // namespace

int main(int argc, char** argv)
{
    isoview::keepFreedHeapForReuse(); // as the viewer does (core/heap_reuse.h)
    QCoreApplication::setOrganizationName("isoview-bench");
    QCoreApplication::setApplicationName("isoview-viewer-bench");
    QApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addHelpOption();
    parser.addPositionalArgument("path", "Volume (default: the bundled sample).", "[PATH]");
    QCommandLineOption isoOption("iso", "Centre isovalue, real units (default 40).", "VALUE", "40");
    QCommandLineOption framesOption("frames", "Frames per measurement (default 60).", "N", "60");
    QCommandLineOption sizeOption("size", "Window size (default 1280x800).", "WxH", "1280x800");
    QCommandLineOption viewOption("view", "Size the window so that the 3D view is WxH.", "WxH");
    QCommandLineOption layoutOption("layout", "2x2 (default, the viewer's), 1x3 or 3d.", "LAYOUT",
                                    "2x2");
    QCommandLineOption modeOption("mode", "surface (default), volume, both, mip, minip or average.",
                                  "MODE", "surface");
    QCommandLineOption labelsOption("labels",
                                    "Measure the GUI thread while this label map opens (over "
                                    "PATH when given, else alone, as isoview --labels does).",
                                    "FILE");
    QCommandLineOption labelTableOption("label-table", "The label map's table.", "FILE");
    QCommandLineOption afterOption(
        "after",
        "--labels: keep measuring this long after the first labelled frame (default 1000).", "MS",
        "1000");
    QCommandLineOption playOption(
        "play", "Play PATH, a series of volumes on one grid, for N steps at the fastest rate.",
        "N");
    QCommandLineOption noPreviewOption(
        "no-preview",
        "Turn View > Coarse Surface While Dragging off: every frame at full resolution.");
    parser.addOptions({isoOption, framesOption, sizeOption, viewOption, layoutOption, modeOption,
                       labelsOption, labelTableOption, afterOption, playOption, noPreviewOption});
    parser.process(app);
    const double centre = parser.value(isoOption).toDouble();
    const int frames = std::max(5, parser.value(framesOption).toInt());
    QString path = parser.positionalArguments().value(0);
    const bool labelsMode = parser.isSet(labelsOption);
    if (parser.isSet(labelTableOption) && !labelsMode) {
        std::fprintf(stderr, "isoview-viewer-bench: --label-table names the labels of --labels\n");
        return 2;
    }
    if (path.isEmpty() && !labelsMode) path = QStringLiteral(ISOVIEW_SAMPLE_DIR "/mr_head.nhdr");
    const auto sizeOf = [&](const QCommandLineOption& option) -> std::optional<QSize> {
        const QStringList wh = parser.value(option).split('x');
        bool okW = false;
        bool okH = false;
        const QSize size(wh.value(0).toInt(&okW), wh.value(1).toInt(&okH));
        if (wh.size() != 2 || !okW || !okH || size.width() < 64 || size.height() < 64) {
            std::fprintf(stderr, "isoview-viewer-bench: --%s expects WxH (at least 64x64)\n",
                         qPrintable(option.names().first()));
            return std::nullopt;
        }
        return size;
    };
    const std::optional<QSize> windowSize = sizeOf(sizeOption);
    std::optional<QSize> viewSize;
    if (parser.isSet(viewOption) && !(viewSize = sizeOf(viewOption))) return 2;
    if (!windowSize) return 2;
    const std::optional<isoview::RenderMode> mode =
        isoview::renderModeFromName(parser.value(modeOption).toStdString());
    if (!mode) {
        std::fprintf(stderr, "isoview-viewer-bench: --mode expects %s\n",
                     isoview::kRenderModeNameList.data());
        return 2;
    }
    const QStringList layouts = {"2x2", "1x3", "3d"};
    const qsizetype layout = layouts.indexOf(parser.value(layoutOption));
    if (layout < 0) {
        std::fprintf(stderr, "isoview-viewer-bench: --layout expects 2x2, 1x3 or 3d\n");
        return 2;
    }

    isoview::app::MainWindow window;
    // Always set: the layout is remembered, and a bench run must not depend on the one before.
    window.findChild<isoview::app::ViewLayout*>()->setLayout(
        isoview::app::ViewLayout::Layout(layout));
    window.resize(*windowSize);
    window.show();
    auto* view = window.viewport();
    // Always set: the setting is remembered (in the bench's own settings, not the viewer's).
    view->surfacePreviewAction()->setChecked(!parser.isSet(noPreviewOption));
    // Grows or shrinks the window by what the 3D view lacks or has over --view.
    const auto fitView = [&] {
        if (!viewSize) return;
        QCoreApplication::processEvents();
        window.resize(window.size() + (*viewSize - view->size()));
        QCoreApplication::processEvents();
    };
    fitView();
    window.scene()->setRenderMode(*mode);
    if (labelsMode) {
        isoview::app::LabelOpenBenchOptions options;
        options.volume = path;
        options.labels = parser.value(labelsOption);
        options.table = parser.value(labelTableOption);
        options.afterMs = std::max(0, parser.value(afterOption).toInt());
        isoview::app::startLabelOpenBench(window, options);
        return app.exec();
    }
    if (parser.isSet(playOption)) {
        isoview::app::PlayBenchOptions options;
        options.path = path;
        options.isovalue = centre;
        options.steps = std::max(2, parser.value(playOption).toInt());
        isoview::app::startPlayBench(window, options);
        return app.exec();
    }
    // The values go in through the isovalue panel, as the user's do.
    auto* panel = window.findChild<isoview::app::IsovaluePanel*>();

    // The sweep: +-10% around the centre, a new value each step.
    auto valueAt = [&](int i) {
        const double phase = double(i % 40) / 40.0;
        const double tri = phase < 0.5 ? phase * 2.0 : 2.0 - phase * 2.0;
        // Never the same value twice (the sweep repeats every 40 steps), so that a frame's
        // isovalue names the one setting it shows.
        const double unique = i * 1e-9 * std::max(1.0, std::abs(centre));
        return centre * (0.9 + 0.2 * tri) + (i % 2) * 1e-3 + unique;
    };

    enum class Phase { Loading, EveryFrame, Drag, Settling, Done } phase = Phase::Loading;
    qint64 dragStopped = 0; // when the drag's last value was set
    std::vector<double> intervals, latencies, ages;
    QElapsedTimer clock;
    clock.start();
    // Every value set, with when (ns): a swapped frame's isovalue is looked up here for its age.
    std::vector<std::pair<double, qint64>> offered;
    const auto offer = [&](double value) {
        offered.emplace_back(value, clock.nsecsElapsed());
        panel->setIsovalue(value);
    };
    // A frame's isovalue against a value set (the renderer keeps it to rounding).
    const auto sameValue = [](double a, double b) {
        return std::abs(a - b) <= 1e-12 * std::max(1.0, std::abs(b));
    };
    qint64 lastSwap = -1;
    std::uint64_t seenFrames = 0;
    int frame = 0;
    int previewFrames = 0; // of the phase's, drawn from the half-resolution surface
    int step = 0;
    QTimer dragTimer;
    dragTimer.setInterval(5);
    dragTimer.setTimerType(Qt::PreciseTimer);
    std::vector<double> ticks; // GUI thread: intervals between drag-timer ticks, ms
    qint64 lastTick = -1;
    QObject::connect(&dragTimer, &QTimer::timeout, [&] {
        const qint64 now = clock.nsecsElapsed();
        if (lastTick >= 0) ticks.push_back(double(now - lastTick) / 1e6);
        lastTick = now;
        offer(valueAt(++step));
    });

    // The GUI thread's longest block in each phase: a 5 ms timer's longest interval.
    isoview::app::GuiBlockWatcher blocks;
    double phaseCpuStart = 0.0; // GUI thread CPU at the phase's first frame
    auto report = [&](const char* name) {
        const double guiCpuPerFrame =
            intervals.empty() ? 0.0 : (threadCpuMs() - phaseCpuStart) / double(intervals.size());
        std::vector<double> fps;
        fps.reserve(intervals.size());
        for (double dt : intervals)
            fps.push_back(1000.0 / dt);
        std::printf("%-16s frames %zu  median fps %.1f  median frame %.1f ms  median latency "
                    "%.1f ms  median age %.1f ms  GUI CPU %.2f ms/frame  preview frames %d",
                    name, intervals.size(), median(fps), median(intervals), median(latencies),
                    median(ages), guiCpuPerFrame, previewFrames);
        if (!ticks.empty()) {
            std::sort(ticks.begin(), ticks.end());
            std::printf("  GUI ticks %zu  median %.1f ms  p95 %.1f ms  max %.1f ms", ticks.size(),
                        median(ticks), ticks[ticks.size() * 95 / 100], ticks.back());
            ticks.clear();
        }
        blocks.stop();
        std::printf("  longest GUI block %.1f ms (%.1f ms less waits for a core)\n",
                    blocks.longestMs(), blocks.longestOwnMs());
        blocks.start();
        intervals.clear();
        latencies.clear();
        ages.clear();
        frame = 0;
        previewFrames = 0;
        lastSwap = -1;
    };

    // The full surface of the drag's last value is on screen: the last figure, then quit.
    const auto reportSettled = [&](qint64 now) {
        std::printf("after the drag   full surface on screen %.1f ms after the last value\n",
                    double(now - dragStopped) / 1e6);
        phase = Phase::Done;
        QTimer::singleShot(0, &app, &QApplication::quit);
    };

    // Connected after the view's own handler, which updates lastFrameStats() first; swaps of
    // the window that carry no new frame of the view (status bar text) are not frames.
    QObject::connect(view, &isoview::app::ViewportWidget::frameShown, [&] {
        if (phase == Phase::Loading || phase == Phase::Done) return;
        if (view->lastFrameStats().framesRendered == seenFrames) return;
        seenFrames = view->lastFrameStats().framesRendered;
        const qint64 now = clock.nsecsElapsed();
        const auto& stats = view->lastFrameStats();
        if (phase == Phase::Settling) {
            // The full surface of the drag's last value, after the previews.
            if (stats.surfacePreview || !stats.renderedIsovalue ||
                !sameValue(*stats.renderedIsovalue, offered.back().first))
                return;
            reportSettled(now);
            return;
        }
        // Every frame: the next value once the screen shows the last one. A frame still showing
        // an earlier value (the load's, racing the first setting) would otherwise set a second
        // value while the first is in flight, and every later frame would lag one behind.
        if (phase == Phase::EveryFrame && !offered.empty() &&
            (!stats.renderedIsovalue || !sameValue(*stats.renderedIsovalue, offered.back().first)))
            return;
        if (lastSwap < 0) phaseCpuStart = threadCpuMs();
        if (lastSwap >= 0) {
            if (stats.surfacePreview) ++previewFrames;
            intervals.push_back(double(now - lastSwap) / 1e6);
            if (stats.isovalueLatencyMs) latencies.push_back(*stats.isovalueLatencyMs);
        }
        if (stats.renderedIsovalue) {
            // The setting of the value on screen (every value is set once).
            const double shown = *stats.renderedIsovalue;
            const auto it = std::find_if(offered.rbegin(), offered.rend(),
                                         [&](const auto& o) { return sameValue(o.first, shown); });
            if (it != offered.rend()) ages.push_back(double(now - it->second) / 1e6);
        }
        lastSwap = now;
        if (++frame > frames) {
            if (phase == Phase::EveryFrame) {
                report("every frame");
                phase = Phase::Drag;
                dragTimer.start();
                return;
            }
            dragTimer.stop();
            dragStopped = offered.back().second;
            report("drag at 200 Hz");
            phase = Phase::Settling;
            if (!stats.surfacePreview && stats.renderedIsovalue &&
                sameValue(*stats.renderedIsovalue, offered.back().first))
                reportSettled(now);
            return;
        }
        if (phase == Phase::EveryFrame) offer(valueAt(++step));
    });
    QObject::connect(&window, &isoview::app::MainWindow::volumeLoaded, [&] {
        fitView(); // the panels have their volume's content now
        if (viewSize && view->size() != *viewSize) {
            std::fprintf(stderr,
                         "isoview-viewer-bench: the 3D view is %dx%d, not the %dx%d asked for "
                         "(a screen too small for the window?)\n",
                         view->width(), view->height(), viewSize->width(), viewSize->height());
            app.exit(1);
            return;
        }
        std::printf("volume %s, view %dx%d, mode %s, renderer %s\n",
                    qPrintable(QFileInfo(path).fileName()), view->width(), view->height(),
                    isoview::renderModeName(*mode).data(), qPrintable(view->rendererName()));
        QTimer::singleShot(500, [&] {
            phase = Phase::EveryFrame;
            blocks.start();
            offer(valueAt(++step));
        });
    });
    QObject::connect(&window, &isoview::app::MainWindow::loadFailed, [&](const QString& m) {
        std::fprintf(stderr, "isoview-viewer-bench: %s\n", qPrintable(m));
        app.exit(1);
    });
    QTimer::singleShot(0, [&] { window.openPath(path, centre); });
    return app.exec();
}
