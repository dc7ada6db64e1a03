// The raw-import dialog as a user drives it: typing dimensions checks them against the file size
// on every keystroke (the status sentence and the Open button), the header and the type change
// the expectation, the guess fills dimensions from the file size, the answers reach
// parameters() and are remembered, and what the dialog returns reads real big-endian data
// correctly (CThead from the shared data, compared with the independent slice reader).
#include "app_test_support.h"
#include "io/raw_volume_reader.h"
#include "io/volume_loader.h"
#include "loading/raw_import_dialog.h"
#include "support/shared_data.h"
#include "support/temp_dir.h"
#include "test_paths.h"

#include <gtest/gtest.h>

#include <QApplication>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QTest>
#include <QTimer>
#include <cmath>
#include <cstdlib>
#include <cstring>
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

// A file of exactly `size` bytes (sparse: only the size matters to the dialog).
QString fileOfSize(const isoview::test::TempDir& dir, const std::string& name, std::uint64_t size)
{
    const fs::path path = dir.path() / name;
    std::ofstream(path, std::ios::binary).flush();
    fs::resize_file(path, size);
    return QString::fromStdString(path.string());
}

// Writes the dialog's picture where ISOVIEW_TEST_SCREENSHOTS points, for looking at by eye.
struct DialogUnderTest : isoview::app::test::ShownDialog<RawImportDialog> {
    explicit DialogUnderTest(const QString& path)
        : ShownDialog(std::make_unique<RawImportDialog>(path))
    {
    }
    // Replaces a spin box's text keystroke by keystroke, as a user does.
    void type(const char* box, const QString& text) const
    {
        auto* spin = child<QAbstractSpinBox>(box);
        spin->setFocus();
        spin->selectAll();
        QTest::keyClicks(spin, text);
    }
    void chooseType(ScalarType type) const
    {
        auto* combo = child<QComboBox>("scalarType");
        combo->setCurrentIndex(combo->findData(int(type)));
    }
    QString status() const { return child<QLabel>("status")->text(); }
    bool openEnabled() const { return child<QPushButton>("openButton")->isEnabled(); }
};

io::RawVolumeParameters smallInt16()
{
    io::RawVolumeParameters p;
    p.dims = {1, 1, 1};
    p.type = ScalarType::Int16;
    return p;
}

TEST(RawImportDialog, TypingMatchingDimensionsEnablesOpen)
{
    isoview::test::TempDir dir;
    DialogUnderTest d(fileOfSize(dir, "scan.img", 14811136));
    d.dialog->setParameters(smallInt16());
    EXPECT_FALSE(d.openEnabled());

    d.type("width", "256");
    d.type("height", "256");
    EXPECT_FALSE(d.openEnabled()) << d.status().toStdString();
    d.type("depth", "113");
    EXPECT_EQ(d.status(),
              "256 x 256 x 113 x 2 bytes + 0 header = 14,811,136 bytes: matches the file");
    EXPECT_TRUE(d.openEnabled());
    EXPECT_TRUE(d.dialog->sizeMatches());
    EXPECT_EQ(d.dialog->parameters().dims, glm::uvec3(256, 256, 113));
    saveScreenshot(*d.dialog, "raw_import_match");
}

TEST(RawImportDialog, OneVoxelOffDisablesOpenAndGivesTheDifference)
{
    isoview::test::TempDir dir;
    // One int16 voxel more than 256 x 256 x 113.
    DialogUnderTest d(fileOfSize(dir, "scan.img", 14811138));
    d.dialog->setParameters(smallInt16());
    d.type("width", "256");
    d.type("height", "256");
    d.type("depth", "113");
    EXPECT_EQ(d.status(), "256 x 256 x 113 x 2 bytes + 0 header: expected 14,811,136 bytes, the "
                          "file has 14,811,138 (2 more)");
    EXPECT_FALSE(d.openEnabled());
    saveScreenshot(*d.dialog, "raw_import_mismatch");

    // Open cannot be forced: neither the button nor accept() closes the dialog.
    QTest::mouseClick(d.child<QPushButton>("openButton"), Qt::LeftButton);
    d.dialog->accept();
    EXPECT_TRUE(d.dialog->isVisible());
    EXPECT_EQ(d.dialog->result(), QDialog::Rejected);

    // One slice too many: the file is short.
    d.type("depth", "114");
    EXPECT_EQ(d.status(), "256 x 256 x 114 x 2 bytes + 0 header: expected 14,942,208 bytes, the "
                          "file has 14,811,138 (131,070 fewer)");
    EXPECT_FALSE(d.openEnabled());
}

