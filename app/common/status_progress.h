// The status bar's progress of a background task: a label, a bar and a Cancel button in one
// widget (hidden until the task runs), and the bar's update from a task's progress.
//
// Thread: GUI only.
#pragma once

#include <QtGlobal>

class QLabel;
class QProgressBar;
class QToolButton;
class QWidget;

namespace isoview::app {

// A hidden widget holding a label, a bar (160 x 16 at most) and a Cancel button, made
// children of parent; *label, *bar and *cancel are set to them.
QWidget* makeProgressWidget(QWidget* parent, QLabel** label, QProgressBar** bar,
                            QToolButton** cancel);

// A bar per mille of the work, or busy (no range) when the total is unknown (zero).
void showProgress(QProgressBar* bar, qint64 done, qint64 total);

} // namespace isoview::app
