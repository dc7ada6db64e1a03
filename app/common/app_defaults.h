// What the viewer sets up before its QApplication exists: the OpenGL format every window
// shares (core profile, the newest version the engine uses, with a 3.3 floor), and the
// organisation/application names QSettings and QStandardPaths use, the version and the desktop
// entry the window belongs to.
#pragma once

namespace isoview::app {

void setApplicationNames();

} // namespace isoview::app
