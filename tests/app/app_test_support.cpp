#include "app_test_support.h"

#include "app_defaults.h"

#include <QCoreApplication>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>

namespace isoview::app::test {

void setUpApplicationDefaults()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName("isoview-tests");
    QCoreApplication::setApplicationName("isoview-tests");
    // Settings of this process only: ctest runs test processes in parallel, and one process's
    // window writing its settings on close must not clobber what another test just saved.
    static QTemporaryDir settingsFolder;
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settingsFolder.path());
    QSettings().clear();
    setDefaultSurfaceFormat();
}

} // namespace isoview::app::test
