#include "labels/labels_panel.h"

#include "common/number_text.h"
#include "extraction/smoothed_label_surfaces.h"
#include "labels/label_commands.h"
#include "labels/label_smoothing_job.h"

#include <QColorDialog>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QPixmap>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSlider>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

namespace isoview::app {
namespace {

enum Column { kShown, kNumber, kName, kVoxels, kVolume, kColumns };
constexpr int kLabelRole = Qt::UserRole;
constexpr int kOpacityMerge = 0x1abe1; // LabelStylesCommand merge key of an opacity drag

QColor toQColor(glm::vec3 c)
{
    return QColor::fromRgbF(std::clamp(c.r, 0.0f, 1.0f), std::clamp(c.g, 0.0f, 1.0f),
                            std::clamp(c.b, 0.0f, 1.0f));
}

// The label's colour, more transparent the lower its opacity, in a grey frame. Set pixel by
// pixel: a QPainter per swatch made the 365 of D99's rows cost about 5 ms of the GUI thread.
QIcon swatch(glm::vec3 color, float opacity)
{
    constexpr int kSize = 14;
    QColor c = toQColor(color);
    c.setAlphaF(0.25 + 0.75 * std::clamp(opacity, 0.0f, 1.0f));
    const QRgb fill = qPremultiply(c.rgba());
    const QRgb frame = qRgb(90, 90, 90);
    QImage image(kSize, kSize, QImage::Format_ARGB32_Premultiplied);
    for (int y = 0; y < kSize; ++y) {
        auto* line = reinterpret_cast<QRgb*>(image.scanLine(y));
        for (int x = 0; x < kSize; ++x) {
            const bool edge = x == 0 || y == 0 || x == kSize - 1 || y == kSize - 1;
            line[x] = edge ? frame : fill;
        }
    }
    return QIcon(QPixmap::fromImage(image));
}

std::uint32_t labelOf(const QTreeWidgetItem* item)
{
    return item->data(kNumber, kLabelRole).toUInt();
}

} // namespace

LabelsPanel::LabelsPanel(SceneModel* scene, QWidget* parent) : QWidget(parent), m_scene(scene)
{
    m_filter = new QLineEdit(this);
    m_filter->setPlaceholderText(tr("Filter by name or number"));
    m_filter->setClearButtonEnabled(true);
    m_filter->setObjectName("labelFilter");
    m_tree = new QTreeWidget(this);
    m_tree->setObjectName("labelTable");
    m_tree->setColumnCount(kColumns);
    m_tree->setHeaderLabels({tr("Shown"), tr("Label"), tr("Name"), tr("Voxels"), tr("mL")});
    m_tree->setRootIsDecorated(false);
    m_tree->setUniformRowHeights(true); // hundreds of rows scroll smoothly
    m_tree->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_tree->setSortingEnabled(true);
    m_tree->sortByColumn(kNumber, Qt::AscendingOrder);
    m_tree->header()->setStretchLastSection(false);
    m_tree->header()->setSectionResizeMode(kName, QHeaderView::Stretch);
    m_summary = new QLabel(this);

    auto* showAll = new QPushButton(tr("Show All"), this);
    showAll->setToolTip(tr("Show every listed label"));
    auto* hideAll = new QPushButton(tr("Hide All"), this);
    hideAll->setToolTip(tr("Hide every listed label"));
    auto* isolate = new QPushButton(tr("Isolate"), this);
    isolate->setToolTip(tr("Show only the selected labels"));
    m_colorButton = new QPushButton(tr("Colour…"), this);
    m_colorButton->setToolTip(tr("Choose the colour of the selected labels"));
    m_opacity = new QSlider(Qt::Horizontal, this);
    m_opacity->setRange(0, 100);
    m_opacity->setToolTip(tr("Opacity of the selected labels"));

    m_smoothing = new QDoubleSpinBox(this);
    m_smoothing->setObjectName("labelSmoothing");
    m_smoothing->setSuffix(tr(" mm"));
    m_smoothing->setDecimals(2);
    m_smoothing->setSpecialValueText(tr("Off"));
    m_smoothing->setKeyboardTracking(false); // a value once typed, not at every key
    m_smoothing->setToolTip(
        tr("Smooth every label: its voxels blurred by a Gaussian of this sigma before its "
           "surface is taken (as 3D Slicer's smoothing). Thin structures fade as it grows."));
    m_smoothingProgress = new QProgressBar(this);
    m_smoothingProgress->setObjectName("labelSmoothingProgress");
    m_smoothingProgress->setRange(0, 1000);
    m_smoothingProgress->setTextVisible(false);
    m_smoothingProgress->setMaximumHeight(8);
    m_smoothingProgress->hide();
    m_smoothingJob = new LabelSmoothingJob(scene, this);

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(showAll);
    buttons->addWidget(hideAll);
    buttons->addWidget(isolate);
    buttons->addWidget(m_colorButton);
    auto* opacityRow = new QHBoxLayout;
    opacityRow->addWidget(new QLabel(tr("Opacity"), this));
    opacityRow->addWidget(m_opacity, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_filter);
    layout->addWidget(m_tree, 1);
    layout->addLayout(buttons);
    layout->addLayout(opacityRow);
    auto* smoothingRow = new QHBoxLayout;
    smoothingRow->addWidget(new QLabel(tr("Smoothing"), this));
    smoothingRow->addWidget(m_smoothing, 1);
    layout->addLayout(smoothingRow);
    layout->addWidget(m_smoothingProgress);
    layout->addWidget(m_summary);

    connect(m_filter, &QLineEdit::textChanged, this, &LabelsPanel::applyFilter);
    connect(m_tree, &QTreeWidget::itemChanged, this, &LabelsPanel::onItemChanged);
    connect(m_tree, &QTreeWidget::itemSelectionChanged, this, &LabelsPanel::onSelectionChanged);
    connect(m_tree, &QTreeWidget::itemDoubleClicked, this, [this](QTreeWidgetItem*, int column) {
        if (column == kShown) chooseColor();
    });
    connect(showAll, &QPushButton::clicked, this, [this] { showListed(true); });
    connect(hideAll, &QPushButton::clicked, this, [this] { showListed(false); });
    connect(isolate, &QPushButton::clicked, this, &LabelsPanel::isolateSelected);
    connect(m_colorButton, &QPushButton::clicked, this, &LabelsPanel::chooseColor);
    connect(m_opacity, &QSlider::valueChanged, this, &LabelsPanel::onOpacity);
    connect(m_smoothing, &QDoubleSpinBox::valueChanged, this, &LabelsPanel::onSmoothing);
    connect(m_smoothingJob, &LabelSmoothingJob::runningChanged, this, [this](bool running) {
        m_smoothingProgress->setValue(0);
        m_smoothingProgress->setVisible(running);
    });
    connect(m_smoothingJob, &LabelSmoothingJob::progressChanged, m_smoothingProgress,
            &QProgressBar::setValue);
    connect(m_smoothingJob, &LabelSmoothingJob::failed, this, [this](const QString& message) {
        m_summary->setText(tr("Smoothing failed: %1").arg(message));
    });
    connect(m_scene, &SceneModel::changed, this, &LabelsPanel::onSceneChanged);
    rebuild();
}

int LabelsPanel::listedRows() const
{
    int listed = 0;
    for (const auto& [label, item] : m_rows)
        listed += item->isHidden() ? 0 : 1;
    return listed;
}

void LabelsPanel::onSceneChanged(SceneChanges what)
{
    if (!(what & (SceneChange::Labels | SceneChange::Volume))) return;
    const std::optional<LabelLayer>& layer = m_scene->scene().labels;
    const bool sameRows = layer && layer->labelMap == m_builtFrom;
    if (!sameRows || (!layer && !m_rows.empty())) {
        rebuild();
    } else if (layer->table != m_builtTable) {
        rename(); // a table for the same labels: new names (and styles), the same rows
    } else {
        refreshStyles();
    }
}

void LabelsPanel::rename()
{
    const LabelLayer& layer = *m_scene->scene().labels;
    m_builtTable = layer.table;
    m_updating = true;
    for (const auto& [label, item] : m_rows)
        item->setText(kName, QString::fromStdString(layer.table.nameOf(label)));
    m_updating = false;
    refreshStyles();
    applyFilter(); // it matches names
}

void LabelsPanel::rebuild()
{
    m_updating = true;
    m_tree->setSortingEnabled(false);
    m_tree->clear();
    m_rows.clear();
    m_rowStyles.clear();
    const std::optional<LabelLayer>& layer = m_scene->scene().labels;
    m_builtFrom = layer ? layer->labelMap : nullptr;
    m_builtTable = layer ? layer->table : LabelTable{};
    if (layer) {
        QList<QTreeWidgetItem*> items;
        for (const LabelInfo& info : layer->statistics->labels) {
            auto* item = new QTreeWidgetItem;
            item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
            item->setData(kNumber, Qt::DisplayRole, info.label);
            item->setData(kNumber, kLabelRole, info.label);
            item->setText(kName, QString::fromStdString(layer->table.nameOf(info.label)));
            item->setData(kVoxels, Qt::DisplayRole, qulonglong(info.voxelCount));
            item->setText(kVolume, QString::number(labelVolumeMl(info), 'f', 3));
            item->setTextAlignment(kVoxels, Qt::AlignRight | Qt::AlignVCenter);
            item->setTextAlignment(kVolume, Qt::AlignRight | Qt::AlignVCenter);
            items.push_back(item);
            m_rows.emplace(info.label, item);
        }
        m_tree->addTopLevelItems(items);
    }
    m_tree->setSortingEnabled(true);
    m_updating = false;
    refreshStyles();
    applyFilter();
    setEnabled(layer.has_value());
}

void LabelsPanel::refreshStyles()
{
    const std::optional<LabelLayer>& layer = m_scene->scene().labels;
    if (!layer) return;
    m_updating = true;
    for (const auto& [label, item] : m_rows) {
        // Only the rows whose style changed: an opacity drag restyles the selected labels, not
        // hundreds of rows.
        const LabelStyle style = layer->style(label);
        const auto shown = m_rowStyles.find(label);
        if (shown == m_rowStyles.end() || !(shown->second == style)) {
            item->setCheckState(kShown, style.visible ? Qt::Checked : Qt::Unchecked);
            item->setIcon(kShown, swatch(style.color, style.opacity));
            m_rowStyles.insert_or_assign(label, style);
        }
        const bool selected = layer->selected == label;
        if (selected && !item->isSelected()) {
            m_tree->setCurrentItem(item);
            m_tree->scrollToItem(item);
        }
    }
    refreshSmoothing();
    const std::vector<std::uint32_t> chosen = selectedLabels();
    m_opacity->setEnabled(!chosen.empty());
    m_colorButton->setEnabled(!chosen.empty());
    if (!chosen.empty()) {
        QSignalBlocker block(m_opacity);
        m_opacity->setValue(int(std::lround(layer->style(chosen.front()).opacity * 100.0f)));
    }
    m_updating = false;
}

void LabelsPanel::refreshSmoothing()
{
    const std::optional<LabelLayer>& layer = m_scene->scene().labels;
    if (!layer) return;
    QSignalBlocker block(m_smoothing);
    const glm::dvec3 spacing = layer->labelMap->geometry().spacing;
    const double finest = std::min({spacing.x, spacing.y, spacing.z});
    m_smoothing->setRange(0.0, maxLabelSmoothingSigmaMm(layer->labelMap->geometry()));
    // Half a voxel a step, with at least the hundredth the box shows.
    m_smoothing->setSingleStep(std::max(0.01, std::round(finest * 50.0) / 100.0));
    m_smoothing->setValue(layer->smoothingSigmaMm);
}

void LabelsPanel::onSmoothing(double sigmaMm)
{
    const std::optional<LabelLayer>& layer = m_scene->scene().labels;
    if (m_updating || !layer || sigmaMm == layer->smoothingSigmaMm) return;
    m_scene->history()->push(new LabelSmoothingCommand(*m_scene, layer->smoothingSigmaMm, sigmaMm));
}

void LabelsPanel::applyFilter()
{
    const QString text = m_filter->text().trimmed();
    for (const auto& [label, item] : m_rows) {
        const bool match = text.isEmpty() ||
                           item->text(kName).contains(text, Qt::CaseInsensitive) ||
                           QString::number(label).startsWith(text);
        item->setHidden(!match);
    }
    const int total = int(m_rows.size());
    const int listed = listedRows();
    m_summary->setText(total == 0        ? tr("No label map: File > Open Label Map…")
                       : listed == total ? tr("%n label(s)", nullptr, total)
                                         : tr("%1 of %2 labels listed").arg(listed).arg(total));
}

void LabelsPanel::onItemChanged(QTreeWidgetItem* item, int column)
{
    if (m_updating || column != kShown || !m_scene->scene().labels) return;
    const std::uint32_t label = labelOf(item);
    LabelStyle style = m_scene->scene().labels->style(label);
    const bool shown = item->checkState(kShown) == Qt::Checked;
    if (shown == style.visible) return;
    style.visible = shown;
    pushStyles({{label, style}},
               shown ? tr("Show label %1").arg(label) : tr("Hide label %1").arg(label));
}

void LabelsPanel::onSelectionChanged()
{
    if (m_updating) return;
    const std::vector<std::uint32_t> chosen = selectedLabels();
    m_scene->selectLabel(chosen.empty() ? std::nullopt : std::optional(chosen.front()));
    refreshStyles();
}

void LabelsPanel::pushStyles(const std::map<std::uint32_t, LabelStyle>& after, const QString& text,
                             int mergeKey)
{
    if (after.empty()) return;
    m_scene->history()->push(new LabelStylesCommand(*m_scene, after, text, mergeKey));
}

void LabelsPanel::showListed(bool shown)
{
    const std::optional<LabelLayer>& layer = m_scene->scene().labels;
    if (!layer) return;
    std::map<std::uint32_t, LabelStyle> after;
    for (const auto& [label, item] : m_rows) {
        if (item->isHidden()) continue;
        LabelStyle style = layer->style(label);
        if (style.visible == shown) continue;
        style.visible = shown;
        after.emplace(label, style);
    }
    pushStyles(after, shown ? tr("Show labels") : tr("Hide labels"));
}

void LabelsPanel::isolateSelected()
{
    const std::optional<LabelLayer>& layer = m_scene->scene().labels;
    const std::vector<std::uint32_t> chosen = selectedLabels();
    if (!layer || chosen.empty()) return;
    std::map<std::uint32_t, LabelStyle> after;
    for (const auto& [label, style] : layer->styles) {
        const bool shown = std::find(chosen.begin(), chosen.end(), label) != chosen.end();
        if (style.visible == shown) continue;
        LabelStyle changed = style;
        changed.visible = shown;
        after.emplace(label, changed);
    }
    pushStyles(after, tr("Isolate labels"));
}

void LabelsPanel::chooseColor()
{
    const std::optional<LabelLayer>& layer = m_scene->scene().labels;
    const std::vector<std::uint32_t> chosen = selectedLabels();
    if (!layer || chosen.empty()) return;
    const QColor start = toQColor(layer->style(chosen.front()).color);
    const QColor color = QColorDialog::getColor(start, this, tr("Label Colour"));
    if (!color.isValid()) return;
    std::map<std::uint32_t, LabelStyle> after;
    for (const std::uint32_t label : chosen) {
        LabelStyle style = layer->style(label);
        style.color = glm::vec3(float(color.redF()), float(color.greenF()), float(color.blueF()));
        after.emplace(label, style);
    }
    pushStyles(after, tr("Label colour"));
}

void LabelsPanel::onOpacity(int percent)
{
    const std::optional<LabelLayer>& layer = m_scene->scene().labels;
    if (m_updating || !layer) return;
    std::map<std::uint32_t, LabelStyle> after;
    for (const std::uint32_t label : selectedLabels()) {
        LabelStyle style = layer->style(label);
        style.opacity = float(percent) / 100.0f;
        after.emplace(label, style);
    }
    pushStyles(after, tr("Label opacity"), kOpacityMerge);
}

std::vector<std::uint32_t> LabelsPanel::selectedLabels() const
{
    std::vector<std::uint32_t> labels;
    for (const QTreeWidgetItem* item : m_tree->selectedItems())
        labels.push_back(labelOf(item));
    std::sort(labels.begin(), labels.end());
    return labels;
}

} // namespace isoview::app
