// Shared helpers of the GUI tests.
#pragma once

#include "extraction/iso_mesh.h"

#include <QColor>
#include <QPalette>
#include <QString>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>

class QAction;
class QObject;
class QWidget;

namespace isoview::app::test {

// The longest the GUI thread may block (issue 26: a frame's worth, 100 ms), less its waits for a
// core. Under AddressSanitizer and UBSan (-O1, every access checked) the same GUI work takes up
// to ten times as long, so the bound there is 1 s: still far below the seconds a GUI thread
// waiting for the render thread blocked (3-9 s, more under the sanitizers).
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ISOVIEW_APP_TEST_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define ISOVIEW_APP_TEST_SANITIZED 1
#endif
#if defined(ISOVIEW_APP_TEST_SANITIZED)
inline constexpr double kMaxGuiBlockMs = 1000.0;
#else
inline constexpr double kMaxGuiBlockMs = 100.0;
#endif

// The bundled sample (an MR head, resources/samples/mr_head.nhdr) in the source tree.
QString samplePath();

// A stand-in for a 512 x 512 x 140 head CT, as packaging/make-resampled-ct.py makes the
// benchmarks' one: the Philips head phantom of the shared data (512 x 512 x 28, 5 mm slices)
// interpolated linearly along z to 140 slices, written into folder as an int16 NRRD (73 MB, its
// values' rescale kept: HU). Returns its path. About a second.
std::filesystem::path writeCtStandIn(const std::filesystem::path& folder);

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

// Makes the widget's window the active one and waits until it is; false after timeoutMs. The
// GUI tests share one X display under ctest -j and no window manager arbitrates: another test's
// window can take the activation between our request and its arrival, so the request is
// repeated until it holds instead of made once.
bool activate(QWidget& widget, int timeoutMs = 20000);

// The window's part of type T (a panel, tool, controller): found among its children, as a user
// finds it on screen, so the window need not hand its parts out. A missing part fails the test
// (and gives null).
template <class T> T* part(const QObject& window);
// The window's surface colour (Surface > Colour): the selected surface's own colour as the
// Surfaces dock gives it, none when the transfer function colours it.
std::optional<QColor> selectedSurfaceColor(const QObject& window);
// The window's action named `name` (QObject::objectName); a missing one fails the test.
QAction* action(const QObject& window, const char* name);

// A binary little-endian PLY as isoview writes it (float x y z first, optional float normals
// and uchar colours, faces as uchar 3 + int indices), read back without the writer's code: its
// header and its mesh (positions and triangles; normals zero, each vertex its own edge key).
// An empty header when the file is not of that layout.
struct PlyMesh {
    std::string header;
    IsoMesh mesh;
};
PlyMesh readBinaryPly(const std::filesystem::path& path);

// A dialog shown and exposed on screen for a test, and its named children (a child that is
// missing fails the test). Each dialog's test derives its driver from it.
template <class Dialog> struct ShownDialog {
    explicit ShownDialog(std::unique_ptr<Dialog> shown);
    template <class Widget> Widget* child(const char* name) const;

    std::unique_ptr<Dialog> dialog;
};

} // namespace isoview::app::test

#include <gtest/gtest.h>

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTest>
#include <QThread>

template <class Dialog>
isoview::app::test::ShownDialog<Dialog>::ShownDialog(std::unique_ptr<Dialog> shown)
    : dialog(std::move(shown))
{
    dialog->show();
    EXPECT_TRUE(QTest::qWaitForWindowExposed(dialog.get()));
}

template <class Dialog>
template <class Widget>
Widget* isoview::app::test::ShownDialog<Dialog>::child(const char* name) const
{
    auto* widget = dialog->template findChild<Widget*>(name);
    EXPECT_NE(widget, nullptr) << name;
    return widget;
}

template <class T> T* isoview::app::test::part(const QObject& window)
{
    T* found = window.findChild<T*>();
    EXPECT_NE(found, nullptr) << "the window has no " << T::staticMetaObject.className();
    return found;
}

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
