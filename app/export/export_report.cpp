#include "export/export_report.h"

#include "common/number_text.h"
#include "core/log.h"

#include <QLocale>
#include <QMessageBox>
#include <QObject>
#include <QStringList>
#include <cstdint>

namespace isoview::app {

void showExportReport(QWidget* parent, const PrintReport& report, const QString& path)
{
    QStringList lines;
    lines << QObject::tr("Prepared for printing (%1) and written to %2.")
                 .arg(QString::fromStdString(report.steps), path)
          << QString();
    QString triangles =
        QObject::tr("Triangles: %1 extracted, %2 written")
            .arg(formatCount(report.trianglesBefore), formatCount(report.trianglesAfter));
    if (report.capTriangles > 0)
        triangles +=
            QObject::tr(" (%1 added to close the surface)").arg(formatCount(report.capTriangles));
    lines << triangles;
    if (!report.decimationReachedTarget)
        lines << QObject::tr("Decimation stopped above its target, held back by %1.")
                     .arg(QString::fromStdString(report.decimationStoppedBy.empty()
                                                     ? std::string("the sampling")
                                                     : report.decimationStoppedBy));
    lines << QObject::tr("Pieces: %1, %2 dropped")
                 .arg(formatCount(report.piecesBefore), formatCount(report.piecesDropped));
    lines << QObject::tr("Distance from the unprocessed surface: 95 % within %1 mm, at most %2 mm")
                 .arg(report.distanceP95Mm, 0, 'f', 3)
                 .arg(report.distanceMaxMm, 0, 'f', 3);
    if (report.watertight) {
        lines << QObject::tr("Watertight: yes");
        lines << QObject::tr("Enclosed volume: %1 mL before, %2 mL after")
                     .arg(QLocale().toString(report.volumeBeforeMl, 'f', 1),
                          QLocale().toString(report.volumeAfterMl, 'f', 1));
    } else {
        lines << QObject::tr(
                     "Watertight: no (%1 open edges, %2 edges shared by more than two triangles); "
                     "close it at the border to print it")
                     .arg(formatCount(report.boundaryEdges), formatCount(report.nonManifoldEdges));
    }
    // Non-modal: the user reads it next to the view, and exportFinished never waits for it.
    auto* box = new QMessageBox(QMessageBox::Information, QObject::tr("Export report"),
                                lines.join("\n"), QMessageBox::Ok, parent);
    box->setObjectName("exportReport");
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setModal(false);
    box->setDetailedText(QString::fromStdString(report.text()));
    box->show();
    log::get("app")->info("export report for {}:\n{}", path.toStdString(), report.text());
}

} // namespace isoview::app
