// isoview-viewer-bench --labels: how freely the window's GUI thread runs while a label map opens,
// from the open to the first frame that shows its labels and a while after (viewer_bench.cpp
// says what it prints). The label map opens as the command line opens it (main.cpp): through
// MainWindow::openLabelMap, alone (then it is the volume too) or over a volume opened first, and
// its table through MainWindow::openLabelTable once the labels are in.
//
// Thread: GUI. The window outlives the bench.
#pragma once

#include <QString>

namespace isoview::app {

class MainWindow;

struct LabelOpenBenchOptions {
    QString volume; // opened first, and the clock starts after it; empty: the label map alone
    QString labels;
    QString table;      // empty: none
    int afterMs = 1000; // the ticks go on this long after the first labelled frame
};

// Starts the measurement in the application's event loop and returns; the application exits
// with 0 once it has printed the figures, with 1 when the volume or label map fails to open.
void startLabelOpenBench(MainWindow& window, const LabelOpenBenchOptions& options);

} // namespace isoview::app
