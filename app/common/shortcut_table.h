// The text of Help > Keyboard Shortcuts: every action with a shortcut and a name, then the
// mouse gestures of the 3D view (and the crop handles'), as an HTML table.
#pragma once

#include <QAction>
#include <QList>
#include <QString>

namespace isoview::app {

QString shortcutTableHtml(const QList<QAction*>& actions);

} // namespace isoview::app
