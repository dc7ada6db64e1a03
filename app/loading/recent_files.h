// File > Open Recent: the last volumes and sessions opened, newest first (at most 10), kept in
// QSettings ("files/recent") as soon as the list changes, and the menu that lists them with a
// Clear List entry.
#pragma once

#include <QMenu>
#include <QObject>
#include <QString>
#include <QStringList>

namespace isoview::app {

class RecentFiles : public QObject {
    Q_OBJECT
public:
    // Reads the remembered list and fills menu (owned by the caller).
    RecentFiles(QMenu* menu, QObject* parent);

    // Puts path first (once), drops the oldest beyond the limit, saves and refills the menu.
    void add(const QString& path);
    QStringList paths() const { return m_paths; }

signals:
    void openRequested(const QString& path);

private:
    void changed(); // saves and refills the menu

    QMenu* m_menu;
    QStringList m_paths;
};

} // namespace isoview::app
