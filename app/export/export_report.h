// The report a person reads after an export with print preparation: what the steps changed
// (triangles, pieces, distance to the raw surface, watertightness, volume), in a non-modal box
// beside the view, with the report's raw lines under "Show Details" and in the log.
#pragma once

#include "mesh_processing/print_preparation.h"

#include <QString>

class QWidget;

namespace isoview::app {

// Shows the box (objectName "exportReport", deleted on close) and logs the report.
void showExportReport(QWidget* parent, const PrintReport& report, const QString& path);

} // namespace isoview::app
