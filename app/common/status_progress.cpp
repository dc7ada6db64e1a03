#include "common/status_progress.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QObject>
#include <QProgressBar>
#include <QToolButton>
#include <QWidget>

namespace isoview::app {

QWidget* makeProgressWidget(QWidget* parent, QLabel** label, QProgressBar** bar,
                            QToolButton** cancel)
{
    auto* w = new QWidget(parent);
    auto* layout = new QHBoxLayout(w);
    layout->setContentsMargins(0, 0, 0, 0);
    *label = new QLabel(w);
    *bar = new QProgressBar(w);
    (*bar)->setMaximumWidth(160);
    (*bar)->setMaximumHeight(16);
    *cancel = new QToolButton(w);
    (*cancel)->setText(QObject::tr("Cancel"));
    layout->addWidget(*label);
    layout->addWidget(*bar);
    layout->addWidget(*cancel);
    w->hide();
    return w;
}

void showProgress(QProgressBar* bar, qint64 done, qint64 total)
{
    bar->setRange(0, total > 0 ? 1000 : 0);
    if (total > 0) bar->setValue(int(1000 * done / total));
}

} // namespace isoview::app
