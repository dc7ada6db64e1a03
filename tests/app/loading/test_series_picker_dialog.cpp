// The series picker: each series' texts in the table, the default series preselected, series
// that cannot be loaded shown but never selectable (by click, by code, by double-click), the
// scan notes below the table, Open and double-click accepting, and a real folder holding two
// DICOM series (the shared CT and MR series side by side) picked and loaded.
#include "app_test_support.h"
#include "io/volume_loader.h"
#include "loading/series_picker_dialog.h"
#include "support/shared_data.h"
#include "support/temp_dir.h"

#include <gtest/gtest.h>

#include <QApplication>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTest>
#include <QTimer>
#include <QTreeWidget>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <string>

namespace isoview::app {
namespace {

using test::onModalDialog;
using test::saveScreenshot;

namespace fs = std::filesystem;
using Column = SeriesPickerDialog::Column;

const QString kTimes = QString::fromUtf8("\u00d7");

io::SeriesSummary series(std::string uid, std::string description, std::string modality,
                         std::size_t slices, glm::uvec3 dims, std::string note = {})
{
    io::SeriesSummary summary;
    summary.uid = std::move(uid);
    summary.description = std::move(description);
    summary.modality = std::move(modality);
    summary.sliceCount = slices;
    summary.dims = dims;
    summary.note = std::move(note);
    return summary;
}

// Four series: a scout, the default (largest) CT, one that cannot be decoded, an MR without a
// description; and two scan notes.
io::VolumeSourceInfo syntheticInfo()
{
    io::VolumeSourceInfo info;
    info.format = io::VolumeFormat::Dicom;
    info.series = {
        series("1.2.3.1", "Scout", "CT", 3, {512, 512, 3}),
        series("1.2.3.2", "Abdomen 1.0 B30f", "CT", 412, {512, 512, 412}),
        series("1.2.3.3", "Angio MIP", "CT", 60, {512, 512, 60},
               "pixel data in JPEG 2000 Part 2, which cannot be decoded"),
        series("1.2.3.4", "", "MR", 24, {256, 232, 24}),
    };
    info.defaultSeries = 1;
    info.notes = {"'/data/DICOMDIR' skipped: a DICOMDIR index (open it to load what it lists)",
                  "'/data/report.pdf' is not a DICOM file; skipped"};
    return info;
}

struct PickerUnderTest : test::ShownDialog<SeriesPickerDialog> {
    explicit PickerUnderTest(const io::VolumeSourceInfo& info)
        : ShownDialog(std::make_unique<SeriesPickerDialog>(info)),
          table(child<QTreeWidget>("seriesTable")), open(child<QPushButton>("openButton"))
    {
    }
    QTreeWidgetItem* row(int i) const { return table->topLevelItem(i); }
    QPoint centre(int i) const { return table->visualItemRect(row(i)).center(); }

