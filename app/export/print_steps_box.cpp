#include "export/print_steps_box.h"

#include <QCheckBox>
#include <QGridLayout>
#include <QSettings>
#include <QSpinBox>
#include <algorithm>

namespace isoview::app {

PrintStepsBox::PrintStepsBox(const QString& settingsGroup, QWidget* parent)
    : QGroupBox(tr("Print preparation"), parent), m_settingsGroup(settingsGroup)
{
    setObjectName("printSteps");
    QSettings settings;
    settings.beginGroup(m_settingsGroup);
    const auto check = [&](const char* name, const QString& text, const QString& tip) {
        auto* box = new QCheckBox(text, this);
        box->setObjectName(name);
        box->setToolTip(tip);
        box->setChecked(settings.value(name, false).toBool());
        connect(box, &QCheckBox::toggled, this, &PrintStepsBox::updateEnabled);
        return box;
    };
    const auto spin = [&](const char* name, int min, int max, int fallback, const QString& suffix) {
        auto* box = new QSpinBox(this);
        box->setObjectName(name);
        box->setRange(min, max);
        box->setValue(std::clamp(settings.value(name, fallback).toInt(), min, max));
        box->setSuffix(suffix);
        connect(box, &QSpinBox::valueChanged, this, &PrintStepsBox::changed);
        return box;
    };
    m_closeBorders =
        check("closeBorders", tr("Close at the volume (or crop box) border"),
              tr("Caps the surface where the volume or the crop box cuts it, so that it "
                 "encloses a solid a printer can print"));
    m_keepLargest = check("keepLargest", tr("Keep only the largest piece"),
                          tr("Drops every piece but the one with the most triangles"));
    m_dropSmall = check("dropSmall", tr("Drop pieces under"),
                        tr("Drops loose pieces (noise, specks) with fewer triangles"));
    m_dropSmallTriangles = spin("dropSmallTriangles", 1, 10'000'000, 100, tr(" triangles"));
    m_smooth = check("smooth", tr("Smooth (Taubin),"),
                     tr("Smooths the voxel steps away without shrinking the surface"));
    m_smoothIterations = spin("smoothIterations", 1, 200, 10, tr(" iterations"));
    m_decimate = check("decimate", tr("Decimate, keep"),
                       tr("Merges triangles where the surface is flat, within half a voxel of "
                          "it, for a smaller file"));
    m_decimatePercent = spin("decimatePercent", 1, 99, 25, tr(" % of the triangles"));

    auto* grid = new QGridLayout(this);
    grid->addWidget(m_closeBorders, 0, 0, 1, 3);
    grid->addWidget(m_keepLargest, 1, 0, 1, 3);
    grid->addWidget(m_dropSmall, 2, 0);
    grid->addWidget(m_dropSmallTriangles, 2, 1);
    grid->addWidget(m_smooth, 3, 0);
    grid->addWidget(m_smoothIterations, 3, 1);
    grid->addWidget(m_decimate, 4, 0);
    grid->addWidget(m_decimatePercent, 4, 1);
    grid->setColumnStretch(2, 1);
    updateEnabled();
}

void PrintStepsBox::updateEnabled()
{
    m_dropSmallTriangles->setEnabled(m_dropSmall->isChecked());
    m_smoothIterations->setEnabled(m_smooth->isChecked());
    m_decimatePercent->setEnabled(m_decimate->isChecked());
    emit changed();
}

PrintSteps PrintStepsBox::steps() const
{
    PrintSteps s;
    s.closeBorders = m_closeBorders->isChecked();
    s.keepLargest = m_keepLargest->isChecked();
    if (m_dropSmall->isChecked())
        s.minComponentTriangles = std::size_t(m_dropSmallTriangles->value());
    if (m_smooth->isChecked()) s.smoothIterations = m_smoothIterations->value();
    if (m_decimate->isChecked()) s.decimateFraction = m_decimatePercent->value() / 100.0;
    return s;
}

void PrintStepsBox::remember() const
{
    QSettings settings;
    settings.beginGroup(m_settingsGroup);
    for (const QCheckBox* box : {m_closeBorders, m_keepLargest, m_dropSmall, m_smooth, m_decimate})
        settings.setValue(box->objectName(), box->isChecked());
    for (const QSpinBox* spin : {m_dropSmallTriangles, m_smoothIterations, m_decimatePercent})
        settings.setValue(spin->objectName(), spin->value());
}

} // namespace isoview::app
