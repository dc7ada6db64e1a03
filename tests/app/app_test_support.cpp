#include "app_test_support.h"

#include "app_defaults.h"

#include <QCoreApplication>
#include <QSettings>
#include <QStandardPaths>

namespace isoview::app::test {

void setUpApplicationDefaults()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName("isoview-tests");
    QCoreApplication::setApplicationName("isoview-tests");
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings().clear();
    setDefaultSurfaceFormat();
}

} // namespace isoview::app::test
