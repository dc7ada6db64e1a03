#include "view_layout.h"

#include "measure/distance_tool.h"
#include "views/viewport_widget.h"

#include <QAction>
#include <QActionGroup>
#include <QGridLayout>
#include <QMenu>
#include <QSettings>
#include <algorithm>
#include <cmath>
#include <cstdint>

namespace isoview::app {

namespace {
constexpr char kLayoutKey[] = "views/layout";
constexpr char kSlicePlanesKey[] = "views/slicePlanesIn3D";
} // namespace

WindowLevel ViewLayout::presetWindow(WindowPreset preset)
{
    switch (preset) {
    case WindowPreset::Brain: return {40.0, 80.0};
    case WindowPreset::Bone: return {400.0, 2000.0}; // the wide bone window (not 300/1500)
    case WindowPreset::Lung: return {-600.0, 1500.0};
    }
    return {40.0, 400.0};
}

ViewLayout::ViewLayout(ViewportWidget* view3d, QWidget* parent) : QWidget(parent), m_view3d(view3d)
{
    setObjectName("viewLayout");
    m_grid = new QGridLayout(this);
    m_grid->setContentsMargins(0, 0, 0, 0);
    m_grid->setSpacing(2);
    for (SliceOrientation o :
         {SliceOrientation::Axial, SliceOrientation::Coronal, SliceOrientation::Sagittal}) {
        auto* view = new SliceView(o, this);
        m_slices[int(o)] = view;
        connect(view, &SliceView::crosshairMoved, this, &ViewLayout::setCrosshair);
        connect(view, &SliceView::windowLevelChanged, this, &ViewLayout::setWindowLevel);
    }

    m_layoutGroup = new QActionGroup(this);
    const std::array<QString, 3> names = {tr("Layout &2 x 2"), tr("Layout &1 x 3"), tr("3D &Only")};
    for (int i = 0; i < 3; ++i) {
        auto* a = new QAction(names[i], m_layoutGroup);
        a->setCheckable(true);
        a->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key(Qt::Key_1 + i)));
        connect(a, &QAction::triggered, this, [this, i] { setLayout(Layout(i)); });
        m_layoutActions[i] = a;
    }
    const std::array<QString, 3> presets = {tr("CT &Brain (40 / 80)"), tr("CT B&one (400 / 2000)"),
                                            tr("CT &Lung (-600 / 1500)")};
    for (int i = 0; i < 3; ++i) {
        auto* a = new QAction(presets[i], this);
        connect(a, &QAction::triggered, this,
                [this, i] { setWindowLevel(presetWindow(WindowPreset(i))); });
        m_presetActions[i] = a;
    }
    m_resetWindowAction = new QAction(tr("&Default Window"), this);
    connect(m_resetWindowAction, &QAction::triggered, this,
            [this] { setWindowLevel(m_defaultWindow); });

    m_slicePlanesAction = new QAction(tr("Show Slice &Planes in 3D"), this);
    m_slicePlanesAction->setObjectName("slicePlanesAction");
    m_slicePlanesAction->setCheckable(true);
    m_slicePlanesAction->setShortcut(QKeySequence(Qt::Key_P));
    m_slicePlanesAction->setToolTip(
        tr("The three slices through the crosshair in the 3D view, while the slice views show"));
    m_slicePlanesAction->setChecked(QSettings().value(kSlicePlanesKey, false).toBool());
    connect(m_slicePlanesAction, &QAction::toggled, this, [this](bool on) {
        QSettings().setValue(kSlicePlanesKey, on);
        updateSlicePlanes();
    });

    const int saved = QSettings().value(kLayoutKey, int(Layout::Grid2x2)).toInt();
    m_layout = saved >= 0 && saved <= 2 ? Layout(saved) : Layout::Grid2x2;
    arrange();
}

void ViewLayout::addActionsTo(QMenu* menu)
{
    menu->addActions(m_layoutGroup->actions());
    menu->addAction(m_slicePlanesAction);
    QMenu* window = menu->addMenu(tr("Slice &Window"));
    window->addAction(m_resetWindowAction);
    window->addSeparator();
    for (QAction* a : m_presetActions)
        window->addAction(a);
}

void ViewLayout::addDistanceTool(DistanceTool* tool)
{
    for (SliceView* v : m_slices)
        tool->addSliceView(v);
}

