#include "bench/play_bench.h"

#include "common/gui_block_watcher.h"
#include "main_window.h"
#include "scene_model.h"
#include "time/playback.h"
#include "time/time_bar.h"
#include "views/viewport_widget.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <algorithm>
#include <cstdio>
#include <memory>
#include <vector>

namespace isoview::app {

namespace {

double median(std::vector<double> v)
{
    if (v.empty()) return 0.0;
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

struct PlayState {
    PlayBenchOptions options;
    QElapsedTimer clock;
    std::vector<double> latencies; // ms, step to the swap showing it
    qint64 stepAt = -1;            // ns on clock, of the step not yet shown
    qint64 startedAt = 0;
    int shown = 0;
    bool started = false;
    GuiBlockWatcher watcher;
};

void finish(MainWindow& window, PlayState& s)
{
    window.timeBar()->playback()->setPlaying(false);
    s.watcher.stop();
    const double seconds = double(s.clock.nsecsElapsed() - s.startedAt) / 1e9;
    const double rate = double(s.shown) / seconds;
    const Scene& scene = window.scene()->scene();
    const glm::uvec3 d = scene.volume->dims();
    std::printf("play: %zu time points of %ux%ux%u, %d steps in %.2f s: %.2f time points/s\n",
                scene.timePointCount(), d.x, d.y, d.z, s.shown, seconds, rate);
    std::printf("step to its frame on screen: median %.1f ms, max %.1f ms\n", median(s.latencies),
                s.latencies.empty() ? 0.0
                                    : *std::max_element(s.latencies.begin(), s.latencies.end()));
    std::printf("GUI thread longest block: %.1f ms (own %.1f ms)\n", s.watcher.longestMs(),
                s.watcher.longestOwnMs());
    std::printf("summary play_rate %.3f step_median_ms %.2f gui_block_ms %.1f\n", rate,
                median(s.latencies), s.watcher.longestMs());
    std::fflush(stdout);
    QCoreApplication::exit(0);
}

} // namespace

void startPlayBench(MainWindow& window, const PlayBenchOptions& options)
{
    auto state = std::make_shared<PlayState>();
    state->options = options;
    state->clock.start();
    ViewportWidget* view = window.viewport();
    Playback* playback = window.timeBar()->playback();
    QObject::connect(&window, &MainWindow::loadFailed, &window, [](const QString& why) {
        std::fprintf(stderr, "isoview-viewer-bench: %s\n", qPrintable(why));
        QCoreApplication::exit(1);
    });
    // A step is shown when a frame of its time point is swapped.
    QObject::connect(view, &ViewportWidget::frameShown, &window, [&window, view, state] {
        PlayState& s = *state;
        const Scene& scene = window.scene()->scene();
        if (!scene.volume || !view->showsSceneVolume()) return;
        if (!s.started) {
            if (!scene.series) {
                std::fprintf(stderr,
                             "isoview-viewer-bench: %s is not a series of volumes on "
                             "one grid\n",
                             qPrintable(s.options.path));
                QCoreApplication::exit(1);
                return;
            }
            s.started = true;
            s.startedAt = s.clock.nsecsElapsed();
            s.watcher.start();
            window.timeBar()->playback()->setRate(120.0);
            window.timeBar()->playback()->setPlaying(true);
            return;
        }
        if (s.stepAt < 0) return;
        s.latencies.push_back(double(s.clock.nsecsElapsed() - s.stepAt) / 1e6);
        s.stepAt = -1;
        if (++s.shown >= s.options.steps) finish(window, s);
    });
    QObject::connect(window.scene(), &SceneModel::changed, &window, [state](SceneChanges what) {
        if ((what & SceneChange::TimePoint) && state->started && state->stepAt < 0)
            state->stepAt = state->clock.nsecsElapsed();
    });
    playback->setLoop(true);
    window.openPath(options.path, options.isovalue);
}

} // namespace isoview::app
