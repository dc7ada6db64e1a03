#include "common/pixel_size_row.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>
#include <QString>

namespace isoview::app {

PixelSizeRow makePixelSizeRow(QWidget* parent, const char* name, int least, int most, int step)
{
    PixelSizeRow size;
    size.width = new QSpinBox(parent);
    size.height = new QSpinBox(parent);
    size.width->setObjectName(QString::fromLatin1(name) + "Width");
    size.height->setObjectName(QString::fromLatin1(name) + "Height");
    for (QSpinBox* box : {size.width, size.height}) {
        box->setRange(least, most);
        box->setSingleStep(step);
        box->setSuffix(QObject::tr(" px"));
    }
    size.row = new QHBoxLayout;
    size.row->addWidget(size.width);
    size.row->addWidget(new QLabel(QStringLiteral("x"), parent));
    size.row->addWidget(size.height);
    return size;
}

} // namespace isoview::app
