// Lets the user choose which series of a DICOM folder to open, when it holds more than one.
//
// One row per io::SeriesSummary, in the loader's order: description, which volume it is when a
// series holds several (SeriesSummary::volumeLabel, e.g. "volume 2 of 2: time point 2"; the
// column is hidden when no entry has one), modality, slice count, dimensions (W x H x D) and,
// for series that cannot be loaded, the reason; those rows are
// greyed out and cannot be selected. The source's default series (the largest image series)
// starts selected. Open, Enter or a double-click accepts; Open is enabled only while a loadable
// series is selected. The files skipped while scanning (VolumeSourceInfo::notes) are listed
// below the table when there are any.
//
// Contract: GUI thread only; reads nothing from disk and throws nothing.
//
// Example:
//   const io::VolumeSource source = io::openSource(folder);
//   if (std::optional<std::size_t> series = SeriesPickerDialog::ask(source, this))
//       volume = io::loadVolume(source, {.seriesIndex = *series});
#pragma once

#include "io/volume_loader.h"

#include <QDialog>
#include <cstddef>
#include <optional>

class QPushButton;
class QTreeWidget;

namespace isoview::app {

class SeriesPickerDialog : public QDialog {
    Q_OBJECT
public:
    // Columns of the series table.
    enum Column { kDescription, kVolume, kModality, kSlices, kDimensions, kNote, kColumnCount };

    explicit SeriesPickerDialog(const io::VolumeSourceInfo& info, QWidget* parent = nullptr);

    // The index (into info.series) of the selected series. When no loadable series is selected
    // (Open is then disabled) it is info.defaultSeries.
    std::size_t selectedSeries() const;
    // Whether a loadable series is selected.
    bool hasSelection() const;

    // Accepts only while a loadable series is selected.
    void accept() override;

    // Runs the dialog modally; the chosen series when the user pressed Open.
    static std::optional<std::size_t> ask(const io::VolumeSourceInfo& info, QWidget* parent);

private:
    void updateOpenButton();

    std::size_t m_defaultSeries = 0;
    QTreeWidget* m_table = nullptr;
    QPushButton* m_openButton = nullptr;
};

} // namespace isoview::app