TEST(RawImportDialog, HeaderOffsetChangesTheExpectation)
{
    isoview::test::TempDir dir;
    DialogUnderTest d(fileOfSize(dir, "with_header.vol", 64 * 64 * 64 + 512));
    io::RawVolumeParameters p;
    p.dims = {64, 64, 64};
    p.type = ScalarType::UInt8;
    d.dialog->setParameters(p);
    EXPECT_EQ(d.status(), "64 x 64 x 64 x 1 byte + 0 header: expected 262,144 bytes, the file "
                          "has 262,656 (512 more)");
    EXPECT_FALSE(d.openEnabled());

    d.type("headerOffset", "512");
    EXPECT_EQ(d.status(), "64 x 64 x 64 x 1 byte + 512 header = 262,656 bytes: matches the file");
    EXPECT_TRUE(d.openEnabled());
    EXPECT_EQ(d.dialog->parameters().headerOffset, 512u);

    d.type("headerOffset", "1000");
    EXPECT_FALSE(d.openEnabled());
    EXPECT_TRUE(d.status().endsWith("(488 fewer)")) << d.status().toStdString();

    // "Rest of File" makes the leftover bytes the header.
    d.type("headerOffset", "0");
    auto* remainder = d.child<QPushButton>("remainderButton");
    ASSERT_TRUE(remainder->isEnabled());
    QTest::mouseClick(remainder, Qt::LeftButton);
    EXPECT_EQ(d.dialog->parameters().headerOffset, 512u);
    EXPECT_TRUE(d.openEnabled());
    EXPECT_FALSE(remainder->isEnabled()); // nothing left to do
}

TEST(RawImportDialog, TypeChangesTheExpectation)
{
    isoview::test::TempDir dir;
    DialogUnderTest d(fileOfSize(dir, "cube.dat", 32 * 32 * 32 * 4));
    io::RawVolumeParameters p;
    p.dims = {32, 32, 32};
    p.type = ScalarType::UInt16;
    d.dialog->setParameters(p);
    EXPECT_FALSE(d.openEnabled());
    EXPECT_TRUE(d.status().endsWith("(65,536 more)")) << d.status().toStdString();
    d.chooseType(ScalarType::Float32);
    EXPECT_EQ(d.status(), "32 x 32 x 32 x 4 bytes + 0 header = 131,072 bytes: matches the file");
    EXPECT_TRUE(d.openEnabled());
    d.chooseType(ScalarType::Float64);
    EXPECT_FALSE(d.openEnabled());
}

