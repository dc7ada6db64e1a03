#include "common/shortcut_table.h"

#include <QKeySequence>
#include <QStringList>

namespace isoview::app {

QString shortcutTableHtml(const QList<QAction*>& actions)
{
    QString text = "<table>";
    for (QAction* a : actions) {
        if (a->shortcut().isEmpty() || a->text().isEmpty()) continue;
        QStringList keys;
        for (const QKeySequence& k : a->shortcuts())
            keys << k.toString(QKeySequence::NativeText);
        text += QStringLiteral("<tr><td><b>%1</b></td><td>&nbsp;&nbsp;%2</td></tr>")
                    .arg(keys.join(", ").toHtmlEscaped(), QString(a->text()).remove('&'));
    }
    text += "<tr><td><b>Left drag</b></td><td>&nbsp;&nbsp;Orbit</td></tr>"
            "<tr><td><b>Middle / Shift+left drag</b></td><td>&nbsp;&nbsp;Pan</td></tr>"
            "<tr><td><b>Wheel</b></td><td>&nbsp;&nbsp;Zoom</td></tr>"
            "<tr><td><b>Left drag on a crop handle</b></td><td>&nbsp;&nbsp;Move that face of the "
            "crop box (Esc cancels)</td></tr></table>";
    return text;
}

} // namespace isoview::app
