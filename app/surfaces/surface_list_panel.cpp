#include "surfaces/surface_list_panel.h"

#include "core/error.h"
#include "surfaces/isovalue_panel.h"
#include "surfaces/surface_list_commands.h"
#include "transfer_function/transfer_function_panel.h"
#include "views/viewport_widget.h"

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

SurfaceListPanel::SurfaceListPanel(QWidget* parent) : QWidget(parent)
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
            [this] { removeSurface(m_list.selected().id); });
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
        if (!m_updating) setOpacity(m_list.selected().id, float(percent) / 100.0f);
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
    m_list.setListener(
        [this](SurfaceList::Change change, std::uint32_t id) { onListChanged(change, id); });
    rebuildItems();
}

void SurfaceListPanel::attach(IsovaluePanel* isovalue, TransferFunctionPanel* transferFunction,
                              ViewportWidget* view, QUndoStack* undoStack)
{
    m_isovalue = isovalue;
    m_tf = transferFunction;
    m_view = view;
    m_undoStack = undoStack;
    // The slider, spin box and histogram edit the selected surface.
    connect(m_isovalue, &IsovaluePanel::isovalueChanged, this,
            [this](double real) { m_list.setIsovalue(m_list.selected().id, real); });
    // Surfaces without a colour of their own take the transfer function's.
    connect(m_tf, &TransferFunctionPanel::transferFunctionChanged, this, [this] {
        rebuildItems();
        pushLayers();
    });
}

// ---- edits ----------------------------------------------------------------------------------

void SurfaceListPanel::addSurface()
{
    const double isovalue = m_isovalue ? m_isovalue->isovalue() : m_list.selected().isovalue;
    if (m_undoStack)
        m_undoStack->push(new AddSurfaceCommand(m_list, isovalue));
    else
        m_list.add(isovalue);
}

bool SurfaceListPanel::removeSurface(std::uint32_t id)
{
    if (m_list.size() <= 1 || !m_list.find(id)) {
        const QString text = tr("The last surface cannot be removed: add another one first");
        if (auto* window = qobject_cast<QMainWindow*>(this->window()))
            window->statusBar()->showMessage(text, 5000);
        emit message(text);
        return false;
    }
    if (m_undoStack)
        m_undoStack->push(new RemoveSurfaceCommand(m_list, id));
    else
        m_list.remove(id);
    return true;
}

void SurfaceListPanel::renameSurface(std::uint32_t id, const QString& name)
{
    const Surface* s = m_list.find(id);
    const QString trimmed = name.trimmed();
    if (!s || trimmed.isEmpty() || trimmed.toStdString() == s->name) {
        rebuildItems(); // an empty name puts the old one back in the editor's place
        return;
    }
    Surface after = *s;
    after.name = trimmed.toStdString();
    if (m_undoStack)
        m_undoStack->push(new EditSurfaceCommand(m_list, after, tr("Rename surface")));
    else
        m_list.rename(id, after.name);
}

void SurfaceListPanel::setColor(std::uint32_t id, const std::optional<QColor>& color)
{
    const Surface* s = m_list.find(id);
    if (!s || s->color == toVec(color)) return;
    Surface after = *s;
    after.color = toVec(color);
    if (m_undoStack)
        m_undoStack->push(new EditSurfaceCommand(
            m_list, after, color ? tr("Surface colour") : tr("Surface colour from TF")));
    else
        m_list.setColor(id, after.color);
}

void SurfaceListPanel::setOpacity(std::uint32_t id, float opacity)
{
    const Surface* s = m_list.find(id);
    if (!s || s->opacity == opacity) return;
    Surface after = *s;
    after.opacity = std::clamp(opacity, 0.0f, 1.0f);
    if (m_undoStack)
        m_undoStack->push(new EditSurfaceCommand(m_list, after, tr("Surface opacity"),
                                                 kOpacityMergeBase + (m_opacityDrag & 0xffff)));
    else
        m_list.setOpacity(id, after.opacity);
}

void SurfaceListPanel::setSurfaceVisible(std::uint32_t id, bool visible)
{
    const Surface* s = m_list.find(id);
    if (!s || s->visible == visible) return;
    Surface after = *s;
    after.visible = visible;
    if (m_undoStack)
        m_undoStack->push(new EditSurfaceCommand(
            m_list, after, visible ? tr("Show surface") : tr("Hide surface")));
    else
        m_list.setVisible(id, visible);
}

void SurfaceListPanel::select(std::uint32_t id)
{
    if (m_list.find(id)) m_list.select(id);
}

std::optional<QColor> SurfaceListPanel::selectedColor() const
{
    const std::optional<glm::vec3>& c = m_list.selected().color;
    if (!c) return std::nullopt;
    return toQColor(*c);
}

void SurfaceListPanel::chooseColor()
{
    const Surface& s = m_list.selected();
    const QColor chosen = QColorDialog::getColor(
        drawColor(s), this, tr("Colour of %1").arg(QString::fromStdString(s.name)));
    if (chosen.isValid()) setColor(s.id, QColor::fromRgba(chosen.rgba()));
}