TEST(RawImportDialog, BigEndianTypeAndSpacingReachParameters)
{
    isoview::test::TempDir dir;
    DialogUnderTest d(fileOfSize(dir, "f.raw", 10 * 20 * 30 * 4 + 16));
    d.dialog->setParameters(smallInt16());
    d.type("width", "10");
    d.type("height", "20");
    d.type("depth", "30");
    d.type("headerOffset", "16");
    d.chooseType(ScalarType::Int32);
    auto* order = d.child<QComboBox>("byteOrder");
    ASSERT_TRUE(order->isEnabled());
    order->setFocus();
    QTest::keyClick(order, Qt::Key_Down); // little -> big
    d.type("spacingX", "0.5");
    d.type("spacingY", "0.75");
    d.type("spacingZ", "2.5");

    EXPECT_TRUE(d.openEnabled()) << d.status().toStdString();
    const io::RawVolumeParameters p = d.dialog->parameters();
    EXPECT_EQ(p.dims, glm::uvec3(10, 20, 30));
    EXPECT_EQ(p.type, ScalarType::Int32);
    EXPECT_TRUE(p.bigEndian);
    EXPECT_EQ(p.spacing, glm::dvec3(0.5, 0.75, 2.5));
    EXPECT_EQ(p.headerOffset, 16u);

    // One-byte values have no byte order to choose.
    d.chooseType(ScalarType::Int8);
    EXPECT_FALSE(order->isEnabled());
    d.chooseType(ScalarType::Float64);
    EXPECT_TRUE(order->isEnabled());
    EXPECT_EQ(d.dialog->parameters().type, ScalarType::Float64);
}

TEST(RawImportDialog, SpacingMustBePositive)
{
    isoview::test::TempDir dir;
    DialogUnderTest d(fileOfSize(dir, "f.raw", 8));
    d.type("spacingX", "0");
    EXPECT_GT(d.dialog->parameters().spacing.x, 0.0);
    io::RawVolumeParameters p;
    p.dims = {2, 2, 2};
    p.spacing = {-1.0, 0.0, 3.0};
    d.dialog->setParameters(p);
    EXPECT_GT(d.dialog->parameters().spacing.x, 0.0);
    EXPECT_GT(d.dialog->parameters().spacing.y, 0.0);
    EXPECT_EQ(d.dialog->parameters().spacing.z, 3.0);
}

TEST(RawImportDialog, GuessRawDimensions)
{
    EXPECT_EQ(guessRawDimensions(64 * 64 * 64, 1), glm::uvec3(64, 64, 64));
    EXPECT_EQ(guessRawDimensions(std::uint64_t(100) * 100 * 100 * 8, 8), glm::uvec3(100));
    EXPECT_EQ(guessRawDimensions(std::uint64_t(256) * 256 * 113 * 2, 2), glm::uvec3(256, 256, 113));
    EXPECT_EQ(guessRawDimensions(std::uint64_t(512) * 512 * 40 * 2, 2), glm::uvec3(512, 512, 40));
    EXPECT_EQ(guessRawDimensions(std::uint64_t(128) * 128 * 85 * 2, 2), glm::uvec3(128, 128, 85));
    // The type decides: the same bytes are 128 x 128 x 170 of uint8.
    EXPECT_EQ(guessRawDimensions(std::uint64_t(128) * 128 * 85 * 2, 1), glm::uvec3(128, 128, 170));
    EXPECT_EQ(guessRawDimensions(7, 1), std::nullopt); // neither a cube nor square slices
    EXPECT_EQ(guessRawDimensions(3, 2), std::nullopt); // not a whole number of values
    EXPECT_EQ(guessRawDimensions(0, 2), std::nullopt);
    EXPECT_EQ(guessRawDimensions(128 * 128 - 1, 1), std::nullopt);
}

