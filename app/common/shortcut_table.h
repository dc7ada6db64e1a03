// The text of Help > Keyboard Shortcuts (F1): every action with a shortcut and a name, then the
// keys and gestures no action holds: the 3D view's, the slice views' (stepping, crosshair,
// window/level drag), the crop handles' and Esc, as an HTML table.
#pragma once

#include <QAction>
#include <QList>
#include <QString>

namespace isoview::app {

QString shortcutTableHtml(const QList<QAction*>& actions);

} // namespace isoview::app
