// Where the save dialogs of things the viewer writes (surfaces, screenshots, transfer
// functions, movies) start: the folder last written to for that kind, remembered in QSettings under
// output/<kind>Folder, else the user's documents folder (QStandardPaths::DocumentsLocation),
// else home. Never the scan's folder, which is often read-only (a CD, a PACS export, a share).
// A remembered folder that no longer exists falls back the same way. GUI thread only (QSettings
// of the application); nothing throws.
#pragma once

#include <QString>

namespace isoview::app {

enum class OutputKind { Surface, Screenshot, TransferFunction, Movie };

// The folder a save dialog for kind starts in (an existing directory, absolute).
QString outputFolder(OutputKind kind);
// Remembers the folder of a file just written (path: that file).
void rememberOutputFolder(OutputKind kind, const QString& writtenFile);

} // namespace isoview::app
