#include "surfaces/surface_list_panel.h"

#include "core/error.h"
#include "surfaces/surface_list_commands.h"

#include <QAction>
#include <QColorDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QMainWindow>
#include <QPainter>
#include <QPixmap>
#include <QPushButton>
#include <QSpinBox>
#include <QStatusBar>
#include <QTreeWidget>
#include <QUndoStack>
#include <QVBoxLayout>

namespace isoview::app {
namespace {

constexpr int kIdRole = Qt::UserRole;
constexpr int kNameColumn = 0;
constexpr int kOpacityColumn = 1;
// Merge keys of the panel's edit commands (QUndoCommand::id: unique among the stack's users).
constexpr int kOpacityMergeBase = 0x5f000000;

QColor toQColor(const glm::vec3& c)
{
    return QColor::fromRgbF(c.r, c.g, c.b);
}

std::optional<glm::vec3> toVec(const std::optional<QColor>& c)
{
    if (!c) return std::nullopt;
    return glm::vec3(float(c->redF()), float(c->greenF()), float(c->blueF()));
}

QIcon swatch(const QColor& color)
{
    QPixmap pixmap(16, 16);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    painter.setPen(QColor(60, 60, 60));
    painter.setBrush(color);
    painter.drawRect(QRect(1, 1, 13, 13));
    painter.end();
    // The same pixmap when selected: the style's generated one tints it with the highlight, and
    // the selected surface's beige read as grey.
    QIcon icon(pixmap);
    icon.addPixmap(pixmap, QIcon::Selected);
    return icon;
}

} // namespace

SurfaceListPanel::SurfaceListPanel(SceneModel* scene, QWidget* parent)
    : QWidget(parent), m_scene(scene)
{
    m_listWidget = new QTreeWidget(this);
    m_listWidget->setObjectName("surfaceList");
    m_listWidget->setColumnCount(2);
    m_listWidget->setHeaderLabels({tr("Surface"), tr("Opacity")});
    m_listWidget->setRootIsDecorated(false);
    m_listWidget->setUniformRowHeights(true);
    m_listWidget->setEditTriggers(QAbstractItemView::NoEditTriggers); // only the name: below
    m_listWidget->header()->setStretchLastSection(false);
    m_listWidget->header()->setSectionResizeMode(kNameColumn, QHeaderView::Stretch);
    m_listWidget->header()->setSectionResizeMode(kOpacityColumn, QHeaderView::ResizeToContents);
    m_listWidget->setToolTip(tr("Check to show; double-click or F2 to rename; Delete removes"));

    m_addAction = new QAction(tr("&Add Surface"), this);
    m_addAction->setObjectName("addSurfaceAction");
    m_addAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_N));
    m_addAction->setStatusTip(tr("Add an isosurface at the current isovalue"));
    connect(m_addAction, &QAction::triggered, this, &SurfaceListPanel::addSurface);

    m_removeAction = new QAction(tr("&Remove Surface"), this);
    m_removeAction->setObjectName("removeSurfaceAction");
    m_removeAction->setShortcut(QKeySequence::Delete);
    // Delete means this only where the list has the focus.
    m_removeAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_removeAction->setStatusTip(tr("Remove the selected surface (never the last one)"));
    connect(m_removeAction, &QAction::triggered, this,
            [this] { removeSurface(surfaces().selected().id); });
    m_listWidget->addAction(m_removeAction);

    m_renameAction = new QAction(tr("Re&name Surface"), this);
    m_renameAction->setObjectName("renameSurfaceAction");
    m_renameAction->setShortcut(QKeySequence(Qt::Key_F2));
    m_renameAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(m_renameAction, &QAction::triggered, this, [this] {
        if (QTreeWidgetItem* item = m_listWidget->currentItem())
            m_listWidget->editItem(item, kNameColumn);
    });
    m_listWidget->addAction(m_renameAction);
    connect(m_listWidget, &QTreeWidget::itemDoubleClicked, this,
            [this](QTreeWidgetItem* item) { m_listWidget->editItem(item, kNameColumn); });

    auto* add = new QPushButton(tr("Add"), this);
    add->setObjectName("addSurfaceButton");
    add->setToolTip(m_addAction->statusTip() + " (Ctrl+Shift+N)");
    connect(add, &QPushButton::clicked, m_addAction, &QAction::trigger);
    auto* remove = new QPushButton(tr("Remove"), this);
    remove->setObjectName("removeSurfaceButton");
    connect(remove, &QPushButton::clicked, m_removeAction, &QAction::trigger);
    connect(m_removeAction, &QAction::changed, remove,
            [this, remove] { remove->setEnabled(m_removeAction->isEnabled()); });
    m_colorButton = new QPushButton(tr("Colour..."), this);
    m_colorButton->setObjectName("surfaceColorButton");
    connect(m_colorButton, &QPushButton::clicked, this, &SurfaceListPanel::chooseColor);
    m_opacity = new QSpinBox(this);
    m_opacity->setObjectName("surfaceOpacity");
    m_opacity->setRange(0, 100);
    m_opacity->setSuffix(tr(" %"));
    m_opacity->setToolTip(tr("Opacity of the selected surface: below 100 % it is translucent"));
    connect(m_opacity, &QSpinBox::valueChanged, this, [this](int percent) {
        if (!m_updating) setOpacity(surfaces().selected().id, float(percent) / 100.0f);
    });
    // A run of spin-box steps is one undo step; a new run starts when the focus leaves.
    connect(m_opacity, &QSpinBox::editingFinished, this, [this] { ++m_opacityDrag; });

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(add);
    buttons->addWidget(remove);
    buttons->addWidget(m_colorButton);
    buttons->addWidget(m_opacity);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_listWidget, 1);
    layout->addLayout(buttons);

    connect(m_listWidget, &QTreeWidget::itemChanged, this, &SurfaceListPanel::onItemChanged);
    connect(m_listWidget, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem* item) {
        if (!m_updating && item) select(item->data(kNameColumn, kIdRole).toUInt());
    });
    connect(m_scene, &SceneModel::surfacesChanged, this, &SurfaceListPanel::onListChanged);
    // Surfaces without a colour of their own take the transfer function's.
    connect(m_scene, &SceneModel::changed, this, [this](SceneChanges what) {
        if (what & SceneChange::TransferFunction) rebuildItems();
    });
    rebuildItems();
    updateControls();
}