TEST(RawImportDialog, GuessFillsDimensionsForTheBundledSample)
{
    // The bundled sample is 128 x 128 x 85 uint16; its name is ignored by the dialog.
    const QString sample =
        QString::fromStdString(std::string(isoview::test::kSourceDir) +
                               "/resources/samples/mr_head_128x128x85_uint16.raw");
    DialogUnderTest d(sample);
    io::RawVolumeParameters p;
    p.dims = {10, 10, 10};
    p.type = ScalarType::UInt16;
    d.dialog->setParameters(p);
    ASSERT_FALSE(d.openEnabled());
    QTest::mouseClick(d.child<QPushButton>("guessButton"), Qt::LeftButton);
    EXPECT_EQ(d.dialog->parameters().dims, glm::uvec3(128, 128, 85));
    EXPECT_TRUE(d.openEnabled()) << d.status().toStdString();
    auto* note = d.child<QLabel>("guessNote");
    EXPECT_TRUE(note->isVisible());
    EXPECT_TRUE(note->text().contains("square slices 128 wide")) << note->text().toStdString();
    saveScreenshot(*d.dialog, "raw_import_guess");

    // The answer reads the same voxels as the file-name convention does.
    const Volume viaDialog = io::readRawVolume(sample.toStdString(), d.dialog->parameters());
    const Volume viaName = isoview::test::loadBundledSample();
    ASSERT_EQ(viaDialog.byteCount(), viaName.byteCount());
    EXPECT_EQ(std::memcmp(viaDialog.bytes(), viaName.bytes(), viaName.byteCount()), 0);

    // A later edit makes the note stale, so it goes.
    d.type("depth", "84");
    EXPECT_FALSE(note->isVisible());

    // With a type that leaves no fitting shape, nothing changes and the note says why.
    d.chooseType(ScalarType::Float64);
    const glm::uvec3 before = d.dialog->parameters().dims;
    EXPECT_FALSE(d.dialog->applyGuess());
    EXPECT_EQ(d.dialog->parameters().dims, before);
    EXPECT_TRUE(note->text().startsWith("No guess")) << note->text().toStdString();
}

TEST(RawImportDialog, ReadsRealBigEndianDataAsTyped)
{
    // CThead's 113 big-endian int16 slices glued into one headerless file.
    isoview::test::TempDir dir;
    const fs::path glued = dir.path() / "CThead.bin";
    {
        std::ofstream out(glued, std::ios::binary);
        for (int k = 1; k <= 113; ++k) {
            std::ifstream slice(isoview::test::sharedDataPath(
                                    "raw/CThead_256x256x113_int16_be/CThead." + std::to_string(k)),
                                std::ios::binary);
            out << slice.rdbuf();
        }
    }
    DialogUnderTest d(QString::fromStdString(glued.string()));
    d.dialog->setParameters(smallInt16());
    d.type("width", "256");
    d.type("height", "256");
    d.type("depth", "113");
    d.child<QComboBox>("byteOrder")->setCurrentIndex(1);
    d.type("spacingZ", "2");
    ASSERT_TRUE(d.openEnabled()) << d.status().toStdString();

    const Volume fromDialog = io::readRawVolume(glued, d.dialog->parameters());
    const Volume reference = isoview::test::loadCtHead();
    ASSERT_EQ(fromDialog.byteCount(), reference.byteCount());
    EXPECT_EQ(std::memcmp(fromDialog.bytes(), reference.bytes(), reference.byteCount()), 0);
    EXPECT_EQ(fromDialog.geometry().spacing, glm::dvec3(1.0, 1.0, 2.0));
    EXPECT_EQ(fromDialog.storedRange().max, 3272.0); // the README's maximum; LE reads garbage
}

TEST(RawImportDialog, UnreadableFileKeepsOpenDisabled)
{
    isoview::test::TempDir dir;
    DialogUnderTest d(QString::fromStdString((dir.path() / "missing.raw").string()));
    EXPECT_EQ(d.dialog->fileSize(), std::nullopt);
    EXPECT_FALSE(d.openEnabled());
    EXPECT_TRUE(d.status().contains("cannot be read")) << d.status().toStdString();
    EXPECT_FALSE(d.dialog->applyGuess());
}

