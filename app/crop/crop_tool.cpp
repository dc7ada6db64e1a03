#include "crop/crop_tool.h"

#include "crop/crop_handles_3d.h"
#include "crop/crop_panel.h"
#include "crop/slice_crop_overlay.h"
#include "view_layout.h"

#include <QAction>
#include <QDockWidget>
#include <QSettings>

namespace isoview::app {
namespace {
constexpr auto kShowKey = "view/showCropBox";
} // namespace

CropTool::CropTool(CropPanel* panel, QDockWidget* dock, ViewLayout* layout, QObject* parent)
    : QObject(parent), m_panel(panel), m_dock(dock)
{
    setObjectName(QStringLiteral("cropTool"));
    for (SliceOrientation o :
         {SliceOrientation::Axial, SliceOrientation::Coronal, SliceOrientation::Sagittal})
        m_overlays[std::size_t(o)] = new SliceCropOverlay(layout->sliceView(o), panel);
    m_handles3d = new CropHandles3D(layout->view3d(), panel);

    m_showAction = new QAction(tr("Show Crop &Box"), this);
    m_showAction->setObjectName(QStringLiteral("showCropBoxAction"));
    m_showAction->setCheckable(true);
    m_showAction->setShortcut(QKeySequence(Qt::Key_B));
    m_showAction->setToolTip(tr("The crop box with handles in the slice views and the 3D view "
                                "(also while the Crop Box dock is shown)"));
    m_showAction->setChecked(QSettings().value(kShowKey, false).toBool());
    connect(m_showAction, &QAction::toggled, this, [this](bool on) {
        QSettings().setValue(kShowKey, on);
        updateActive();
    });

    m_resetAction = new QAction(tr("&Reset Crop Box"), this);
    m_resetAction->setObjectName(QStringLiteral("resetCropBoxAction"));
    m_resetAction->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_B));
    connect(m_resetAction, &QAction::triggered, panel, &CropPanel::resetByUser);

    // The dock's own action says whether it is open: View > Crop Box checks it before the dock
    // is shown (isHidden() was still true then, so the box stayed off until B), and showing or
    // closing the dock any other way checks or unchecks it.
    connect(dock->toggleViewAction(), &QAction::toggled, this, &CropTool::updateActive);
    updateActive();
}

void CropTool::updateActive()
{
    const bool active = m_showAction->isChecked() || m_dock->toggleViewAction()->isChecked();
    if (active == m_active) return;
    m_active = active;
    for (SliceCropOverlay* overlay : m_overlays)
        overlay->setActive(active);
    m_handles3d->setActive(active);
}

} // namespace isoview::app
