// The one error dialog of the viewer: critical, window-modal without blocking the event loop
// (open(), not exec()), named "errorDialog" (the GUI tests find it), pointing at the log file
// when there is one, and logged under "app" with its title.
//
// Thread: GUI only.
#pragma once

#include <QString>

class QWidget;

namespace isoview::app {

// Shows the dialog over parent (it deletes itself when closed) and logs "title: message".
void showErrorDialog(QWidget* parent, const QString& title, const QString& message);

} // namespace isoview::app
