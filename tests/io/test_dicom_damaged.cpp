// Damaged DICOM: copies of the shared real files cut or corrupted in a temp folder. The
// messages must say "damaged" (not "not DICOM"), where DCMTK stopped and why; a series with
// some unreadable slices loads the rest with a warning naming them and an honest gap, unless
// strict loading is asked for.
#include "core/error.h"
#include "io/dicom/dicom_series_loader.h"
#include "io/io_test_support.h"
#include "io/volume_loader.h"
#include "support/temp_dir.h"
#include "test_paths.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <string>

namespace isoview {
namespace {

namespace fs = std::filesystem;
using test::allWarnings;
using test::contains;
using test::messageOf;
using test::readFile;
using test::writeFile;

const fs::path kPhantom = fs::path(test::kSharedDataDir) / "dicom" / "ct_philips_head_phantom_5mm";
const fs::path kCtReference =
    fs::path(test::kSharedDataDir) / "dicom" / "single" /
    "CTImage.dcm_LittleEndianExplicitTransferSyntax_1.2.840.10008.1.2.1.dcm";

// The offset of the first explicit-VR element header (group, element, VR) in bytes.
std::size_t findElement(const std::string& bytes, std::uint16_t group, std::uint16_t element,
                        const char* vr)
{
    const char header[6] = {char(group & 0xFF),
                            char(group >> 8),
                            char(element & 0xFF),
                            char(element >> 8),
                            vr[0],
                            vr[1]};
    const auto it = std::search(bytes.begin(), bytes.end(), header, header + 6);
    EXPECT_NE(it, bytes.end()) << "element not found";
    return std::size_t(it - bytes.begin());
}

// A copy of the phantom series with `edit` applied to the bytes of one file.
template <typename Edit> void copyPhantom(const fs::path& to, const std::string& damaged, Edit edit)
{
    for (const auto& entry : fs::directory_iterator(kPhantom)) {
        std::string bytes = readFile(entry.path());
        if (entry.path().filename() == damaged) edit(bytes);
        writeFile(to / entry.path().filename(), bytes);
    }
}

TEST(DicomDamaged, CutAfterThePreambleIsDamagedDicomNotSomeOtherFile)
{
    test::TempDir dir;
    std::string bytes = readFile(kCtReference);
    bytes.resize(132); // preamble and "DICM"
    const fs::path cut = dir.path() / "I50";
    writeFile(cut, bytes);

    const std::string message = messageOf<IoError>([&] { io::scanDicom(cut); });
    EXPECT_TRUE(contains(message, "'" + cut.string() + "' is DICOM but damaged")) << message;
    EXPECT_FALSE(contains(message, "not a DICOM file")) << message;
    EXPECT_TRUE(contains(message, "no readable DICOM image series")) << message;
    EXPECT_FALSE(contains(message, "no DICOM image series found")) << message;
}

TEST(DicomDamaged, CutInsideTheHeaderSaysWhereDcmtkStopped)
{
    test::TempDir dir;
    std::string bytes = readFile(kCtReference);
    const std::size_t rows = findElement(bytes, 0x0028, 0x0010, "US");
    bytes.resize(rows + 9); // inside the value of Rows (0028,0010)
    const fs::path cut = dir.path() / "I50";
    writeFile(cut, bytes);

    const std::string message = messageOf<IoError>([&] { io::scanDicom(cut); });
    EXPECT_TRUE(contains(message, "is DICOM but damaged: DCMTK stopped at byte")) << message;
    EXPECT_TRUE(contains(message, "of " + std::to_string(bytes.size()))) << message;
    EXPECT_TRUE(contains(message, "(0028,0010) Rows") || contains(message, "(0028,0004)"))
        << message;
    // DCMTK's condition text follows the position.
    EXPECT_TRUE(contains(message, "Rows: Invalid stream") ||
                contains(message, "Rows: I/O suspension or premature end of stream"))
        << message;
}

TEST(DicomDamaged, CorruptLengthInTheHeaderNamesTheElement)
{
    test::TempDir dir;
    std::string bytes = readFile(kCtReference);
    // Rows (0028,0010) US, length 2 -> a 16-bit length of 0xFFF0: its value would run past the
    // next elements, so parsing derails right there.
    const std::size_t rows = findElement(bytes, 0x0028, 0x0010, "US");
    bytes[rows + 6] = char(0xF0);
    bytes[rows + 7] = char(0xFF);
    bytes.resize(rows + 200);
    const fs::path broken = dir.path() / "I60";
    writeFile(broken, bytes);

    const std::string message = messageOf<IoError>([&] { io::scanDicom(broken); });
    EXPECT_TRUE(contains(message, "'" + broken.string() + "' is DICOM but damaged")) << message;
    EXPECT_TRUE(contains(message, "DCMTK stopped at byte")) << message;
    EXPECT_TRUE(contains(message, "(0028,0010) Rows")) << message;
}

TEST(DicomDamaged, FlippedVrBytesAreReportedAsDamagedDicom)
{
    test::TempDir dir;
    std::string bytes = readFile(kCtReference);
    // The VR of Columns (0028,0011) "US" becomes two control bytes: DCMTK then reads the VR
    // and length as a 32-bit implicit length far beyond the end of the file.
    const std::size_t columns = findElement(bytes, 0x0028, 0x0011, "US");
    bytes[columns + 4] = char(0x01);
    bytes[columns + 5] = char(0x7F);
    const fs::path broken = dir.path() / "I70";
    writeFile(broken, bytes);

    const std::string message = messageOf<IoError>([&] { io::scanDicom(broken); });
    EXPECT_TRUE(contains(message, "I70' is DICOM but damaged: element (0028,0011) Columns has "
                                  "an invalid value representation"))
        << message;
    EXPECT_FALSE(contains(message, "not an image")) << message;
}

TEST(DicomDamaged, TruncatedPixelDataSaysWhereAndWhichFrame)
{
    test::TempDir dir;
    std::string bytes = readFile(kCtReference);
    bytes.resize(300000);
    const fs::path cut = dir.path() / "cut.dcm";
    writeFile(cut, bytes);
    const io::DicomScan scan = io::scanDicom(cut); // the header is intact
    const std::string message = messageOf<IoError>([&] { io::loadDicomSeries(scan.series.at(0)); });
    // 531324 bytes in the original, 524288 of them pixels from byte 7036.
    EXPECT_TRUE(contains(message, "cut.dcm' is truncated at byte 300000")) << message;
    EXPECT_TRUE(contains(message, "from byte 7036")) << message;
    EXPECT_TRUE(contains(message, "expected 524288 bytes, the file holds 292964")) << message;
    EXPECT_TRUE(contains(message, "frame 1 of 1 is incomplete")) << message;
}

TEST(DicomDamaged, OneTruncatedSliceLeavesAnHonestGapUnlessStrict)
{
    test::TempDir dir;
    // I140 is instance 14 at z = 761.21: cut in its pixel data.
    copyPhantom(dir.path(), "I140", [](std::string& bytes) { bytes.resize(200000); });
    const io::DicomScan scan = io::scanDicom(dir.path());
    ASSERT_EQ(scan.series.size(), 1u);

    const Volume ct = io::loadDicomSeries(scan.series[0]);
    EXPECT_EQ(ct.dims(), glm::uvec3(512, 512, 27));
    const std::string warnings = allWarnings(ct);
    EXPECT_TRUE(contains(warnings, "1 of 28 slices could not be read and were left out"))
        << warnings;
    EXPECT_TRUE(contains(warnings, "I140' is truncated at byte 200000")) << warnings;
    EXPECT_TRUE(contains(warnings, "a gap of 10 mm between slices 13 and 14 of 27")) << warnings;
    const VolumeGeometry& g = ct.geometry();
    ASSERT_EQ(g.sliceOrigins.size(), 27u);
    EXPECT_NEAR(g.sliceOrigins[12].z, 756.21, 1e-6);
    EXPECT_NEAR(g.sliceOrigins[13].z, 766.21, 1e-6);

    // The kept slices hold their own pixels: slice 13 is I150 (instance 15).
    const Volume reference = io::loadDicomSeries(io::scanDicom(kPhantom).series.at(0));
    for (const auto& [kept, original] : {std::pair{12u, 12u}, {13u, 14u}, {26u, 27u}}) {
        for (std::uint32_t i = 0; i < 512; i += 37) {
            EXPECT_EQ(ct.valueAt(i, 256, kept), reference.valueAt(i, 256, original)) << kept;
        }
    }

    const std::string strict = messageOf<IoError>([&] {
        io::loadDicomSeries(scan.series[0], nullptr, io::DicomLoadOptions{.strict = true});
    });
    EXPECT_TRUE(contains(strict, "I140' is truncated at byte 200000")) << strict;

    // The same through the one entry point, as the viewer and the CLI load.
    io::LoadOptions options;
    options.strict = true;
    EXPECT_THROW(io::loadVolume(dir.path(), options), IoError);
    EXPECT_EQ(io::loadVolume(dir.path()).dims().z, 27u);
}

TEST(DicomDamaged, SlicesDamagedAfterTheScanAreLeftOutByName)
{
    test::TempDir dir;
    copyPhantom(dir.path(), "", [](std::string&) {});
    const io::DicomScan scan = io::scanDicom(dir.path());
    // After the scan: I10 (the first slice) becomes garbage and I280 (the last) loses its
    // header; I200 is cut inside its pixel data.
    std::string garbage(4000, '\0');
    for (std::size_t i = 0; i < garbage.size(); ++i) {
        garbage[i] = char((i * 7919 + 13) % 251);
    }
    writeFile(dir.path() / "I10", garbage);
    std::string last = readFile(dir.path() / "I280");
    last.resize(132);
    writeFile(dir.path() / "I280", last);
    std::string cut = readFile(dir.path() / "I200");
    cut.resize(300000);
    writeFile(dir.path() / "I200", cut);

    const Volume ct = io::loadDicomSeries(scan.series.at(0));
    EXPECT_EQ(ct.dims().z, 25u);
    const std::string warnings = allWarnings(ct);
    EXPECT_TRUE(contains(warnings, "3 of 28 slices could not be read")) << warnings;
    EXPECT_TRUE(contains(warnings, "I10' is not a DICOM file")) << warnings;
    EXPECT_TRUE(contains(warnings, "I280' is DICOM but damaged")) << warnings;
    EXPECT_TRUE(contains(warnings, "I200' is truncated at byte 300000")) << warnings;
    // The first and last slices are gone: the stack starts and ends one slice in.
    ASSERT_EQ(ct.geometry().sliceOrigins.size(), 25u);
    EXPECT_NEAR(ct.geometry().sliceOrigins.front().z, 701.21, 1e-6);
    EXPECT_NEAR(ct.geometry().sliceOrigins.back().z, 826.21, 1e-6);
}

TEST(DicomDamaged, EverySliceUnreadableIsAnError)
{
    test::TempDir dir;
    copyPhantom(dir.path(), "", [](std::string&) {});
    const io::DicomScan scan = io::scanDicom(dir.path());
    for (const auto& entry : fs::directory_iterator(dir.path())) {
        std::string bytes = readFile(entry.path());
        bytes.resize(100000);
        writeFile(entry.path(), bytes);
    }
    const std::string message = messageOf<IoError>([&] { io::loadDicomSeries(scan.series.at(0)); });
    EXPECT_TRUE(contains(message, "none of the 28 slices of the DICOM series can be read"))
        << message;
    EXPECT_TRUE(contains(message, "is truncated at byte 100000")) << message;
    EXPECT_TRUE(contains(message, "and 27 more")) << message;
}

TEST(DicomDamaged, AFolderOfOnlyDamagedFilesSaysSo)
{
    test::TempDir dir;
    for (const char* name : {"I10", "I20"}) {
        std::string bytes = readFile(kPhantom / name);
        bytes.resize(400);
        writeFile(dir.path() / name, bytes);
    }
    const std::string message = messageOf<IoError>([&] { io::scanDicom(dir.path()); });
    EXPECT_TRUE(contains(message, "no readable DICOM image series")) << message;
    EXPECT_TRUE(contains(message, "2 DICOM files are damaged")) << message;
    // I10 ends at an element boundary (DCMTK reads it without complaint), I20 inside one.
    EXPECT_TRUE(contains(message, "I10' is DICOM but damaged: it has the DICM marker but its 400 "
                                  "bytes end after element"))
        << message;
    EXPECT_TRUE(contains(message, "I20' is DICOM but damaged: DCMTK stopped at byte")) << message;
}

// Sequences nested `levels` deep (undefined lengths, explicit VR little endian) in a Part 10
// file: DCMTK reads them by recursion, so 7,000 levels overflowed the stack (SIGSEGV).
std::string nestedSequences(int levels)
{
    std::string bytes(128, '\0');
    bytes += "DICM";
    const std::string syntax("1.2.840.10008.1.2.1\0", 20);
    bytes += std::string("\x02\x00\x10\x00UI\x14\x00", 8) + syntax;
    for (int i = 0; i < levels; ++i) {
        bytes += std::string("\x08\x00\x15\x11SQ\x00\x00\xFF\xFF\xFF\xFF", 12);
        bytes += std::string("\xFE\xFF\x00\xE0\xFF\xFF\xFF\xFF", 8);
    }
    for (int i = 0; i < levels; ++i) {
        bytes += std::string("\xFE\xFF\x0D\xE0\x00\x00\x00\x00", 8);
        bytes += std::string("\xFE\xFF\xDD\xE0\x00\x00\x00\x00", 8);
    }
    return bytes;
}

TEST(DicomDamaged, DeeplyNestedSequencesAreRefusedBeforeDcmtkOverflowsTheStack)
{
    test::TempDir dir;
    writeFile(dir.path() / "deep.dcm", nestedSequences(7000));
    const std::string message =
        messageOf<IoError>([&] { (void)io::openSource(dir.path() / "deep.dcm"); });
    EXPECT_TRUE(contains(message, "its sequences nest more than 64 levels deep")) << message;
    // In a folder it is a damaged file among others, named in the notes.
    writeFile(dir.path() / "I10", readFile(kPhantom / "I10"));
    const io::DicomScan scan = io::scanDicom(dir.path());
    ASSERT_EQ(scan.series.size(), 1u);
    const bool named = std::any_of(scan.notes.begin(), scan.notes.end(), [](const auto& note) {
        return contains(note, "deep.dcm' is DICOM but damaged or hostile");
    });
    EXPECT_TRUE(named);
    // Nesting as deep as the limit is DICOM's own business: DCMTK reads it (and finds no image).
    writeFile(dir.path() / "deep.dcm", nestedSequences(64));
    const std::string shallow =
        messageOf<IoError>([&] { (void)io::openSource(dir.path() / "deep.dcm"); });
    EXPECT_FALSE(contains(shallow, "nest more than")) << shallow;
    EXPECT_TRUE(contains(shallow, "before any image attribute")) << shallow;
}

} // namespace
} // namespace isoview
