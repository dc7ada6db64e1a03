// The Measurements dock's contents: area and enclosed volume of the surface on screen (and of its
// largest piece), the distance between the distance tool's two points, and a progress bar while
// a big surface is measured. Shows what it is given; SurfaceMeasurer and DistanceTool do the
// work (measurements.h wires them).
#pragma once

#include "mesh_processing/surface_measurements.h"

#include <glm/glm.hpp>

#include <QString>
#include <QWidget>
#include <vector>

class QAction;
class QLabel;
class QProgressBar;
class QPushButton;
class QToolButton;

namespace isoview::app {

class MeasurementPanel : public QWidget {
    Q_OBJECT
public:
    explicit MeasurementPanel(QWidget* parent = nullptr);

    // The toggle of the distance tool, shown as a button.
    void setDistanceAction(QAction* action);

    void showMeasuring(double fraction);
    void showFigures(const SurfaceMeasurements& figures, double isovalue);
    void showNoSurface();
    void showOutOfDate();
    void showError(const QString& message);
    // anatomical: the points are patient LPS coordinates (say so).
    void showDistance(const std::vector<glm::dvec3>& points, bool anatomical);
    void showHint(const QString& text);

    // The texts shown, for tests and the clipboard.
    QString areaText() const;
    QString volumeText() const;
    QString distanceText() const;

signals:
    void clearDistanceRequested();

private:
    QLabel* m_area;
    QLabel* m_volume;
    QLabel* m_pieces;
    QLabel* m_note;
    QProgressBar* m_progress;
    QToolButton* m_distanceButton;
    QLabel* m_distance;
    QLabel* m_points;
    QPushButton* m_clear;
};

} // namespace isoview::app
