#include "app_defaults.h"

#include <QCoreApplication>

namespace isoview::app {

void setApplicationNames()
{
    QCoreApplication::setOrganizationName("isoview");
    QCoreApplication::setApplicationName("isoview");
    QCoreApplication::setApplicationVersion("0.1.0");
}

} // namespace isoview::app
