// isoview-viewer-bench PATH --play N: how fast the window plays a series of volumes on one grid
// (a 4-D NIfTI, a DICOM series of time points), as the time bar plays it (Playback at its
// fastest rate): each step waits until the 3D view shows the time point before, its surfaces
// extracted from that time point's values. Prints the time points shown a second over N steps,
// each step's latency (from the step to the swap of the frame that shows it: the values' upload
// and the extraction) as median and maximum, and the GUI thread's longest block meanwhile
// (common/gui_block_watcher.h). The last line, "summary ...", is for scripts.
//
// Thread: GUI. The window outlives the bench.
#pragma once

#include <QString>

namespace isoview::app {

class MainWindow;

struct PlayBenchOptions {
    QString path;
    double isovalue = 0.0; // real units
    int steps = 20;
};

// Starts the measurement in the application's event loop and returns; the application exits
// with 0 once it has printed the figures, with 1 when the volume fails to open or is no series.
void startPlayBench(MainWindow& window, const PlayBenchOptions& options);

} // namespace isoview::app
