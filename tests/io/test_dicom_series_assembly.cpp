// How the DICOM loader assembles a series into one volume, on files written by these tests with
// DCMTK and on a real series with a slice taken out: a missing slice and mixed image sizes,
// tilted and unevenly spaced stacks kept as measured, duplicates, missing positions, every bit
// depth and rescale, non-image objects in a folder, and a DICOMDIR.
#include "core/error.h"
#include "io/dicom/dicom_series_loader.h"
#include "io/dicom_test_support.h"
#include "io/io_test_support.h"
#include "support/temp_dir.h"

#include <dcmtk/config/osconfig.h>
#include <dcmtk/dcmdata/dcddirif.h>
#include <dcmtk/dcmdata/dctk.h>
#include <dcmtk/dcmdata/dcuid.h>
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <string>
#include <vector>

namespace isoview {
namespace {

namespace fs = std::filesystem;
using io::DicomScan;
using io::DicomSeriesInfo;
using test::allWarnings;
using test::anyWarningContains;
using test::dicomData;
using test::ds;
using test::kCtReference;
using test::loadDefault;
using test::messageOf;
using test::rewrite;
using test::singleFile;
using test::SliceSpec;
using test::writeSlice;

TEST(DicomSeriesLoader, MissingSliceIsReportedAndPositionsKept)
{
    test::TempDir dir;
    const fs::path folder = dicomData("ct_philips_head_phantom_5mm");
    for (const auto& entry : fs::directory_iterator(folder)) {
        if (entry.path().filename() != "I140") { // instance 14, z = 761.21
            fs::copy_file(entry.path(), dir.path() / entry.path().filename());
        }
    }
    const Volume ct = loadDefault(dir.path());
    EXPECT_EQ(ct.dims(), glm::uvec3(512, 512, 27));
    const VolumeGeometry& g = ct.geometry();
    ASSERT_EQ(g.sliceOrigins.size(), 27u);
    for (std::size_t k = 0; k < 27; ++k) {
        const double expected = 696.21 + 5.0 * double(k < 13 ? k : k + 1);
        EXPECT_NEAR(g.sliceOrigins[k].z, expected, 1e-9) << k;
        EXPECT_NEAR(g.sliceOrigins[k].x, -115.5, 1e-9);
    }
    EXPECT_NEAR(g.spacing.z, 135.0 / 26.0, 1e-9); // the mean gap
    EXPECT_TRUE(anyWarningContains(ct, "missing slice")) << allWarnings(ct);
    EXPECT_TRUE(anyWarningContains(ct, "a gap of 10 mm between slices 13 and 14 of 27"))
        << allWarnings(ct);
    EXPECT_TRUE(anyWarningContains(ct, "756.21 mm")) << allWarnings(ct);
}

TEST(DicomSeriesLoader, MixedImageSizesInOneSeriesAreSplitOrRefused)
{
    test::TempDir dir;
    const std::string uid = "1.2.826.0.1.3680043.9.7433.77.99";
    const auto patch = [&](DcmDataset& d) {
        ASSERT_TRUE(d.putAndInsertString(DCM_SeriesInstanceUID, uid.c_str()).good());
    };
    rewrite(singleFile("MR_small.dcm"), dir.path() / "mr.dcm", patch);
    rewrite(singleFile(kCtReference), dir.path() / "ct.dcm", patch);

    // Scanning splits the UID into one stack per size; the default is the larger one.
    const DicomScan scan = io::scanDicom(dir.path());
    ASSERT_EQ(scan.series.size(), 2u);
    EXPECT_EQ(scan.series[0].summary.uid, uid + "#1");
    EXPECT_EQ(scan.series[1].summary.uid, uid + "#2");
    EXPECT_EQ(scan.series[scan.defaultSeries].summary.dims, glm::uvec3(512, 512, 1));
    for (const DicomSeriesInfo& s : scan.series) {
        EXPECT_EQ(s.seriesInstanceUid, uid);
        EXPECT_NE(s.summary.description.find("stack"), std::string::npos);
        EXPECT_NO_THROW(io::loadDicomSeries(s));
    }

    // A hand-made series with both sizes is refused, naming them.
    DicomSeriesInfo both;
    both.files = {dir.path() / "mr.dcm", dir.path() / "ct.dcm"};
    const std::string message = messageOf<InvalidInputError>([&] { io::loadDicomSeries(both); });
    EXPECT_NE(message.find("512x512"), std::string::npos) << message;
    EXPECT_NE(message.find("64x64"), std::string::npos) << message;
}

TEST(DicomSeriesLoader, TiltedStackKeepsExactSlicePositions)
{
    test::TempDir dir;
    const double shear = std::tan(15.0 * std::numbers::pi / 180.0);
    std::vector<glm::dvec3> expected;
    for (int k = 0; k < 5; ++k) {
        const double z = 2.0 * k;
        SliceSpec spec;
        spec.position = std::array<std::string, 3>{"10", ds(-20.0 + shear * z), ds(z)};
        spec.instanceNumber = 5 - k; // instance order opposite to position order
        spec.values.assign(64, k * 10);
        writeSlice(dir.path() / ("slice" + std::to_string(k) + ".dcm"), spec);
        expected.emplace_back(10.0, std::stod(ds(-20.0 + shear * z)), z);
    }
    const Volume v = loadDefault(dir.path());
    EXPECT_EQ(v.dims(), glm::uvec3(8, 8, 5));
    const VolumeGeometry& g = v.geometry();
    ASSERT_EQ(g.sliceOrigins.size(), 5u) << allWarnings(v);
    for (std::size_t k = 0; k < 5; ++k) {
        EXPECT_EQ(g.sliceOrigins[k], expected[k]) << k;
        EXPECT_EQ(v.valueAt(0, 0, std::uint32_t(k)), float(k * 10)); // sorted by position
    }
    EXPECT_EQ(g.direction, glm::dmat3(1.0));
    EXPECT_NEAR(g.spacing.z, 2.0, 1e-12);
    EXPECT_DOUBLE_EQ(g.spacing.x, 0.75); // PixelSpacing 0.5 (rows) \ 0.75 (columns)
    EXPECT_DOUBLE_EQ(g.spacing.y, 0.5);
    EXPECT_TRUE(anyWarningContains(v, "gantry tilt about 15.0 degrees")) << allWarnings(v);
    EXPECT_EQ(g.toPhysical({3, 2, 4}), expected[4] + glm::dvec3(3 * 0.75, 2 * 0.5, 0.0));
}

TEST(DicomSeriesLoader, UnevenSpacingIsKeptAsMeasured)
{
    test::TempDir dir;
    const double zs[] = {0.0, 1.0, 2.5, 3.5};
    for (int k = 0; k < 4; ++k) {
        SliceSpec spec;
        spec.position = std::array<std::string, 3>{"0", "0", ds(zs[k])};
        spec.instanceNumber = k + 1;
        writeSlice(dir.path() / ("s" + std::to_string(k) + ".dcm"), spec);
    }
    const Volume v = loadDefault(dir.path());
    ASSERT_EQ(v.geometry().sliceOrigins.size(), 4u);
    EXPECT_EQ(v.geometry().sliceOrigins[2].z, 2.5);
    EXPECT_NEAR(v.geometry().spacing.z, 3.5 / 3.0, 1e-12);
    EXPECT_TRUE(anyWarningContains(v, "uneven slice spacing: gaps from 1 mm to 1.5 mm"))
        << allWarnings(v);
    EXPECT_FALSE(anyWarningContains(v, "missing")) << allWarnings(v);
}

TEST(DicomSeriesLoader, DuplicatesAreDroppedOrRefused)
{
    test::TempDir dir;
    for (int k = 0; k < 3; ++k) {
        SliceSpec spec;
        spec.position = std::array<std::string, 3>{"0", "0", ds(3.0 * k)};
        spec.sopInstanceUid = "1.2.826.0.1.3680043.9.7433.77.5." + std::to_string(k);
        spec.instanceNumber = k + 1;
        writeSlice(dir.path() / ("s" + std::to_string(k) + ".dcm"), spec);
    }
    // The same image twice (a copied file): the copy is dropped with a warning.
    fs::copy_file(dir.path() / "s1.dcm", dir.path() / "copy_of_s1.dcm");
    DicomSeriesInfo series;
    for (const auto& entry : fs::directory_iterator(dir.path())) {
        series.files.push_back(entry.path());
    }
    const Volume v = io::loadDicomSeries(series);
    EXPECT_EQ(v.dims().z, 3u);
    EXPECT_TRUE(v.geometry().sliceOrigins.empty());
    EXPECT_TRUE(anyWarningContains(v, "dropped 1 duplicate copy")) << allWarnings(v);
    // Scanning already leaves the copy out, with a note.
    const DicomScan scan = io::scanDicom(dir.path());
    EXPECT_EQ(scan.series.at(0).summary.sliceCount, 3u);
    EXPECT_FALSE(scan.notes.empty());

    // A different image at an occupied position makes the stack ambiguous.
    SliceSpec other;
    other.position = std::array<std::string, 3>{"0", "0", "3"};
    other.instanceNumber = 7;
    writeSlice(dir.path() / "echo2.dcm", other);
    series.files.push_back(dir.path() / "echo2.dcm");
    const std::string message = messageOf<InvalidInputError>([&] { io::loadDicomSeries(series); });
    EXPECT_NE(message.find("same position"), std::string::npos) << message;
    EXPECT_NE(message.find("echo2.dcm"), std::string::npos) << message;
}

TEST(DicomSeriesLoader, MissingPositionsFallBackToInstanceNumber)
{
    test::TempDir dir;
    for (int k = 0; k < 3; ++k) {
        SliceSpec spec;
        spec.position.reset();
        spec.instanceNumber = 3 - k;
        spec.values.assign(64, 100 + spec.instanceNumber);
        writeSlice(dir.path() / ("s" + std::to_string(k) + ".dcm"), spec);
    }
    const Volume v = loadDefault(dir.path());
    EXPECT_EQ(v.valueAt(0, 0, 0), 101.0f);
    EXPECT_EQ(v.valueAt(0, 0, 2), 103.0f);
    EXPECT_EQ(v.geometry().spacing.z, 2.0); // SliceThickness, said in a warning
    EXPECT_TRUE(anyWarningContains(v, "ordered by InstanceNumber")) << allWarnings(v);
}

TEST(DicomSeriesLoader, ScalarTypeHoldsTheStoredValuesExactly)
{
    struct Case {
        unsigned bitsAllocated;
        unsigned bitsStored;
        bool isSigned;
        std::vector<std::int64_t> values;
        ScalarType expected;
    };
    const std::vector<Case> cases = {
        {8, 8, false, {0, 1, 200, 255}, ScalarType::UInt8},
        {8, 8, true, {-128, -1, 0, 127}, ScalarType::Int8},
        {16, 12, false, {0, 4095, 17, 2048}, ScalarType::UInt16},
        {16, 16, true, {-32768, -1, 0, 32767}, ScalarType::Int16},
        {32, 32, false, {0, 4000000000, 7, 1}, ScalarType::UInt32},
        {32, 32, true, {-2000000000, -1, 0, 2000000000}, ScalarType::Int32},
    };
    test::TempDir dir;
    int n = 0;
    for (const E_TransferSyntax xfer : {EXS_LittleEndianExplicit, EXS_BigEndianExplicit}) {
        for (const Case& c : cases) {
            SliceSpec spec;
            spec.columns = 2;
            spec.rows = 2;
            spec.bitsAllocated = c.bitsAllocated;
            spec.bitsStored = c.bitsStored;
            spec.isSigned = c.isSigned;
            spec.values = c.values;
            const fs::path path = dir.path() / ("case" + std::to_string(n++) + ".dcm");
            writeSlice(path, spec, xfer);
            const Volume v = loadDefault(path);
            EXPECT_EQ(v.type(), c.expected) << path << " " << DcmXfer(xfer).getXferName();
            for (std::size_t i = 0; i < 4; ++i) {
                EXPECT_EQ(double(v.valueAt(i)), double(c.values[i]))
                    << path << " " << DcmXfer(xfer).getXferName() << " bits " << c.bitsAllocated;
            }
        }
    }
}

TEST(DicomSeriesLoader, NegativeSlopeIsMadePositiveByNegatingValues)
{
    test::TempDir dir;
    SliceSpec spec;
    spec.columns = 2;
    spec.rows = 2;
    spec.isSigned = false;
    spec.values = {0, 10, 100, 65535};
    spec.slope = "-2";
    spec.intercept = "5";
    writeSlice(dir.path() / "neg.dcm", spec);
    const Volume v = loadDefault(dir.path() / "neg.dcm");
    EXPECT_EQ(v.type(), ScalarType::Int32); // -65535 .. 0
    EXPECT_DOUBLE_EQ(v.rescale().slope, 2.0);
    for (std::size_t i = 0; i < 4; ++i) {
        EXPECT_DOUBLE_EQ(v.rescale().toReal(v.valueAt(i)), double(spec.values[i]) * -2.0 + 5.0);
    }
    EXPECT_TRUE(anyWarningContains(v, "negated")) << allWarnings(v);
}

TEST(DicomSeriesLoader, DifferentRescalesBecomeRealFloatValues)
{
    test::TempDir dir;
    for (int k = 0; k < 2; ++k) {
        SliceSpec spec;
        spec.columns = 2;
        spec.rows = 2;
        spec.position = std::array<std::string, 3>{"0", "0", ds(k)};
        spec.values = {1, 2, 3, 4};
        spec.slope = k == 0 ? "1" : "0.5";
        spec.intercept = k == 0 ? "0" : "-10";
        writeSlice(dir.path() / ("s" + std::to_string(k) + ".dcm"), spec);
    }
    const Volume v = loadDefault(dir.path());
    EXPECT_EQ(v.type(), ScalarType::Float32);
    EXPECT_DOUBLE_EQ(v.rescale().slope, 1.0);
    EXPECT_DOUBLE_EQ(v.rescale().intercept, 0.0);
    EXPECT_EQ(v.valueAt(3, 0, 0), 4.0f);
    EXPECT_EQ(v.valueAt(3, 0, 1), 4.0f * 0.5f - 10.0f);
    EXPECT_TRUE(anyWarningContains(v, "different rescales")) << allWarnings(v);
}

TEST(DicomSeriesLoader, NonImageObjectsAreSkippedWithANote)
{
    test::TempDir dir;
    writeSlice(dir.path() / "image.dcm", SliceSpec{});
    DcmFileFormat state;
    DcmDataset* d = state.getDataset();
    char uid[100];
    d->putAndInsertString(DCM_SOPClassUID, UID_GrayscaleSoftcopyPresentationStateStorage);
    d->putAndInsertString(DCM_SOPInstanceUID, dcmGenerateUniqueIdentifier(uid));
    d->putAndInsertString(DCM_SeriesInstanceUID, dcmGenerateUniqueIdentifier(uid));
    d->putAndInsertString(DCM_Modality, "PR");
    ASSERT_TRUE(
        state.saveFile((dir.path() / "state.dcm").c_str(), EXS_LittleEndianExplicit).good());

    EXPECT_TRUE(io::looksLikeDicom(dir.path() / "state.dcm"));
    const DicomScan scan = io::scanDicom(dir.path());
    ASSERT_EQ(scan.series.size(), 1u);
    ASSERT_EQ(scan.notes.size(), 1u);
    EXPECT_NE(scan.notes[0].find("state.dcm' skipped: not an image"), std::string::npos)
        << scan.notes[0];
    EXPECT_NE(scan.notes[0].find("PresentationState"), std::string::npos) << scan.notes[0];
    EXPECT_THROW(io::scanDicom(dir.path() / "state.dcm"), IoError);
}

TEST(DicomSeriesLoader, DicomDirListsTheSeriesWhateverTheCase)
{
    test::TempDir dir;
    const fs::path images = dir.path() / "IMAGES";
    fs::create_directory(images);
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(dicomData("ct_philips_head_phantom_5mm"))) {
        fs::copy_file(entry.path(), images / entry.path().filename());
        names.push_back(entry.path().filename().string());
    }
    // A stray file the DICOMDIR does not list must not be loaded.
    writeSlice(images / "EXTRA", SliceSpec{});