void SurfaceListPanel::resetForVolume(double isovalue, const std::optional<QColor>& color)
{
    m_list.reset({Surface{0, "Surface 1", isovalue, toVec(color), 1.0f, true}}, 0);
}

void SurfaceListPanel::restore(const std::vector<Surface>& surfaces, std::size_t selected)
{
    m_list.reset(surfaces, selected);
}

// ---- the list changed -----------------------------------------------------------------------

void SurfaceListPanel::onListChanged(SurfaceList::Change change, std::uint32_t id)
{
    using Change = SurfaceList::Change;
    if (change == Change::Edited) {
        const Surface* s = m_list.find(id);
        for (int i = 0; s && i < m_listWidget->topLevelItemCount(); ++i) {
            QTreeWidgetItem* item = m_listWidget->topLevelItem(i);
            if (item->data(kNameColumn, kIdRole).toUInt() == id) updateItem(item, *s);
        }
    } else {
        rebuildItems();
    }
    updateControls();
    pushLayers();
    if (change == Change::Selected || change == Change::Reset) {
        // The slider, spin box and histogram now show (and edit) this surface.
        if (m_isovalue) m_isovalue->setIsovalue(m_list.selected().isovalue);
        emit selectionChanged();
    }
    if (change != Change::Edited || id == m_list.selected().id)
        emit selectedColorChanged(selectedColor());
}

QColor SurfaceListPanel::drawColor(const Surface& surface) const
{
    return toQColor(m_tf ? surfaceDrawColor(surface, m_tf->transferFunction())
                         : surface.color.value_or(glm::vec3(0.9f, 0.85f, 0.75f)));
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
    const std::vector<Surface>& surfaces = m_list.surfaces();
    // Items are kept while the ids match, so a name being edited keeps its editor.
    bool same = m_listWidget->topLevelItemCount() == int(surfaces.size());
    for (int i = 0; same && i < int(surfaces.size()); ++i)
        same = m_listWidget->topLevelItem(i)->data(kNameColumn, kIdRole).toUInt() ==
               surfaces[std::size_t(i)].id;
    if (!same) {
        m_listWidget->clear();
        for (const Surface& s : surfaces) {
            auto* item = new QTreeWidgetItem(m_listWidget);
            item->setData(kNameColumn, kIdRole, s.id);
            item->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled | Qt::ItemIsEditable |
                           Qt::ItemIsUserCheckable);
        }
    }
    for (int i = 0; i < int(surfaces.size()); ++i)
        updateItem(m_listWidget->topLevelItem(i), surfaces[std::size_t(i)]);
    m_listWidget->setCurrentItem(m_listWidget->topLevelItem(int(m_list.selectedIndex())));
    m_updating = was;
}

void SurfaceListPanel::updateControls()
{
    const bool was = std::exchange(m_updating, true);
    m_opacity->setValue(int(std::lround(m_list.selected().opacity * 100.0f)));
    m_removeAction->setEnabled(m_list.size() > 1);
    m_updating = was;
}

void SurfaceListPanel::onItemChanged(QTreeWidgetItem* item, int column)
{
    if (m_updating || column != kNameColumn) return;
    const std::uint32_t id = item->data(kNameColumn, kIdRole).toUInt();
    const Surface* s = m_list.find(id);
    if (!s) return;
    const bool visible = item->checkState(kNameColumn) == Qt::Checked;
    if (visible != s->visible) {
        setSurfaceVisible(id, visible);
        return;
    }
    renameSurface(id, item->text(kNameColumn));
}

std::vector<SliceContour> SurfaceListPanel::sliceContours() const
{
    std::vector<SliceContour> contours;
    const Surface& selected = m_list.selected();
    for (const Surface& s : m_list.surfaces())
        if (s.visible && s.id != selected.id)
            contours.push_back({s.id, s.isovalue, drawColor(s), false});
    if (selected.visible)
        contours.push_back({selected.id, selected.isovalue, drawColor(selected), true});
    return contours;
}

void SurfaceListPanel::pushLayers()
{
    emit surfacesChanged(); // every change to the list or its colours comes through here
    if (!m_view) return;
    std::vector<gpu::SurfaceLayer> layers;
    layers.reserve(m_list.size());
    for (const Surface& s : m_list.surfaces()) {
        gpu::SurfaceLayer layer;
        layer.id = s.id;
        layer.isovalue = s.isovalue;
        const QColor c = drawColor(s);
        layer.color = glm::vec3(float(c.redF()), float(c.greenF()), float(c.blueF()));
        layer.opacity = s.opacity;
        layer.visible = s.visible;
        layers.push_back(layer);
    }
    m_view->setSurfaces(std::move(layers), m_list.selected().id,
                        QString::fromStdString(m_list.selected().name));
}

} // namespace isoview::app
