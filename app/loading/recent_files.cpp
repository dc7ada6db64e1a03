#include "loading/recent_files.h"

#include <QAction>
#include <QFileInfo>
#include <QSettings>

namespace isoview::app {
namespace {
constexpr int kMaxRecentFiles = 10;
const char* const kSettingsKey = "files/recent";
} // namespace

RecentFiles::RecentFiles(QMenu* menu, QObject* parent)
    : QObject(parent), m_menu(menu), m_paths(QSettings().value(kSettingsKey).toStringList())
{
    changed();
}

void RecentFiles::add(const QString& path)
{
    m_paths.removeAll(path);
    m_paths.prepend(path);
    while (m_paths.size() > kMaxRecentFiles)
        m_paths.removeLast();
    changed();
}

void RecentFiles::changed()
{
    QSettings().setValue(kSettingsKey, m_paths);
    m_menu->clear();
    int n = 1;
    for (const QString& path : m_paths) {
        const QString text = QStringLiteral("&%1 %2").arg(n % 10).arg(QFileInfo(path).fileName());
        QAction* a = m_menu->addAction(text, this, [this, path] { emit openRequested(path); });
        a->setToolTip(path);
        a->setStatusTip(path);
        ++n;
    }
    m_menu->addSeparator();
    QAction* clear = m_menu->addAction(tr("Clear List"), this, [this] {
        m_paths.clear();
        changed();
    });
    clear->setEnabled(!m_paths.isEmpty());
}

} // namespace isoview::app