    DicomDirInterface dicomdir;
    dicomdir.enableInventMode(OFTrue);
    const fs::path index = dir.path() / "DICOMDIR";
    ASSERT_TRUE(
        dicomdir.createNewDicomDir(DicomDirInterface::AP_GeneralPurpose, index.c_str(), "ISOVIEW")
            .good());
    for (const std::string& name : names) {
        const OFCondition added =
            dicomdir.addDicomFile(("IMAGES/" + name).c_str(), dir.path().c_str());
        ASSERT_TRUE(added.good()) << name << ": " << added.text();
    }
    ASSERT_TRUE(dicomdir.writeDicomDir().good());

    const DicomScan scan = io::scanDicom(index);
    ASSERT_EQ(scan.series.size(), 1u);
    EXPECT_EQ(scan.series[0].summary.sliceCount, 28u);

    // Scanning the folder instead finds every file, and notes the index it skipped.
    const DicomScan folder = io::scanDicom(dir.path());
    EXPECT_EQ(folder.series.size(), 2u);
    ASSERT_EQ(folder.notes.size(), 1u);
    EXPECT_NE(folder.notes[0].find("DICOMDIR index"), std::string::npos) << folder.notes[0];

    // Media written elsewhere often differ in case from the uppercase file IDs.
    fs::rename(images, dir.path() / "images");
    const DicomScan lower = io::scanDicom(index);
    ASSERT_EQ(lower.series.size(), 1u);
    EXPECT_EQ(lower.series[0].files.front().parent_path().filename(), "images");
    const Volume ct = io::loadDicomSeries(lower.series[0]);
    EXPECT_EQ(ct.dims(), glm::uvec3(512, 512, 28));
}

// A DICOMDIR of 30,000 records beside 2,000 other files: 20,000 name the CT's slices (in
// several spellings of case), 10,000 name files or folders that do not exist. Each record and
// each folder is visited once (records walked in order, each folder listed once), where the
// sweep's 200,000 records took 56 s and 6,000 unresolvable IDs 23 s.
TEST(DicomSeriesLoader, ALargeDicomDirListsItsFilesOnceAndCountsTheMissing)
{
    test::TempDir dir;
    const fs::path images = dir.path() / "Images";
    fs::create_directory(images);
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(dicomData("ct_philips_head_phantom_5mm"))) {
        fs::create_symlink(entry.path(), images / entry.path().filename());
        names.push_back(entry.path().filename().string());
    }
    for (int i = 0; i < 2000; ++i)
        std::ofstream(dir.path() / ("other" + std::to_string(i)));

