#include "common/output_folders.h"

#include <QDir>
#include <QFileInfo>
#include <QSettings>
#include <QStandardPaths>

namespace isoview::app {
namespace {

QString settingsKey(OutputKind kind)
{
    switch (kind) {
    case OutputKind::Surface: return QStringLiteral("output/surfaceFolder");
    case OutputKind::Screenshot: return QStringLiteral("output/screenshotFolder");
    case OutputKind::TransferFunction: return QStringLiteral("output/transferFunctionFolder");
    case OutputKind::Movie: return QStringLiteral("output/movieFolder");
    }
    return QStringLiteral("output/folder");
}

bool isFolder(const QString& path)
{
    return !path.isEmpty() && QFileInfo(path).isDir();
}

} // namespace

QString outputFolder(OutputKind kind)
{
    const QString remembered = QSettings().value(settingsKey(kind)).toString();
    if (isFolder(remembered)) return QDir(remembered).absolutePath();
    QString documents = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    if (isFolder(documents)) return documents;
    return QDir::homePath();
}

void rememberOutputFolder(OutputKind kind, const QString& writtenFile)
{
    if (writtenFile.isEmpty()) return;
    QSettings().setValue(settingsKey(kind), QFileInfo(writtenFile).absolutePath());
}

} // namespace isoview::app
