#include "common/app_defaults.h"

#include "isoview_version.h"

#include <QCoreApplication>
#include <QGuiApplication>

namespace isoview::app {

void setApplicationNames()
{
    QCoreApplication::setOrganizationName("isoview");
    QCoreApplication::setApplicationName("isoview");
    QCoreApplication::setApplicationVersion(QString::fromLatin1(kVersion));
    // Wayland compositors match the window to the installed desktop entry (its name and icon)
    // by this name.
    QGuiApplication::setDesktopFileName(QString::fromLatin1(kApplicationId));
}

} // namespace isoview::app