    DcmFileFormat file;
    file.getMetaInfo()->putAndInsertString(DCM_MediaStorageSOPClassUID,
                                           UID_MediaStorageDirectoryStorage);
    auto* records = new DcmSequenceOfItems(DCM_DirectoryRecordSequence);
    for (int i = 0; i < 30000; ++i) {
        auto* record = new DcmItem(DCM_Item);
        record->putAndInsertString(DCM_DirectoryRecordType, "IMAGE");
        const std::string& name = names[std::size_t(i) % names.size()];
        const std::string id = i % 3 == 2 ? (i % 2 ? "IMAGES\\GONE" : "NOFOLDER") +
                                                std::string("\\M") + std::to_string(i)
                               : i % 3 == 1 ? "images\\" + name
                                            : "IMAGES\\" + name;
        record->putAndInsertString(DCM_ReferencedFileID, id.c_str());
        records->append(record);
    }
    file.getDataset()->insert(records);
    const fs::path index = dir.path() / "DICOMDIR";
    ASSERT_TRUE(file.saveFile(index.c_str(), EXS_LittleEndianExplicit).good());

    const DicomScan scan = io::scanDicom(index);
    ASSERT_EQ(scan.series.size(), 1u);
    EXPECT_EQ(scan.series[0].summary.sliceCount, 28u);
    ASSERT_EQ(scan.notes.size(), 1u);
    EXPECT_NE(scan.notes[0].find("lists 10000 file(s) that do not exist"), std::string::npos)
        << scan.notes[0];
}

} // namespace
} // namespace isoview
