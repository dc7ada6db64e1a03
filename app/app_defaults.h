// What the viewer sets up before its QApplication exists: the OpenGL format every window
// shares (core profile, the newest version the engine uses, with a 3.3 floor), and the
// organisation/application names QSettings and QStandardPaths use.
#pragma once

namespace isoview::app {

void setApplicationNames();

} // namespace isoview::app
