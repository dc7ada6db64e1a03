// Shared helpers of the GUI tests.
#pragma once

#include <QPalette>
#include <QString>
#include <functional>

class QWidget;

namespace isoview::app::test {

// What main() does before creating the QApplication (application names, settings
// in a throw-away location so tests never read or write the user's settings).
void setUpApplicationDefaults();

// Saves a picture of the widget to $ISOVIEW_TEST_SCREENSHOTS/<name>.png when that is set (to
// look at the widgets); does nothing otherwise.
void saveScreenshot(QWidget& widget, const QString& name);
// A dark desktop palette, to look at the widgets as many users see them.
QPalette darkPalette();
// Runs `act` on the modal dialog once exec() has shown it.
void onModalDialog(std::function<void(QWidget*)> act);

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