TEST(RawImportDialog, AskReturnsTheAnswerAndRemembersIt)
{
    QSettings().remove("rawImport");
    isoview::test::TempDir dir;
    const QString path = fileOfSize(dir, "a.raw", 40 * 30 * 20 * 2 + 100);
    io::RawVolumeParameters initial;
    initial.dims = {40, 30, 20};
    initial.type = ScalarType::UInt16;
    initial.bigEndian = true;
    initial.spacing = {0.8, 0.8, 1.5};
    initial.headerOffset = 100;

    onModalDialog([](QWidget* modal) {
        QTest::mouseClick(modal->findChild<QPushButton*>("openButton"), Qt::LeftButton);
    });
    const std::optional<io::RawVolumeParameters> answer =
        RawImportDialog::ask(path, nullptr, initial);
    ASSERT_TRUE(answer.has_value());
    EXPECT_EQ(answer->dims, initial.dims);
    EXPECT_EQ(answer->type, initial.type);
    EXPECT_TRUE(answer->bigEndian);
    EXPECT_EQ(answer->spacing, initial.spacing);
    EXPECT_EQ(answer->headerOffset, 100u);

    // A new dialog, on a file the remembered answer fits, starts from it.
    const QString other = fileOfSize(dir, "b.raw", 40 * 30 * 20 * 2 + 100);
    RawImportDialog next(other);
    EXPECT_TRUE(next.sizeMatches());
    EXPECT_EQ(next.parameters().dims, initial.dims);
    EXPECT_EQ(next.parameters().type, initial.type);
    EXPECT_TRUE(next.parameters().bigEndian);
    EXPECT_EQ(next.parameters().spacing, initial.spacing);

    // Cancel returns nothing and keeps what was remembered.
    onModalDialog([](QWidget* modal) { QTest::keyClick(modal, Qt::Key_Escape); });
    EXPECT_EQ(RawImportDialog::ask(other, nullptr, std::nullopt), std::nullopt);
    EXPECT_EQ(QSettings().value("rawImport/headerOffset").toULongLong(), 100u);
}

TEST(RawImportDialog, StartsWithAGuessWhenTheRememberedAnswerDoesNotFit)
{
    QSettings().remove("rawImport"); // defaults: uint8
    isoview::test::TempDir dir;
    RawImportDialog dialog(fileOfSize(dir, "cube.raw", 96 * 96 * 96));
    EXPECT_TRUE(dialog.sizeMatches());
    EXPECT_EQ(dialog.parameters().dims, glm::uvec3(96, 96, 96));
}

// Mean absolute difference between horizontal neighbours, in grey levels: small for an image,
// large for noise (a 16-bit slice read in the wrong byte order).
double roughness(const QImage& image)
{
    double sum = 0.0;
    for (int y = 0; y < image.height(); ++y) {
        const uchar* row = image.constScanLine(y);
        for (int x = 1; x < image.width(); ++x)
            sum += std::abs(int(row[x]) - int(row[x - 1]));
    }
    return sum / double(image.height() * (image.width() - 1));
}

QString ctHeadFolder()
{
    return QString::fromStdString(
        isoview::test::sharedDataPath("raw/CThead_256x256x113_int16_be").string());
}

TEST(RawImportDialog, FolderModeCountsTheSlicesAndPreviewsTheMiddleOne)
{
    QSettings().remove("rawImport");
    DialogUnderTest t(ctHeadFolder());
    RawImportDialog& d = *t.dialog;
    EXPECT_TRUE(d.isFolderMode());
    EXPECT_EQ(d.sliceFileCount(), 113u);
    EXPECT_EQ(d.fileSize(), std::optional<std::uint64_t>(131072));
    EXPECT_FALSE(t.child<QSpinBox>("depth")->isEnabled());
    EXPECT_TRUE(t.child<QLabel>("fileSize")->text().contains("113 slice files"))
        << t.child<QLabel>("fileSize")->text().toStdString();

    io::RawVolumeParameters p;
    p.dims = {256, 256, 1}; // the depth is the file count whatever is asked
    p.type = ScalarType::Int16;
    p.bigEndian = true;
    d.setParameters(p);
    EXPECT_TRUE(d.sizeMatches());
    EXPECT_EQ(d.parameters().dims, glm::uvec3(256, 256, 113));
    EXPECT_TRUE(t.status().contains("matches each of the 113 files")) << t.status().toStdString();
    ASSERT_FALSE(d.previewImage().isNull());
    EXPECT_EQ(d.previewImage().size(), QSize(256, 256));
    EXPECT_TRUE(t.child<QLabel>("previewCaption")->text().contains("Slice 57 of 113"));
    const double bigEndian = roughness(d.previewImage());
    saveScreenshot(*t.dialog, "raw-import-folder-big-endian");

    // Little-endian: the same slice is noise, at once.
    auto* order = t.child<QComboBox>("byteOrder");
    order->setCurrentIndex(0);
    ASSERT_FALSE(d.previewImage().isNull());
    const double littleEndian = roughness(d.previewImage());
    saveScreenshot(*t.dialog, "raw-import-folder-little-endian");
    EXPECT_GT(littleEndian, 4.0 * bigEndian) << bigEndian << " " << littleEndian;
    EXPECT_LT(bigEndian, 10.0);

    // No preview while the sizes disagree.
    t.type("width", "255");
    EXPECT_FALSE(d.sizeMatches());
    EXPECT_TRUE(d.previewImage().isNull());
}

