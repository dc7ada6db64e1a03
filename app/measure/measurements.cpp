#include "measure/measurements.h"

#include "measure/distance_tool.h"
#include "measure/measurement_panel.h"
#include "measure/surface_measurer.h"
#include "views/viewport_widget.h"

#include <QAction>
#include <QDockWidget>
#include <QMainWindow>

namespace isoview::app {

Measurements::Measurements(QMainWindow* window, ViewportWidget* view, SceneModel* scene)
    : QObject(window), m_view(view), m_dock(new QDockWidget(tr("Measurements"), window)),
      m_panel(new MeasurementPanel(m_dock)), m_tool(new DistanceTool(view, scene, this)),
      m_measurer(new SurfaceMeasurer(view, this)),
      m_distanceAction(new QAction(tr("Measure &Distance"), window)),
      m_clearAction(new QAction(tr("&Clear Distance"), window))
{
    m_dock->setObjectName("measurementsDock");
    m_dock->setWidget(m_panel);
    m_dock->hide();

    m_distanceAction->setObjectName("measureDistanceAction");
    m_distanceAction->setCheckable(true);
    m_distanceAction->setShortcut(QKeySequence(Qt::Key_D));
    m_distanceAction->setToolTip(
        tr("Click two points on the surface to measure the distance between them (Esc clears)"));
    m_panel->setDistanceAction(m_distanceAction);
    connect(m_distanceAction, &QAction::toggled, m_tool, &DistanceTool::setActive);
    connect(m_tool, &DistanceTool::activeChanged, m_distanceAction, &QAction::setChecked);
    m_clearAction->setObjectName("clearDistanceAction");
    connect(m_clearAction, &QAction::triggered, m_tool, &DistanceTool::clear);
    connect(m_panel, &MeasurementPanel::clearDistanceRequested, m_tool, &DistanceTool::clear);

    // Measuring only while someone looks at the figures or picks.
    connect(m_dock, &QDockWidget::visibilityChanged, this, &Measurements::updateEnabled);
    connect(m_tool, &DistanceTool::activeChanged, this, [this](bool active) {
        // Turning the tool on shows its readout.
        if (active) {
            m_dock->show();
            m_dock->raise(); // its tab in front
        }
        updateEnabled();
    });

    connect(m_measurer, &SurfaceMeasurer::progressChanged, m_panel,
            &MeasurementPanel::showMeasuring);
    connect(m_measurer, &SurfaceMeasurer::measured, this,
            [this](const std::shared_ptr<const MeasuredSurface>& surface) {
                m_panel->showFigures(surface->figures, surface->isovalue);
                m_tool->setPicker(surface->picker);
            });
    connect(m_measurer, &SurfaceMeasurer::invalidated, this, [this](bool volumeChanged) {
        m_tool->setPicker(nullptr);
        m_panel->showOutOfDate();
        // Points on another volume mean nothing here; on the same volume they stay.
        if (volumeChanged) m_tool->clear();
    });
    connect(m_measurer, &SurfaceMeasurer::noSurface, m_panel, &MeasurementPanel::showNoSurface);
    connect(m_measurer, &SurfaceMeasurer::failed, m_panel, &MeasurementPanel::showError);
    connect(m_tool, &DistanceTool::changed, this, &Measurements::showDistance);
    connect(m_tool, &DistanceTool::missed, m_panel, &MeasurementPanel::showHint);
}

Measurements::~Measurements() = default;

void Measurements::surfaceChanged()
{
    m_measurer->surfaceChanged();
}

void Measurements::volumeChanged()
{
    m_measurer->volumeChanged();
}

void Measurements::updateEnabled()
{
    m_measurer->setEnabled(m_dock->isVisible() || m_tool->isActive());
}

void Measurements::showDistance()
{
    m_panel->showDistance(m_tool->points(), m_view->anatomical());
}

} // namespace isoview::app
