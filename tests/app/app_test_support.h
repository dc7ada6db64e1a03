// Shared helpers of the GUI tests.
#pragma once

#include <QString>

namespace isoview::app::test {

// What main() does before creating the QApplication (GL format, application names, settings
// in a throw-away location so tests never read or write the user's settings).
void setUpApplicationDefaults();

// Processes events until pred() is true or timeoutMs passes; returns pred().
template <typename Pred> bool waitUntil(Pred pred, int timeoutMs = 20000);

} // namespace isoview::app::test

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QThread>

template <typename Pred> bool isoview::app::test::waitUntil(Pred pred, int timeoutMs)
{
    QElapsedTimer timer;
    timer.start();
    while (!pred()) {
        if (timer.elapsed() > timeoutMs) return pred();
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        QThread::msleep(2);
    }
    return true;
}
