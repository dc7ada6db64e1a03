#include "common/shortcut_table.h"

#include <QKeySequence>
#include <QObject>
#include <QStringList>

namespace isoview::app {

QString shortcutTableHtml(const QList<QAction*>& actions)
{
    const auto row = [](const QString& keys, const QString& what) {
        return QStringLiteral("<tr><td><b>%1</b></td><td>&nbsp;&nbsp;%2</td></tr>")
            .arg(keys.toHtmlEscaped(), what.toHtmlEscaped());
    };
    const auto heading = [](const QString& title) {
        return QStringLiteral("<tr><td colspan=\"2\"><br><i>%1</i></td></tr>")
            .arg(title.toHtmlEscaped());
    };
    QString text = "<table>";
    for (QAction* a : actions) {
        if (a->shortcut().isEmpty() || a->text().isEmpty()) continue;
        QStringList keys;
        for (const QKeySequence& k : a->shortcuts())
            keys << k.toString(QKeySequence::NativeText);
        text += row(keys.join(", "), QString(a->text()).remove('&'));
    }
    // What no action holds: the views' own keys and gestures (slice_view.h, viewport_widget.h).
    text += heading(QObject::tr("3D view"));
    text += row(QObject::tr("Left drag"), QObject::tr("Orbit"));
    text += row(QObject::tr("Middle / Shift+left drag"), QObject::tr("Pan"));
    text += row(QObject::tr("Wheel"), QObject::tr("Zoom"));
    text += heading(QObject::tr("Slice views"));
    text +=
        row(QObject::tr("Wheel, Up / Down, Page Up / Page Down"), QObject::tr("Step one slice"));
    text += row(QObject::tr("Home / End"), QObject::tr("First / last slice"));
    text += row(QObject::tr("Left click or drag"), QObject::tr("Move the crosshair"));
    text += row(QObject::tr("Right drag / Ctrl+left drag"),
                QObject::tr("Window: width across, level down"));
    text += heading(QObject::tr("Anywhere"));
    text += row(QObject::tr("Left drag on a crop handle"),
                QObject::tr("Move that face of the crop box"));
    text += row(QObject::tr("Esc"), QObject::tr("Cancel a crop handle drag, clear the distance's "
                                                "points, deselect a transfer-function point"));
    return text + "</table>";
}

} // namespace isoview::app