// ---- edits ----------------------------------------------------------------------------------

void SurfaceListPanel::addSurface()
{
    m_scene->history()->push(new AddSurfaceCommand(*m_scene, m_scene->scene().liveIsovalue()));
}

bool SurfaceListPanel::removeSurface(std::uint32_t id)
{
    if (surfaces().size() <= 1 || !surfaces().find(id)) {
        const QString text = tr("The last surface cannot be removed: add another one first");
        if (auto* window = qobject_cast<QMainWindow*>(this->window()))
            window->statusBar()->showMessage(text, 5000);
        emit message(text);
        return false;
    }
    m_scene->history()->push(new RemoveSurfaceCommand(*m_scene, id));
    return true;
}

void SurfaceListPanel::renameSurface(std::uint32_t id, const QString& name)
{
    const Surface* s = surfaces().find(id);
    const QString trimmed = name.trimmed();
    if (!s || trimmed.isEmpty() || trimmed.toStdString() == s->name) {
        rebuildItems(); // an empty name puts the old one back in the editor's place
        return;
    }
    Surface after = *s;
    after.name = trimmed.toStdString();
    m_scene->history()->push(new EditSurfaceCommand(*m_scene, after, tr("Rename surface")));
}

void SurfaceListPanel::setColor(std::uint32_t id, const std::optional<QColor>& color)
{
    const Surface* s = surfaces().find(id);
    if (!s || s->color == toVec(color)) return;
    Surface after = *s;
    after.color = toVec(color);
    m_scene->history()->push(new EditSurfaceCommand(
        *m_scene, after, color ? tr("Surface colour") : tr("Surface colour from TF")));
}

void SurfaceListPanel::setOpacity(std::uint32_t id, float opacity)
{
    const Surface* s = surfaces().find(id);
    if (!s || s->opacity == opacity) return;
    Surface after = *s;
    after.opacity = std::clamp(opacity, 0.0f, 1.0f);
    m_scene->history()->push(new EditSurfaceCommand(*m_scene, after, tr("Surface opacity"),
                                                    kOpacityMergeBase + (m_opacityDrag & 0xffff)));
}

void SurfaceListPanel::setSurfaceVisible(std::uint32_t id, bool visible)
{
    const Surface* s = surfaces().find(id);
    if (!s || s->visible == visible) return;
    Surface after = *s;
    after.visible = visible;
    m_scene->history()->push(
        new EditSurfaceCommand(*m_scene, after, visible ? tr("Show surface") : tr("Hide surface")));
}

