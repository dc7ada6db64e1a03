#include "measure/measurement_panel.h"

#include <QAction>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QToolButton>
#include <QVBoxLayout>

namespace isoview::app {
namespace {

QString number(double value, int decimals)
{
    return QLocale().toString(value, 'f', decimals);
}

QString point(const glm::dvec3& p)
{
    return QStringLiteral("(%1, %2, %3)").arg(number(p.x, 1), number(p.y, 1), number(p.z, 1));
}

QLabel* selectableLabel(QWidget* parent, const char* name)
{
    auto* label = new QLabel(QStringLiteral("-"), parent);
    label->setObjectName(name);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

} // namespace

MeasurementPanel::MeasurementPanel(QWidget* parent) : QWidget(parent)
{
    setObjectName("measurementPanel");
    // The rows scroll in a short dock: a dock does not ask its contents for the height their
    // wrapped note needs, so the rows were squeezed over each other.
    auto* scroll = new QScrollArea(this);
    scroll->setObjectName("measurementScroll");
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff); // the note wraps instead
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(scroll);
    auto* rows = new QWidget(scroll);
    rows->setObjectName("measurementRows");
    scroll->setWidget(rows);
    auto* layout = new QVBoxLayout(rows);
    auto* form = new QFormLayout;
    m_area = selectableLabel(this, "surfaceAreaLabel");
    m_volume = selectableLabel(this, "enclosedVolumeLabel");
    m_pieces = selectableLabel(this, "piecesLabel");
    form->addRow(tr("Surface area:"), m_area);
    form->addRow(tr("Enclosed volume:"), m_volume);
    form->addRow(tr("Pieces:"), m_pieces);
    layout->addLayout(form);
    m_note = new QLabel(this);
    m_note->setObjectName("measurementNote");
    m_note->setWordWrap(true);
    m_note->hide();
    layout->addWidget(m_note);
    m_progress = new QProgressBar(this);
    m_progress->setObjectName("measurementProgress");
    m_progress->setRange(0, 1000);
    m_progress->setMaximumHeight(14);
    m_progress->setTextVisible(false);
    m_progress->hide();
    layout->addWidget(m_progress);

    auto* distanceRow = new QHBoxLayout;
    m_distanceButton = new QToolButton(this);
    m_distanceButton->setObjectName("measureDistanceButton");
    m_clear = new QPushButton(tr("Clear"), this);
    m_clear->setObjectName("clearDistanceButton");
    m_clear->setEnabled(false);
    connect(m_clear, &QPushButton::clicked, this, &MeasurementPanel::clearDistanceRequested);
    distanceRow->addWidget(m_distanceButton);
    distanceRow->addStretch();
    distanceRow->addWidget(m_clear);
    layout->addLayout(distanceRow);
    auto* distanceForm = new QFormLayout;
    m_distance = selectableLabel(this, "distanceLabel");
    m_points = selectableLabel(this, "distancePointsLabel");
    m_points->setWordWrap(true);
    distanceForm->addRow(tr("Distance:"), m_distance);
    distanceForm->addRow(tr("Points:"), m_points);
    layout->addLayout(distanceForm);
    layout->addStretch();
}

void MeasurementPanel::setDistanceAction(QAction* action)
{
    m_distanceButton->setDefaultAction(action);
    m_distanceButton->setToolButtonStyle(Qt::ToolButtonTextOnly);
}

void MeasurementPanel::showMeasuring(double fraction)
{
    m_progress->setValue(int(1000.0 * std::clamp(fraction, 0.0, 1.0)));
    m_progress->show();
}

void MeasurementPanel::showFigures(const SurfaceMeasurements& f, double isovalue)
{
    m_progress->hide();
    m_area->setText(tr("%1 mm²").arg(number(f.areaMm2, 1)));
    m_volume->setText(tr("%1 mL").arg(number(f.volumeMl, 2)));
    m_pieces->setText(f.pieces <= 1 ? QString::number(f.pieces)
                                    : tr("%1; largest %2 mL, %3 mm²")
                                          .arg(f.pieces)
                                          .arg(number(f.largestPieceVolumeMl, 2),
                                               number(f.largestPieceAreaMm2, 1)));
    QString note = tr("At isovalue %1, %2 triangles.")
                       .arg(number(isovalue, 1), QLocale().toString(qulonglong(f.triangles)));
    if (f.openAtBorder) {
        note += QLatin1Char(' ') +
                tr("The surface meets the border of the volume or crop box: the volume is "
                   "that of the surface closed there (as an export with Close at borders).");
    }
    m_note->setText(note);
    m_note->show();
}

void MeasurementPanel::showNoSurface()
{
    m_progress->hide();
    m_area->setText(QStringLiteral("-"));
    m_volume->setText(QStringLiteral("-"));
    m_pieces->setText(QStringLiteral("0"));
    m_note->setText(tr("No surface on screen at this isovalue (or the view shows the volume "
                       "rendering only)."));
    m_note->show();
}

void MeasurementPanel::showOutOfDate()
{
    m_area->setText(tr("measuring…"));
    m_volume->setText(tr("measuring…"));
    m_pieces->setText(QStringLiteral("-"));
}

void MeasurementPanel::showError(const QString& message)
{
    m_progress->hide();
    m_area->setText(QStringLiteral("-"));
    m_volume->setText(QStringLiteral("-"));
    m_note->setText(tr("Could not measure the surface: %1").arg(message));
    m_note->show();
}

void MeasurementPanel::showDistance(const std::vector<glm::dvec3>& points, bool anatomical)
{
    m_clear->setEnabled(!points.empty());
    if (points.size() == 2) {
        m_distance->setText(tr("%1 mm").arg(number(glm::length(points[1] - points[0]), 2)));
    } else {
        m_distance->setText(points.empty() ? QStringLiteral("-") : tr("pick the second point"));
    }
    QStringList lines;
    for (const glm::dvec3& p : points)
        lines << point(p);
    if (!lines.isEmpty()) lines.last() += anatomical ? tr(" mm LPS") : tr(" mm");
    m_points->setText(lines.isEmpty() ? QStringLiteral("-") : lines.join(QLatin1Char('\n')));
}

void MeasurementPanel::showHint(const QString& text)
{
    m_distance->setText(text);
}

QString MeasurementPanel::areaText() const
{
    return m_area->text();
}

QString MeasurementPanel::volumeText() const
{
    return m_volume->text();
}

QString MeasurementPanel::distanceText() const
{
    return m_distance->text();
}

} // namespace isoview::app
