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
#include <functional>
#include <utility>

namespace isoview::app {

namespace {
constexpr char kLayoutKey[] = "views/layout";
constexpr char kSlicePlanesKey[] = "views/slicePlanesIn3D";
// How far a label's colour covers the image inside it in the slice views (its outline is solid):
// the anatomy stays readable under the colours.
constexpr float kLabelOverlayFill = 0.4f;
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

ViewLayout::ViewLayout(ViewportWidget* view3d, SceneModel* scene, QWidget* parent)
    : QWidget(parent), m_view3d(view3d), m_scene(scene)
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
        connect(view, &SliceView::labelClicked, this,
                [this](std::uint32_t label) { m_scene->selectLabel(label); });
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
    // Named as the views show a window: width, then level.
    const std::array<QString, 3> presets = {
        tr("CT &Brain (W 80 L 40)"), tr("CT B&one (W 2000 L 400)"), tr("CT &Lung (W 1500 L -600)")};
    for (int i = 0; i < 3; ++i) {
        auto* a = new QAction(presets[i], this);
        connect(a, &QAction::triggered, this,
                [this, i] { setWindowLevel(presetWindow(WindowPreset(i))); });
        m_presetActions[i] = a;
    }
    m_resetWindowAction = new QAction(tr("&Default Window"), this);
    connect(m_resetWindowAction, &QAction::triggered, this,
            [this] { setWindowLevel(defaultWindowLevel()); });

    m_slicePlanesAction = new QAction(tr("Show Slice &Planes in 3D"), this);
    m_slicePlanesAction->setObjectName("slicePlanesAction");
    m_slicePlanesAction->setCheckable(true);
    m_slicePlanesAction->setShortcut(QKeySequence(Qt::Key_P));
    m_slicePlanesAction->setToolTip(
        tr("The three slices through the crosshair in the 3D view, while the slice views show"));
    m_slicePlanesAction->setChecked(QSettings().value(kSlicePlanesKey, false).toBool());
    connect(m_slicePlanesAction, &QAction::toggled, this, [this](bool on) {
        QSettings().setValue(kSlicePlanesKey, on);
        editSlices([on](SliceViews& s) { s.planesIn3D = on; });
    });

    // The remembered arrangement and planes' toggle are the scene's from the start.
    const int saved = QSettings().value(kLayoutKey, int(Layout::Grid2x2)).toInt();
    SliceViews start = slices();
    start.arrangement = saved >= 0 && saved <= 2 ? Layout(saved) : Layout::Grid2x2;
    start.planesIn3D = m_slicePlanesAction->isChecked();
    m_scene->setSlices(start);
    connect(m_scene, &SceneModel::changed, this, &ViewLayout::onSceneChanged);
    m_shown = slices();
    arrange();
}

void ViewLayout::editSlices(const std::function<void(SliceViews&)>& edit)
{
    SliceViews next = slices();
    edit(next);
    m_scene->setSlices(next);
}

WindowLevel ViewLayout::defaultWindowLevel() const
{
    const Volume* volume = m_scene->scene().volume.get();
    return volume ? isoview::defaultWindowLevel(*volume) : WindowLevel{};
}

void ViewLayout::onSceneChanged(SceneChanges what)
{
    const Scene& scene = m_scene->scene();
    // Another time point is another volume on the same grid: the slices show its values where
    // they were (showSlices below puts the crosshair back).
    const bool newValues = what & (SceneChange::Volume | SceneChange::TimePoint);
    if (newValues) {
        for (SliceView* v : m_slices)
            v->setVolume(scene.volume);
    }
    if (what & (SceneChange::Labels | SceneChange::Volume)) {
        const std::vector<glm::u8vec4> styles =
            scene.labels ? scene.labels->drawStyles() : std::vector<glm::u8vec4>{};
        for (SliceView* v : m_slices)
            v->setLabelOverlay(scene.labels ? scene.labels->labelMap : nullptr, styles,
                               kLabelOverlayFill);
    }
    if (newValues || (what & SceneChange::Slices)) showSlices(newValues);
    // Cheap: each view recomputes only the contours whose isovalue changed.
    if (newValues ||
        (what & (SceneChange::Surfaces | SceneChange::Isovalue | SceneChange::TransferFunction))) {
        const std::vector<SliceContour> contours = sliceContours(scene);
        for (SliceView* v : m_slices)
            v->setContours(contours);
    }
}

void ViewLayout::showSlices(bool force)
{
    const SliceViews now = slices();
    const SliceViews before = std::exchange(m_shown, now);
    if (force || now.crosshair != before.crosshair) {
        for (SliceView* v : m_slices)
            v->setCrosshair(now.crosshair);
    }
    if (force || now.window != before.window) {
        for (SliceView* v : m_slices)
            v->setWindowLevel(now.window);
    }
    if (now.arrangement != before.arrangement) arrange();
    if (now.planesIn3D != m_slicePlanesAction->isChecked())
        m_slicePlanesAction->setChecked(now.planesIn3D);
    if (now.arrangement != before.arrangement) emit layoutChanged(now.arrangement);
    if (force || now.crosshair != before.crosshair) emit crosshairChanged(now.crosshair);
    if (force || now.window != before.window) emit windowLevelChanged(now.window);
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
    const Layout layout = this->layout();
    const bool slices = layout != Layout::ThreeDOnly;
    switch (layout) {
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
    m_layoutActions[int(layout)]->setChecked(true);
}

void ViewLayout::setLayout(Layout layout)
{
    if (layout == this->layout()) return;
    QSettings().setValue(kLayoutKey, int(layout));
    editSlices([layout](SliceViews& s) { s.arrangement = layout; });
}

void ViewLayout::setCrosshair(glm::dvec3 indexPoint)
{
    editSlices([indexPoint](SliceViews& s) { s.crosshair = indexPoint; });
}

void ViewLayout::setWindowLevel(WindowLevel window)
{
    editSlices([window](SliceViews& s) { s.window = window; });
}

} // namespace isoview::app
