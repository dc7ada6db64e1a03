#include "loading/series_picker_dialog.h"

#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QStyle>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <algorithm>

namespace isoview::app {
namespace {

// The index into info.series is kept on the row, so the table could be re-sorted safely.
constexpr int kIndexRole = Qt::UserRole;

QString dimensionsText(const glm::uvec3& dims)
{
    return QString::fromUtf8("%1 \u00d7 %2 \u00d7 %3").arg(dims.x).arg(dims.y).arg(dims.z);
}

} // namespace

SeriesPickerDialog::SeriesPickerDialog(const io::VolumeSourceInfo& info, QWidget* parent)
    : QDialog(parent), m_defaultSeries(info.defaultSeries)
{
    setWindowTitle(tr("Choose a Series"));
    setObjectName("seriesPickerDialog");

    const std::size_t count = info.series.size();
    const auto loadable =
        std::size_t(std::count_if(info.series.begin(), info.series.end(),
                                  [](const io::SeriesSummary& s) { return s.note.empty(); }));
    auto* heading = new QLabel(this);
    heading->setObjectName("heading");
    heading->setWordWrap(true);
    const QString format = QString::fromLatin1(io::formatName(info.format));
    // DICOM preselects the largest series; a file of several volumes (NIfTI) its first.
    QString detail = info.format == io::VolumeFormat::Dicom
                         ? tr("Choose the series to open; the largest image series is selected.")
                         : tr("Choose the volume to open; the first is selected.");
    if (loadable < count) {
        detail += " " + tr("Greyed-out series cannot be loaded, for the reason given.");
    }
    heading->setText(
        QString("<b>%1</b><br>%2")
            .arg(tr("%1 %2 series found").arg(count).arg(format), detail.toHtmlEscaped()));

    m_table = new QTreeWidget(this);
    m_table->setObjectName("seriesTable");
    m_table->setColumnCount(kColumnCount);
    m_table->setHeaderLabels({tr("Description"), tr("Volume"), tr("Modality"), tr("Slices"),
                              tr("Dimensions"), tr("Note")});
    m_table->setRootIsDecorated(false);
    m_table->setUniformRowHeights(true);
    m_table->setAlternatingRowColors(true);
    m_table->setAllColumnsShowFocus(true);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->headerItem()->setTextAlignment(kSlices, Qt::AlignCenter);

    const QIcon warning = style()->standardIcon(QStyle::SP_MessageBoxWarning);
    QTreeWidgetItem* defaultItem = nullptr;
    QTreeWidgetItem* firstLoadable = nullptr;
    for (std::size_t i = 0; i < count; ++i) {
        const io::SeriesSummary& s = info.series[i];
        auto* item = new QTreeWidgetItem(m_table);
        item->setData(kDescription, kIndexRole, qulonglong(i));
        if (s.description.empty()) {
            item->setText(kDescription, tr("(no description)"));
            QFont italic = item->font(kDescription);
            italic.setItalic(true);
            item->setFont(kDescription, italic);
        } else {
            item->setText(kDescription, QString::fromStdString(s.description));
        }
        if (!s.uid.empty()) {
            item->setToolTip(kDescription, tr("Series UID %1").arg(QString::fromStdString(s.uid)));
        }
        item->setText(kVolume, QString::fromStdString(s.volumeLabel));
        item->setText(kModality, s.modality.empty() ? QString::fromUtf8("\u2014")
                                                    : QString::fromStdString(s.modality));
        item->setText(kSlices, QString::number(s.sliceCount));
        item->setTextAlignment(kSlices, Qt::AlignCenter);
        item->setText(kDimensions, dimensionsText(s.dims));
        if (s.note.empty()) {
            if (!firstLoadable) firstLoadable = item;
            if (i == info.defaultSeries) defaultItem = item;
        } else {
            const QString note = QString::fromStdString(s.note);
            item->setText(kNote, note);
            item->setIcon(kNote, warning);
            for (int column = 0; column < kColumnCount; ++column)
                item->setToolTip(column, note);
            item->setFlags(item->flags() & ~(Qt::ItemIsEnabled | Qt::ItemIsSelectable));
        }
    }
    // Content widths plus breathing room; a long description is capped so that it cannot push
    // the note out of sight (the tooltip and the wider dialog show the rest).
    for (int column = 0; column < kNote; ++column) {
        m_table->resizeColumnToContents(column);
        m_table->setColumnWidth(column, m_table->columnWidth(column) + 24);
    }
    m_table->setColumnWidth(kDescription, std::min(m_table->columnWidth(kDescription), 320));
    const bool anyVolumeLabel =
        std::any_of(info.series.begin(), info.series.end(),
                    [](const io::SeriesSummary& s) { return !s.volumeLabel.empty(); });
    m_table->setColumnHidden(kVolume, !anyVolumeLabel);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(heading);
    layout->addWidget(m_table, 1);

    if (!info.notes.empty()) {
        auto* notesIcon = new QLabel(this);
        notesIcon->setPixmap(style()->standardIcon(QStyle::SP_MessageBoxInformation).pixmap(16));
        auto* notesTitle = new QLabel(tr("Notes from scanning (%1):").arg(info.notes.size()), this);
        auto* notesHeading = new QHBoxLayout;
        notesHeading->addWidget(notesIcon);
        notesHeading->addWidget(notesTitle, 1);
        auto* notes = new QPlainTextEdit(this);
        notes->setObjectName("scanNotes");
        notes->setReadOnly(true);
        notes->setLineWrapMode(QPlainTextEdit::WidgetWidth);
        QStringList lines;
        for (const std::string& note : info.notes)
            lines << QString::fromStdString(note);
        notes->setPlainText(lines.join('\n'));
        const int lineHeight = notes->fontMetrics().lineSpacing();
        // Room for a wrapped line or two beyond the notes, up to six lines; then it scrolls.
        const int shownLines = int(std::clamp<std::size_t>(info.notes.size() + 2, 3, 6));
        notes->setFixedHeight(lineHeight * shownLines + 2 * notes->frameWidth() + 8);
        layout->addLayout(notesHeading);
        layout->addWidget(notes);
    }

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_openButton = buttons->button(QDialogButtonBox::Ok);
    m_openButton->setText(tr("Open"));
    m_openButton->setObjectName("openButton");
    connect(buttons, &QDialogButtonBox::accepted, this, &SeriesPickerDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);

    connect(m_table, &QTreeWidget::itemSelectionChanged, this,
            &SeriesPickerDialog::updateOpenButton);
    connect(m_table, &QTreeWidget::itemDoubleClicked, this, [this](QTreeWidgetItem* item) {
        if (item && (item->flags() & Qt::ItemIsEnabled)) accept();
    });

    if (QTreeWidgetItem* start = defaultItem ? defaultItem : firstLoadable) {
        m_table->setCurrentItem(start);
        m_table->scrollToItem(start);
    }
    updateOpenButton();
    m_table->setFocus();

    // Wide enough for the columns and a short note, never wider than a laptop screen.
    int width = 2 * m_table->frameWidth() + 40;
    for (int column = 0; column < kNote; ++column) {
        if (!m_table->isColumnHidden(column)) width += m_table->columnWidth(column);
    }
    m_table->resizeColumnToContents(kNote);
    width += std::clamp(m_table->columnWidth(kNote), 120, 420);
    resize(std::clamp(width, 600, 1000), std::clamp(sizeHint().height(), 320, 640));
}

std::size_t SeriesPickerDialog::selectedSeries() const
{
    const QList<QTreeWidgetItem*> selected = m_table->selectedItems();
    if (selected.isEmpty() || !(selected.front()->flags() & Qt::ItemIsEnabled)) {
        return m_defaultSeries;
    }
    return std::size_t(selected.front()->data(kDescription, kIndexRole).toULongLong());
}

bool SeriesPickerDialog::hasSelection() const
{
    const QList<QTreeWidgetItem*> selected = m_table->selectedItems();
    return !selected.isEmpty() && (selected.front()->flags() & Qt::ItemIsEnabled);
}

void SeriesPickerDialog::accept()
{
    if (!hasSelection()) return;
    QDialog::accept();
}

void SeriesPickerDialog::updateOpenButton()
{
    m_openButton->setEnabled(hasSelection());
}

std::optional<std::size_t> SeriesPickerDialog::ask(const io::VolumeSourceInfo& info,
                                                   QWidget* parent)
{
    SeriesPickerDialog dialog(info, parent);
    if (dialog.exec() != QDialog::Accepted) return std::nullopt;
    return dialog.selectedSeries();
}

} // namespace isoview::app