void SurfaceListPanel::select(std::uint32_t id)
{
    if (surfaces().find(id)) m_scene->selectSurface(id);
}

std::optional<QColor> SurfaceListPanel::selectedColor() const
{
    const std::optional<glm::vec3>& c = surfaces().selected().color;
    if (!c) return std::nullopt;
    return toQColor(*c);
}

void SurfaceListPanel::chooseColor()
{
    const Surface& s = surfaces().selected();
    const QColor chosen = QColorDialog::getColor(
        drawColor(s), this, tr("Colour of %1").arg(QString::fromStdString(s.name)));
    if (chosen.isValid()) setColor(s.id, QColor::fromRgba(chosen.rgba()));
}

// ---- the list changed -----------------------------------------------------------------------

void SurfaceListPanel::onListChanged(SurfaceList::Change change, std::uint32_t id)
{
    using Change = SurfaceList::Change;
    if (change == Change::Edited) {
        const Surface* s = surfaces().find(id);
        for (int i = 0; s && i < m_listWidget->topLevelItemCount(); ++i) {
            QTreeWidgetItem* item = m_listWidget->topLevelItem(i);
            if (item->data(kNameColumn, kIdRole).toUInt() == id) updateItem(item, *s);
        }
    } else {
        rebuildItems();
    }
    updateControls();
}

QColor SurfaceListPanel::drawColor(const Surface& surface) const
{
    return toQColor(surfaceDrawColor(surface, m_scene->scene().transferFunction));
}

void SurfaceListPanel::updateItem(QTreeWidgetItem* item, const Surface& s)
{
    const bool was = std::exchange(m_updating, true);
    item->setText(kNameColumn, QString::fromStdString(s.name));
    item->setIcon(kNameColumn, swatch(drawColor(s)));
    item->setCheckState(kNameColumn, s.visible ? Qt::Checked : Qt::Unchecked);
    item->setText(kOpacityColumn, tr("%1 %").arg(std::lround(s.opacity * 100.0f)));
    item->setToolTip(kNameColumn,
                     tr("%1 at %2%3")
                         .arg(QString::fromStdString(s.name))
                         .arg(s.isovalue, 0, 'g', 6)
                         .arg(s.color ? QString() : tr(", coloured by the transfer function")));
    m_updating = was;
}

void SurfaceListPanel::rebuildItems()
{
    const bool was = std::exchange(m_updating, true);
    const std::vector<Surface>& list = surfaces().surfaces();
    // Items are kept while the ids match, so a name being edited keeps its editor.
    bool same = m_listWidget->topLevelItemCount() == int(list.size());
    for (int i = 0; same && i < int(list.size()); ++i)
        same = m_listWidget->topLevelItem(i)->data(kNameColumn, kIdRole).toUInt() ==
               list[std::size_t(i)].id;
    if (!same) {
        m_listWidget->clear();
        for (const Surface& s : list) {
            auto* item = new QTreeWidgetItem(m_listWidget);
            item->setData(kNameColumn, kIdRole, s.id);
            item->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled | Qt::ItemIsEditable |
                           Qt::ItemIsUserCheckable);
        }
    }
    for (int i = 0; i < int(list.size()); ++i)
        updateItem(m_listWidget->topLevelItem(i), list[std::size_t(i)]);
    m_listWidget->setCurrentItem(m_listWidget->topLevelItem(int(surfaces().selectedIndex())));
    m_updating = was;
}

void SurfaceListPanel::updateControls()
{
    const bool was = std::exchange(m_updating, true);
    m_opacity->setValue(int(std::lround(surfaces().selected().opacity * 100.0f)));
    m_removeAction->setEnabled(surfaces().size() > 1);
    m_updating = was;
}

void SurfaceListPanel::onItemChanged(QTreeWidgetItem* item, int column)
{
    if (m_updating || column != kNameColumn) return;
    const std::uint32_t id = item->data(kNameColumn, kIdRole).toUInt();
    const Surface* s = surfaces().find(id);
    if (!s) return;
    const bool visible = item->checkState(kNameColumn) == Qt::Checked;
    if (visible != s->visible) {
        setSurfaceVisible(id, visible);
        return;
    }
    renameSurface(id, item->text(kNameColumn));
}

} // namespace isoview::app