TEST(RawImportDialog, AskOnAFolderProposesTheLayoutItsNameStates)
{
    QSettings().remove("rawImport");
    const io::VolumeSource source = io::openSource(ctHeadFolder().toStdString());
    bool proposed = false;
    onModalDialog([&](QWidget* modal) {
        auto* dialog = qobject_cast<RawImportDialog*>(modal);
        ASSERT_NE(dialog, nullptr);
        const QString note = dialog->findChild<QLabel*>("guessNote")->text();
        proposed = note.contains("as the name") && dialog->sizeMatches() &&
                   dialog->parameters().bigEndian && dialog->sliceFileCount() == 113;
        EXPECT_TRUE(proposed) << note.toStdString();
        QTest::keyClick(modal, Qt::Key_Return); // Enter opens
    });
    const std::optional<io::RawVolumeParameters> answer = RawImportDialog::ask(source, nullptr);
    EXPECT_TRUE(proposed);
    ASSERT_TRUE(answer.has_value());
    EXPECT_EQ(answer->dims, glm::uvec3(256, 256, 113));
    EXPECT_EQ(answer->type, ScalarType::Int16);
    EXPECT_TRUE(answer->bigEndian);

    onModalDialog([](QWidget* modal) { QTest::keyClick(modal, Qt::Key_Escape); });
    EXPECT_EQ(RawImportDialog::ask(source, nullptr), std::nullopt);
}

TEST(RawImportDialog, AFolderWithoutALayoutInItsNameGetsAGuessFromTheSizes)
{
    QSettings().remove("rawImport");
    isoview::test::TempDir dir;
    for (int k = 1; k <= 4; ++k) {
        fs::copy_file(isoview::test::sharedDataPath("raw/CThead_256x256x113_int16_be/CThead." +
                                                    std::to_string(50 + k)),
                      dir.path() / ("scan." + std::to_string(k)));
    }
    const io::VolumeSource source = io::openSource(dir.path());
    ASSERT_EQ(source.format, io::VolumeFormat::RawSliceFolder);
    ASSERT_TRUE(source.rawGuess.has_value());
    EXPECT_FALSE(source.rawGuessFromName);
    onModalDialog([&](QWidget* modal) {
        auto* dialog = qobject_cast<RawImportDialog*>(modal);
        ASSERT_NE(dialog, nullptr);
        const QString note = dialog->findChild<QLabel*>("guessNote")->text();
        EXPECT_TRUE(note.contains("Guessed 256 \u00d7 256") && note.contains("big-endian") &&
                    note.contains("a guess"))
            << note.toStdString();
        EXPECT_FALSE(dialog->previewImage().isNull());
        dialog->accept();
    });
    const std::optional<io::RawVolumeParameters> answer = RawImportDialog::ask(source, nullptr);
    ASSERT_TRUE(answer.has_value());
    EXPECT_EQ(answer->dims, glm::uvec3(256, 256, 4));
    EXPECT_TRUE(answer->bigEndian); // told by the middle slice: little-endian it is noise
}

} // namespace
} // namespace isoview::app
