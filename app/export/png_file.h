// Saves an image as PNG through the engine's AtomicFileWriter, so screenshots follow the same
// rule as every other output: only regular files are written (a FIFO or device at the path is
// refused, where QSaveFile would write into it directly), never a file an open volume was read
// from, and never a partial file.
#pragma once

#include <QImage>
#include <QString>

namespace isoview::app {

// True when path now holds image as PNG; otherwise false with a message for a person in error.
bool savePng(const QImage& image, const QString& path, QString* error);

} // namespace isoview::app
