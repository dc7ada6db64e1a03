#include "app_defaults.h"

#include <QCoreApplication>
#include <QSurfaceFormat>

namespace isoview::app {

void setDefaultSurfaceFormat()
{
    QSurfaceFormat format;
    format.setRenderableType(QSurfaceFormat::OpenGL);
    format.setProfile(QSurfaceFormat::CoreProfile);
    format.setVersion(4, 5);
    format.setDepthBufferSize(24);
    format.setStencilBufferSize(8);
    format.setSwapInterval(0); // the frame rate is a measured feature: never capped by vsync
    QSurfaceFormat::setDefaultFormat(format);
}

void setApplicationNames()
{
    QCoreApplication::setOrganizationName("isoview");
    QCoreApplication::setApplicationName("isoview");
    QCoreApplication::setApplicationVersion("0.1.0");
}

} // namespace isoview::app
