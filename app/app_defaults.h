// What the viewer sets up before its QApplication exists: the OpenGL format every window
// shares (core profile, the newest version the engine uses, with a 3.3 floor), and the
// organisation/application names QSettings and QStandardPaths use.
#pragma once

namespace isoview::app {

// Asks for an OpenGL 4.5 core context with a depth buffer (Qt falls back to what the driver
// offers; the engine needs 3.3 core and says so clearly otherwise). Call before QApplication.
void setDefaultSurfaceFormat();
void setApplicationNames();

} // namespace isoview::app
