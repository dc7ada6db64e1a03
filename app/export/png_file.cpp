#include "export/png_file.h"

#include "core/atomic_file.h"
#include "core/error.h"

#include <QBuffer>
#include <QByteArray>
#include <QFile>
#include <span>

namespace isoview::app {

bool savePng(const QImage& image, const QString& path, QString* error)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    if (!buffer.open(QIODevice::WriteOnly) || !image.save(&buffer, "PNG")) {
        if (error) *error = QObject::tr("%1: the image could not be encoded as PNG").arg(path);
        return false;
    }
    try {
        writeFileAtomically(QFile::encodeName(path).toStdString(),
                            std::as_bytes(std::span(bytes.constData(), std::size_t(bytes.size()))));
    } catch (const Error& e) {
        if (error) *error = QString::fromUtf8(e.what());
        return false;
    }
    return true;
}

} // namespace isoview::app