    QTreeWidget* table = nullptr;
    QPushButton* open = nullptr;
};

TEST(SeriesPickerDialog, ListsEverySeriesWithItsTexts)
{
    PickerUnderTest p(syntheticInfo());
    ASSERT_EQ(p.table->topLevelItemCount(), 4);
    EXPECT_EQ(p.row(1)->text(Column::kDescription), "Abdomen 1.0 B30f");
    EXPECT_EQ(p.row(1)->text(Column::kModality), "CT");
    EXPECT_EQ(p.row(1)->text(Column::kSlices), "412");
    EXPECT_EQ(p.row(1)->text(Column::kDimensions), "512 " + kTimes + " 512 " + kTimes + " 412");
    EXPECT_EQ(p.row(1)->text(Column::kNote), "");
    EXPECT_EQ(p.row(2)->text(Column::kNote),
              "pixel data in JPEG 2000 Part 2, which cannot be decoded");
    EXPECT_EQ(p.row(3)->text(Column::kDescription), "(no description)");
    EXPECT_EQ(p.row(3)->text(Column::kDimensions), "256 " + kTimes + " 232 " + kTimes + " 24");
    EXPECT_TRUE(p.row(1)->toolTip(Column::kDescription).contains("1.2.3.2"));

    EXPECT_TRUE(p.row(0)->flags() & Qt::ItemIsEnabled);
    EXPECT_FALSE(p.row(2)->flags() & Qt::ItemIsEnabled);
    EXPECT_FALSE(p.row(2)->flags() & Qt::ItemIsSelectable);

    const auto* heading = p.dialog->findChild<QLabel*>("heading");
    ASSERT_NE(heading, nullptr);
    EXPECT_TRUE(heading->text().contains("4 DICOM series found")) << heading->text().toStdString();

    const auto* notes = p.dialog->findChild<QPlainTextEdit*>("scanNotes");
    ASSERT_NE(notes, nullptr);
    EXPECT_TRUE(notes->isVisible());
    EXPECT_EQ(notes->toPlainText().split('\n').size(), 2);
    EXPECT_TRUE(notes->toPlainText().contains("report.pdf"));
    saveScreenshot(*p.dialog, "series_picker_synthetic");
}

TEST(SeriesPickerDialog, PreselectsTheDefaultSeries)
{
    PickerUnderTest p(syntheticInfo());
    EXPECT_EQ(p.dialog->selectedSeries(), 1u);
    EXPECT_TRUE(p.row(1)->isSelected());
    EXPECT_TRUE(p.open->isEnabled());

    io::VolumeSourceInfo info = syntheticInfo();
    info.defaultSeries = 3;
    PickerUnderTest other(info);
    EXPECT_EQ(other.dialog->selectedSeries(), 3u);
}

TEST(SeriesPickerDialog, RefusesToSelectASeriesWithANote)
{
    PickerUnderTest p(syntheticInfo());
    // A click on the greyed row leaves the selection where it was.
    QTest::mouseClick(p.table->viewport(), Qt::LeftButton, {}, p.centre(2));
    EXPECT_EQ(p.dialog->selectedSeries(), 1u);
    EXPECT_TRUE(p.open->isEnabled());

    // Nor can code select it.
    p.table->setCurrentItem(p.row(2));
    p.row(2)->setSelected(true);
    EXPECT_NE(p.dialog->selectedSeries(), 2u);

    // A double-click on it does not accept.
    QTest::mouseClick(p.table->viewport(), Qt::LeftButton, {}, p.centre(2));
    QTest::mouseDClick(p.table->viewport(), Qt::LeftButton, {}, p.centre(2));
    EXPECT_TRUE(p.dialog->isVisible());
    EXPECT_EQ(p.dialog->result(), QDialog::Rejected);

    // A click on a loadable row moves the selection.
    QTest::mouseClick(p.table->viewport(), Qt::LeftButton, {}, p.centre(3));
    EXPECT_EQ(p.dialog->selectedSeries(), 3u);
}

TEST(SeriesPickerDialog, OpenIsDisabledWhenNothingLoadableIsSelected)
{
    io::VolumeSourceInfo info;
    info.series = {series("9.1", "Report", "SR", 1, {1, 1, 1}, "not an image"),
                   series("9.2", "Raw data", "MR", 1, {0, 0, 0}, "no pixel data")};
    PickerUnderTest p(info);
    EXPECT_FALSE(p.dialog->hasSelection());
    EXPECT_FALSE(p.open->isEnabled());
    p.dialog->accept();
    EXPECT_TRUE(p.dialog->isVisible());
    EXPECT_EQ(p.dialog->findChild<QPlainTextEdit*>("scanNotes"), nullptr); // no notes, no box
}

TEST(SeriesPickerDialog, DoubleClickAcceptsThatSeries)
{
    PickerUnderTest p(syntheticInfo());
    // A real double-click: press and release, then the double-click event.
    QTest::mouseClick(p.table->viewport(), Qt::LeftButton, {}, p.centre(0));
    QTest::mouseDClick(p.table->viewport(), Qt::LeftButton, {}, p.centre(0));
    EXPECT_EQ(p.dialog->result(), QDialog::Accepted);
    EXPECT_FALSE(p.dialog->isVisible());
    EXPECT_EQ(p.dialog->selectedSeries(), 0u);
}

TEST(SeriesPickerDialog, AskReturnsTheChoiceOrNothing)
{
    const io::VolumeSourceInfo info = syntheticInfo();
    onModalDialog([](QWidget* modal) {
        auto* table = modal->findChild<QTreeWidget*>("seriesTable");
        table->setFocus();
        QTest::keyClick(table, Qt::Key_Down); // from the default (1) past the greyed row 2
        QTest::keyClick(modal, Qt::Key_Return);
    });
    EXPECT_EQ(SeriesPickerDialog::ask(info, nullptr), std::optional<std::size_t>(3));

    onModalDialog([](QWidget* modal) { QTest::keyClick(modal, Qt::Key_Escape); });
    EXPECT_EQ(SeriesPickerDialog::ask(info, nullptr), std::nullopt);
}

TEST(SeriesPickerDialog, RealFolderWithTwoSeries)
{
    // The shared CT and MR series side by side in one folder (links to the files), plus a file
    // that is not DICOM.
    isoview::test::TempDir dir;
    for (const char* seriesFolder :
         {"dicom/ct_philips_head_phantom_5mm", "dicom/mr_philips_mprage_sag"}) {
        for (const auto& entry :
             fs::directory_iterator(isoview::test::sharedDataPath(seriesFolder))) {
            const fs::path link = dir.path() / (fs::path(seriesFolder).filename().string() + "_" +
                                                entry.path().filename().string());
            fs::create_symlink(entry.path(), link);
        }
    }
    std::ofstream(dir.path() / "readme.txt") << "not DICOM\n";

    const io::VolumeSource info = io::openSource(dir.path());
    ASSERT_EQ(info.series.size(), 2u);
    PickerUnderTest p(info);
    int ct = -1;
    int mr = -1;
    for (int i = 0; i < 2; ++i) {
        if (p.row(i)->text(Column::kDescription) == "STD BRAIN 5MM") ct = i;
        if (p.row(i)->text(Column::kDescription) == "ADNI_Sag3D MPRAGE") mr = i;
    }
    ASSERT_GE(ct, 0);
    ASSERT_GE(mr, 0);
    EXPECT_EQ(p.row(ct)->text(Column::kModality), "CT");
    EXPECT_EQ(p.row(ct)->text(Column::kSlices), "28");
    EXPECT_EQ(p.row(ct)->text(Column::kDimensions), "512 " + kTimes + " 512 " + kTimes + " 28");
    EXPECT_EQ(p.row(mr)->text(Column::kModality), "MR");
    EXPECT_EQ(p.row(mr)->text(Column::kSlices), "170");
    EXPECT_EQ(p.row(mr)->text(Column::kDimensions), "256 " + kTimes + " 256 " + kTimes + " 170");
    // The MR has more voxels (11.1 M against 7.3 M), so it is the default.
    EXPECT_EQ(p.dialog->selectedSeries(), std::size_t(mr));
    const auto* notes = p.dialog->findChild<QPlainTextEdit*>("scanNotes");
    ASSERT_NE(notes, nullptr);
    EXPECT_TRUE(notes->toPlainText().contains("readme.txt")) << notes->toPlainText().toStdString();
    saveScreenshot(*p.dialog, "series_picker_real");

    // Picking the CT and opening loads the CT.
    QTest::mouseClick(p.table->viewport(), Qt::LeftButton, {}, p.centre(ct));
    QTest::mouseClick(p.open, Qt::LeftButton);
    ASSERT_EQ(p.dialog->result(), QDialog::Accepted);
    io::LoadOptions options;
    options.seriesIndex = p.dialog->selectedSeries();
    const Volume volume = io::loadVolume(dir.path(), options);
    EXPECT_EQ(volume.dims(), glm::uvec3(512, 512, 28));
}

TEST(SeriesPickerDialog, VolumesOfOneSeriesShowWhichVolumeTheyAre)
{
    // The shared MOSAIC folder: one fMRI series holding two time points, one entry each.
    const io::VolumeSource info =
        io::openSource(isoview::test::sharedDataPath("dicom/mosaic/sag_asc_36sl"));
    ASSERT_EQ(info.series.size(), 2u);
    PickerUnderTest p(info);
    EXPECT_FALSE(p.table->isColumnHidden(Column::kVolume));
    EXPECT_EQ(p.row(0)->text(Column::kVolume), "volume 1 of 2: time point 1");
    EXPECT_EQ(p.row(1)->text(Column::kVolume), "volume 2 of 2: time point 2");
    EXPECT_EQ(p.row(1)->text(Column::kDimensions), "64 " + kTimes + " 64 " + kTimes + " 36");
    // The first time point is the default, though both are the same size.
    EXPECT_EQ(p.dialog->selectedSeries(), 0u);
    saveScreenshot(*p.dialog, "series_picker_volumes");

    // Opening the second loads the second time point, and its description says so.
    QTest::mouseClick(p.table->viewport(), Qt::LeftButton, {}, p.centre(1));
    QTest::mouseClick(p.open, Qt::LeftButton);
    ASSERT_EQ(p.dialog->result(), QDialog::Accepted);
    io::LoadOptions options;
    options.seriesIndex = p.dialog->selectedSeries();
    const Volume volume = io::loadVolume(info, options);
    EXPECT_EQ(volume.dims(), glm::uvec3(64, 64, 36));
    EXPECT_NE(volume.metadata().seriesDescription.find("volume 2 of 2: time point 2"),
              std::string::npos)
        << volume.metadata().seriesDescription;
}

TEST(SeriesPickerDialog, TheVolumeColumnIsHiddenWhenNoSeriesHasSeveral)
{
    PickerUnderTest p(syntheticInfo());
    EXPECT_TRUE(p.table->isColumnHidden(Column::kVolume));
}

} // namespace
} // namespace isoview::app