void ViewLayout::arrange()
{
    while (m_grid->count() > 0)
        delete m_grid->takeAt(0);
    for (int r = 0; r < 3; ++r)
        m_grid->setRowStretch(r, 0);
    for (int c = 0; c < 3; ++c)
        m_grid->setColumnStretch(c, 0);
    SliceView* axial = m_slices[int(SliceOrientation::Axial)];
    SliceView* coronal = m_slices[int(SliceOrientation::Coronal)];
    SliceView* sagittal = m_slices[int(SliceOrientation::Sagittal)];
    const bool slices = m_layout != Layout::ThreeDOnly;
    switch (m_layout) {
    case Layout::Grid2x2:
        m_grid->addWidget(axial, 0, 0);
        m_grid->addWidget(m_view3d, 0, 1);
        m_grid->addWidget(coronal, 1, 0);
        m_grid->addWidget(sagittal, 1, 1);
        m_grid->setRowStretch(0, 1);
        m_grid->setRowStretch(1, 1);
        m_grid->setColumnStretch(0, 1);
        m_grid->setColumnStretch(1, 1);
        break;
    case Layout::Row1x3:
        m_grid->addWidget(m_view3d, 0, 0, 1, 3);
        m_grid->addWidget(axial, 1, 0);
        m_grid->addWidget(coronal, 1, 1);
        m_grid->addWidget(sagittal, 1, 2);
        m_grid->setRowStretch(0, 2);
        m_grid->setRowStretch(1, 1);
        for (int c = 0; c < 3; ++c)
            m_grid->setColumnStretch(c, 1);
        break;
    case Layout::ThreeDOnly: m_grid->addWidget(m_view3d, 0, 0); break;
    }
    for (SliceView* v : m_slices)
        v->setVisible(slices);
    m_view3d->show();
    m_layoutActions[int(m_layout)]->setChecked(true);
    updateSlicePlanes();
}

bool ViewLayout::slicePlanesShown() const
{
    return m_hasVolume && m_slicePlanesAction->isChecked() && m_layout != Layout::ThreeDOnly;
}

void ViewLayout::updateSlicePlanes()
{
    gpu::SlicePlaneSettings planes;
    planes.show = slicePlanesShown();
    // The slices the views show: the nearest voxel plane through the crosshair (the engine
    // clamps to the volume).
    for (int axis = 0; axis < 3; ++axis)
        planes.index[axis] = std::uint32_t(std::max(0L, std::lround(m_crosshair[axis])));
    planes.windowCenter = m_window.center;
    planes.windowWidth = m_window.width;
    m_view3d->setSlicePlanes(planes);
}

void ViewLayout::setLayout(Layout layout)
{
    if (layout == m_layout) return;
    m_layout = layout;
    arrange();
    QSettings().setValue(kLayoutKey, int(layout));
    emit layoutChanged(layout);
}

void ViewLayout::setVolume(const std::shared_ptr<const Volume>& volume, ValueRange realRange)
{
    m_hasVolume = volume != nullptr;
    if (volume) {
        const VolumeMetadata& m = volume->metadata();
        if (m.windowCenter && m.windowWidth && *m.windowWidth > 0.0)
            m_defaultWindow = {*m.windowCenter, *m.windowWidth};
        else
            m_defaultWindow = {(realRange.min + realRange.max) / 2.0,
                               std::max(realRange.max - realRange.min, 1e-6)};
        m_crosshair = glm::dvec3(volume->dims() / 2u);
    }
    for (SliceView* v : m_slices) {
        v->setVolume(volume);
        v->setCrosshair(m_crosshair);
    }
    setWindowLevel(m_defaultWindow);
}

void ViewLayout::setContours(const std::vector<SliceContour>& contours)
{
    // Cheap: each view recomputes only the contours whose isovalue changed.
    for (SliceView* v : m_slices)
        v->setContours(contours);
}

void ViewLayout::setCrosshair(glm::dvec3 indexPoint)
{
    m_crosshair = indexPoint;
    for (SliceView* v : m_slices)
        v->setCrosshair(indexPoint);
    updateSlicePlanes();
    emit crosshairChanged(indexPoint);
}

void ViewLayout::setWindowLevel(WindowLevel window)
{
    m_window = window;
    for (SliceView* v : m_slices)
        v->setWindowLevel(window);
    updateSlicePlanes();
    emit windowLevelChanged(window);
}

} // namespace isoview::app
