#include "common/error_dialog.h"

#include "common/log_panel.h"
#include "core/log.h"

#include <QMessageBox>

namespace isoview::app {

void showErrorDialog(QWidget* parent, const QString& title, const QString& message)
{
    auto* box = new QMessageBox(QMessageBox::Critical, title, message, QMessageBox::Ok, parent);
    box->setObjectName("errorDialog");
    box->setAttribute(Qt::WA_DeleteOnClose);
    const QString log = logFilePath();
    if (!log.isEmpty()) box->setInformativeText(QObject::tr("Details are in the log: %1").arg(log));
    box->open(); // window-modal, never blocks the event loop
    log::get("app")->error("{}: {}", title.toStdString(), message.toStdString());
}

} // namespace isoview::app
