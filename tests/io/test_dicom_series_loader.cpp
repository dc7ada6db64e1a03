// The DICOM loader on the real files of the shared data folder (see its README for the values
// checked here), on files written by these tests with DCMTK (tilted and gapped stacks, bit
// depths, rescales, duplicates, a DICOMDIR), and on broken input.
#include "core/error.h"
#include "io/dicom/dicom_series_loader.h"
#include "support/temp_dir.h"
#include "test_paths.h"

#include <dcmtk/config/osconfig.h>
#include <dcmtk/dcmdata/dcddirif.h>
#include <dcmtk/dcmdata/dctk.h>
#include <dcmtk/dcmdata/dcuid.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace isoview {
namespace {

namespace fs = std::filesystem;
using io::DicomScan;
using io::DicomSeriesInfo;

fs::path dicomData(const std::string& relative)
{
    const fs::path path = fs::path(test::kSharedDataDir) / "dicom" / relative;
    if (!fs::exists(path)) {
        ADD_FAILURE() << "missing shared test data " << path
                      << " (set ISOVIEW_SHARED_DATA_DIR to the shared data folder)";
    }
    return path;
}

fs::path singleFile(const std::string& name)
{
    return dicomData("single/" + name);
}

const std::string kCtReference =
    "CTImage.dcm_LittleEndianExplicitTransferSyntax_1.2.840.10008.1.2.1.dcm";

// Scans a path and loads its default series.
Volume loadDefault(const fs::path& path, io::LoadMonitor* monitor = nullptr)
{
    const DicomScan scan = io::scanDicom(path, monitor);
    return io::loadDicomSeries(scan.series.at(scan.defaultSeries), monitor);
}

std::vector<std::byte> voxelBytes(const Volume& volume)
{
    return std::vector<std::byte>(volume.bytes(), volume.bytes() + volume.byteCount());
}

std::size_t countValue(const Volume& volume, float value)
{
    std::size_t count = 0;
    for (std::size_t i = 0; i < volume.voxelCount(); ++i) {
        count += volume.valueAt(i) == value;
    }
    return count;
}

bool anyWarningContains(const Volume& volume, const std::string& text)
{
    const auto& warnings = volume.metadata().warnings;
    return std::any_of(warnings.begin(), warnings.end(),
                       [&](const std::string& w) { return w.find(text) != std::string::npos; });
}

std::string allWarnings(const Volume& volume)
{
    std::string text;
    for (const std::string& w : volume.metadata().warnings) {
        text += w + "\n";
    }
    return text;
}

void writeBytes(const fs::path& path, const std::vector<char>& bytes)
{
    std::ofstream out(path, std::ios::binary);
    out.write(bytes.data(), std::streamsize(bytes.size()));
}

std::vector<char> readBytes(const fs::path& path)
{
    std::ifstream in(path, std::ios::binary);
    return std::vector<char>(std::istreambuf_iterator<char>(in), {});
}

// Runs f and returns the message of the exception of type E it throws (fails when none).
template <typename E, typename F> std::string messageOf(F&& f)
{
    try {
        f();
    } catch (const E& e) {
        return e.what();
    } catch (const std::exception& e) {
        ADD_FAILURE() << "unexpected exception type: " << e.what();
        return {};
    }
    ADD_FAILURE() << "no exception was thrown";
    return {};
}

// ---------------------------------------------------------------------------------------------
// Synthetic DICOM written with DCMTK.

struct SliceSpec {
    std::uint32_t columns = 8;
    std::uint32_t rows = 8;
    std::optional<std::array<std::string, 3>> position = std::array<std::string, 3>{"0", "0", "0"};
    std::string orientation = "1\\0\\0\\0\\1\\0";
    std::string seriesUid = "1.2.826.0.1.3680043.9.7433.77.1";
    std::string sopInstanceUid; // generated when empty
    int instanceNumber = 1;
    unsigned bitsAllocated = 16;
    unsigned bitsStored = 16;
    bool isSigned = true;
    std::optional<std::string> slope;
    std::optional<std::string> intercept;
    std::vector<std::int64_t> values; // rows x columns; a ramp when empty
    std::string modality = "CT";
};

std::string ds(double value)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.10g", value);
    return text;
}

std::vector<std::int64_t> sliceValues(const SliceSpec& spec)
{
    if (!spec.values.empty()) return spec.values;
    std::vector<std::int64_t> values(std::size_t(spec.columns) * spec.rows);
    for (std::size_t i = 0; i < values.size(); ++i) {
        values[i] = std::int64_t(i % 100);
    }
    return values;
}

void writeSlice(const fs::path& path, const SliceSpec& spec,
                E_TransferSyntax xfer = EXS_LittleEndianExplicit)
{
    DcmFileFormat file;
    DcmDataset* d = file.getDataset();
    char uid[100];
    const std::string sopUid = spec.sopInstanceUid.empty()
                                   ? dcmGenerateUniqueIdentifier(uid, SITE_INSTANCE_UID_ROOT)
                                   : spec.sopInstanceUid;
    const auto put = [d](const DcmTagKey& tag, const std::string& value) {
        ASSERT_TRUE(d->putAndInsertString(tag, value.c_str()).good()) << DcmTag(tag).getTagName();
    };
    put(DCM_SOPClassUID, spec.modality == "MR" ? UID_MRImageStorage : UID_CTImageStorage);
    put(DCM_SOPInstanceUID, sopUid);
    put(DCM_StudyInstanceUID, "1.2.826.0.1.3680043.9.7433.77");
    put(DCM_SeriesInstanceUID, spec.seriesUid);
    put(DCM_Modality, spec.modality);
    put(DCM_PatientName, "Synthetic^Stack");
    put(DCM_PatientID, "ISOVIEW-TEST");
    put(DCM_SeriesDescription, "synthetic");
    put(DCM_InstanceNumber, std::to_string(spec.instanceNumber));
    if (spec.position) {
        put(DCM_ImagePositionPatient,
            (*spec.position)[0] + "\\" + (*spec.position)[1] + "\\" + (*spec.position)[2]);
    }
    put(DCM_ImageOrientationPatient, spec.orientation);
    put(DCM_PixelSpacing, "0.5\\0.75");
    put(DCM_SliceThickness, "2");
    if (spec.slope) put(DCM_RescaleSlope, *spec.slope);
    if (spec.intercept) put(DCM_RescaleIntercept, *spec.intercept);
    put(DCM_PhotometricInterpretation, "MONOCHROME2");
    ASSERT_TRUE(d->putAndInsertUint16(DCM_SamplesPerPixel, 1).good());
    ASSERT_TRUE(d->putAndInsertUint16(DCM_Rows, Uint16(spec.rows)).good());
    ASSERT_TRUE(d->putAndInsertUint16(DCM_Columns, Uint16(spec.columns)).good());
    ASSERT_TRUE(d->putAndInsertUint16(DCM_BitsAllocated, Uint16(spec.bitsAllocated)).good());
    ASSERT_TRUE(d->putAndInsertUint16(DCM_BitsStored, Uint16(spec.bitsStored)).good());
    ASSERT_TRUE(d->putAndInsertUint16(DCM_HighBit, Uint16(spec.bitsStored - 1)).good());
    ASSERT_TRUE(d->putAndInsertUint16(DCM_PixelRepresentation, spec.isSigned ? 1 : 0).good());

    const std::vector<std::int64_t> values = sliceValues(spec);
    if (spec.bitsAllocated == 8) {
        std::vector<Uint8> raw;
        for (const std::int64_t v : values) {
            raw.push_back(Uint8(std::uint64_t(v) & 0xFF));
        }
        ASSERT_TRUE(d->putAndInsertUint8Array(DCM_PixelData, raw.data(), raw.size()).good());
    } else if (spec.bitsAllocated == 16) {
        std::vector<Uint16> raw;
        for (const std::int64_t v : values) {
            raw.push_back(Uint16(std::uint64_t(v) & 0xFFFF));
        }
        ASSERT_TRUE(d->putAndInsertUint16Array(DCM_PixelData, raw.data(), raw.size()).good());
    } else {
        std::vector<std::uint32_t> raw;
        for (const std::int64_t v : values) {
            raw.push_back(std::uint32_t(std::uint64_t(v)));
        }
        std::vector<Uint16> words(raw.size() * 2);
        std::memcpy(words.data(), raw.data(), raw.size() * 4);
        ASSERT_TRUE(d->putAndInsertUint16Array(DCM_PixelData, words.data(), words.size()).good());
    }
    const OFCondition status = file.saveFile(path.c_str(), xfer);
    ASSERT_TRUE(status.good()) << status.text();
}

// Loads a DICOM file, lets `edit` change it, and saves it elsewhere in `xfer`.
template <typename Edit>
void rewrite(const fs::path& from, const fs::path& to, Edit&& edit,
             E_TransferSyntax xfer = EXS_Unknown)
{
    DcmFileFormat file;
    ASSERT_TRUE(file.loadFile(from.c_str()).good()) << from;
    ASSERT_TRUE(file.loadAllDataIntoMemory().good());
    edit(*file.getDataset());
    if (xfer != EXS_Unknown) {
        ASSERT_TRUE(file.getDataset()->chooseRepresentation(xfer, nullptr).good());
    }
    const OFCondition status = file.saveFile(to.c_str(), xfer);
    ASSERT_TRUE(status.good()) << status.text();
}

struct RecordingMonitor : io::LoadMonitor {
    void progress(std::string_view stage, std::uint64_t done, std::uint64_t total) override
    {
        calls.push_back({std::string(stage), done, total});
    }
    struct Call {
        std::string stage;
        std::uint64_t done;
        std::uint64_t total;
    };
    std::vector<Call> calls;
};

// Asks to stop once `limit` slices have been reported decoded.
struct CancelAfterSlices : io::LoadMonitor {
    explicit CancelAfterSlices(std::uint64_t limit) : m_limit(limit) {}
    void progress(std::string_view stage, std::uint64_t done, std::uint64_t) override
    {
        if (stage == "decoding slices") m_decoded = done;
    }
    bool cancelRequested() const override { return m_decoded.load() >= m_limit; }

    std::uint64_t m_limit;
    std::atomic<std::uint64_t> m_decoded{0};
};

// ---------------------------------------------------------------------------------------------
// Real series.

TEST(DicomSeriesLoader, CtPhantomIsSortedByPositionWithHounsfieldValues)
{
    const fs::path folder = dicomData("ct_philips_head_phantom_5mm");
    const DicomScan scan = io::scanDicom(folder);
    ASSERT_EQ(scan.series.size(), 1u);
    const DicomSeriesInfo& series = scan.series[0];
    EXPECT_EQ(series.summary.uid, "1.3.46.670589.33.1.6002432791750815306.26862469513794233732");
    EXPECT_EQ(series.summary.description, "STD BRAIN 5MM");
    EXPECT_EQ(series.summary.modality, "CT");
    EXPECT_EQ(series.summary.sliceCount, 28u);
    EXPECT_EQ(series.summary.dims, glm::uvec3(512, 512, 28));
    // The scan lists files by name, where I100 comes before I20: order must come from positions.
    ASSERT_EQ(series.files.size(), 28u);
    EXPECT_EQ(series.files[1].filename(), "I100");

    const Volume ct = io::loadDicomSeries(series);
    EXPECT_EQ(ct.dims(), glm::uvec3(512, 512, 28));
    EXPECT_EQ(ct.type(), ScalarType::UInt16);
    const VolumeGeometry& g = ct.geometry();
    EXPECT_DOUBLE_EQ(g.spacing.x, 0.451171875);
    EXPECT_DOUBLE_EQ(g.spacing.y, 0.451171875);
    EXPECT_NEAR(g.spacing.z, 5.0, 1e-9);
    EXPECT_TRUE(g.sliceOrigins.empty());
    EXPECT_EQ(g.direction, glm::dmat3(1.0));
    EXPECT_NEAR(g.origin.z, 696.21, 1e-9);
    EXPECT_NEAR(g.toPhysical({0, 0, 27}).z, 831.21, 1e-9);
    EXPECT_NEAR(g.origin.x, -115.5, 1e-9);
    EXPECT_NEAR(g.origin.y, -1.85, 1e-9);

    EXPECT_DOUBLE_EQ(ct.rescale().slope, 1.0);
    EXPECT_DOUBLE_EQ(ct.rescale().intercept, -1024.0);
    EXPECT_EQ(ct.storedRange().min, 0.0);
    EXPECT_EQ(ct.storedRange().max, 1806.0);
    EXPECT_EQ(ct.rescale().toReal(ct.storedRange().min), -1024.0);
    EXPECT_EQ(ct.rescale().toReal(ct.storedRange().max), 782.0);

    // Air above the phantom, slice 15: a 32 x 32 patch near -1000 HU.
    double sum = 0.0;
    for (std::uint32_t j = 0; j < 32; ++j) {
        for (std::uint32_t i = 32; i < 64; ++i) {
            sum += ct.rescale().toReal(ct.valueAt(i, j, 14));
        }
    }
    EXPECT_NEAR(sum / 1024.0, -1000.0, 10.0);

    const VolumeMetadata& m = ct.metadata();
    EXPECT_EQ(m.sourceFormat, "DICOM");
    EXPECT_EQ(m.modality, "CT");
    EXPECT_EQ(m.units, "HU");
    EXPECT_EQ(m.seriesDescription, "STD BRAIN 5MM");
    EXPECT_EQ(m.seriesInstanceUid, series.summary.uid);
    ASSERT_TRUE(m.windowCenter && m.windowWidth);
    EXPECT_EQ(*m.windowCenter, 40.0);
    EXPECT_EQ(*m.windowWidth, 80.0);
    EXPECT_TRUE(m.warnings.empty()) << allWarnings(ct);

    // Every slice k holds the file whose position is 696.21 + 5k.
    for (const fs::path& file : series.files) {
        const Volume slice = loadDefault(file);
        const double z = slice.geometry().origin.z;
        const auto k = std::uint32_t(std::lround((z - 696.21) / 5.0));
        ASSERT_LT(k, 28u) << file;
        const std::size_t sliceBytes = 512 * 512 * 2;
        EXPECT_EQ(std::memcmp(slice.bytes(), ct.bytes() + k * sliceBytes, sliceBytes), 0)
            << file << " is not slice " << k;
    }
}

TEST(DicomSeriesLoader, ObliqueSagittalMrKeepsOrientationAndSlope)
{
    const Volume mr = loadDefault(dicomData("mr_philips_mprage_sag"));
    EXPECT_EQ(mr.dims(), glm::uvec3(256, 256, 170));
    EXPECT_EQ(mr.type(), ScalarType::UInt16);
    EXPECT_DOUBLE_EQ(mr.rescale().slope, 2.36166056166056);
    EXPECT_DOUBLE_EQ(mr.rescale().intercept, 0.0);
    EXPECT_EQ(mr.storedRange().min, 0.0);
    EXPECT_EQ(mr.storedRange().max, 1187.0);

    const VolumeGeometry& g = mr.geometry();
    const glm::dvec3 row(-0.038610048592, 0.9992516040802, -0.0023541927803);
    const glm::dvec3 normal = g.direction[2];
    EXPECT_NEAR(glm::length(g.direction[0] - glm::normalize(row)), 0.0, 1e-9);
    EXPECT_NEAR(g.direction[1].x, 0.06086, 1e-5);
    EXPECT_NEAR(g.direction[1].y, 0.0, 1e-5);
    EXPECT_NEAR(g.direction[1].z, -0.99815, 1e-5);
    EXPECT_NEAR(glm::length(normal - glm::normalize(glm::cross(g.direction[0], g.direction[1]))),
                0.0, 1e-12);
    EXPECT_NEAR(normal.x, -0.997, 1e-3);
    EXPECT_NEAR(normal.y, -0.039, 1e-3);
    EXPECT_NEAR(normal.z, -0.061, 1e-3);
    EXPECT_NEAR(g.spacing.x, 1.0, 1e-12);
    EXPECT_NEAR(g.spacing.y, 1.0, 1e-12);
    EXPECT_NEAR(g.spacing.z, 1.0, 1e-3);
    EXPECT_TRUE(g.sliceOrigins.empty()) << allWarnings(mr);
    // Slice 0 is file 0001, slice 169 is file 0170 (positions from their headers).
    EXPECT_NEAR(
        glm::length(g.origin - glm::dvec3(82.6727663688362, -133.00455415248, 138.458779340959)),
        0.0, 1e-9);
    EXPECT_NEAR(glm::length(g.toPhysical({0, 0, 169}) -
                            glm::dvec3(-85.887566883116, -139.54172837734, 128.181068426347)),
                0.0, 1e-3);
    EXPECT_EQ(mr.metadata().modality, "MR");
    EXPECT_EQ(mr.metadata().seriesDescription, "ADNI_Sag3D MPRAGE");
    EXPECT_TRUE(mr.metadata().warnings.empty()) << allWarnings(mr);
}

// ---------------------------------------------------------------------------------------------
// Transfer syntaxes: every lossless variant decodes to exactly its reference's integers.

TEST(DicomSeriesLoader, CtReferenceSlice)
{
    const Volume ct = loadDefault(singleFile(kCtReference));
    EXPECT_EQ(ct.dims(), glm::uvec3(512, 512, 1));
    EXPECT_EQ(ct.type(), ScalarType::Int16);
    EXPECT_EQ(ct.storedRange().min, -2000.0);
    EXPECT_EQ(ct.storedRange().max, 2402.0);
    EXPECT_DOUBLE_EQ(ct.rescale().intercept, -1024.0);
    EXPECT_DOUBLE_EQ(ct.rescale().slope, 1.0);
    EXPECT_NEAR(ct.geometry().spacing.x, 0.675781, 1e-9);
    EXPECT_EQ(ct.geometry().spacing.z, 5.0); // one slice: SliceThickness
}

class CtCompressedVariant : public ::testing::TestWithParam<const char*> {};

TEST_P(CtCompressedVariant, DecodesToTheReferenceValues)
{
    const Volume reference = loadDefault(singleFile(kCtReference));
    const Volume variant = loadDefault(singleFile(GetParam()));
    EXPECT_EQ(variant.dims(), reference.dims());
    EXPECT_EQ(variant.type(), reference.type());
    EXPECT_EQ(voxelBytes(variant), voxelBytes(reference));
    EXPECT_DOUBLE_EQ(variant.rescale().intercept, -1024.0);
}

INSTANTIATE_TEST_SUITE_P(
    DicomSeriesLoader, CtCompressedVariant,
    ::testing::Values("CTImage.dcm_RLELosslessTransferSyntax_1.2.840.10008.1.2.5.dcm",
                      "CTImage.dcm_JPEGProcess14SV1TransferSyntax_1.2.840.10008.1.2.4.70.dcm",
                      "CTImage.dcm_JPEGLSLosslessTransferSyntax_1.2.840.10008.1.2.4.80.dcm",
                      "CTImage.dcm_JPEG2000LosslessOnlyTransferSyntax_1.2.840.10008.1.2.4.90.dcm"));

class MrSmallVariant : public ::testing::TestWithParam<const char*> {};

TEST_P(MrSmallVariant, DecodesToTheReferenceValues)
{
    const Volume reference = loadDefault(singleFile("MR_small.dcm"));
    EXPECT_EQ(reference.type(), ScalarType::Int16);
    EXPECT_EQ(reference.storedRange().min, 127.0);
    EXPECT_EQ(reference.storedRange().max, 2145.0);
    const Volume variant = loadDefault(singleFile(GetParam()));
    EXPECT_EQ(variant.dims(), glm::uvec3(64, 64, 1));
    EXPECT_EQ(variant.type(), reference.type());
    EXPECT_EQ(voxelBytes(variant), voxelBytes(reference));
}

INSTANTIATE_TEST_SUITE_P(DicomSeriesLoader, MrSmallVariant,
                         ::testing::Values("MR_small_bigendian.dcm", "MR_small_RLE.dcm",
                                           "MR_small_jpeg_ls_lossless.dcm",
                                           "MR_small_jp2klossless.dcm"));

TEST(DicomSeriesLoader, DeflatedAndImplicitReencodingsEqualTheReference)
{
    test::TempDir dir;
    const Volume reference = loadDefault(singleFile("MR_small.dcm"));
    for (const E_TransferSyntax xfer :
         {EXS_DeflatedLittleEndianExplicit, EXS_LittleEndianImplicit}) {
        const fs::path copy =
            dir.path() / (std::string("mr_") + std::to_string(int(xfer)) + ".dcm");
        rewrite(
            singleFile("MR_small.dcm"), copy, [](DcmDataset&) {}, xfer);
        const Volume variant = loadDefault(copy);
        EXPECT_EQ(voxelBytes(variant), voxelBytes(reference)) << DcmXfer(xfer).getXferName();
    }
}

TEST(DicomSeriesLoader, LossyJpegFilesLoadWithinTheirDocumentedRange)
{
    // Lossy decoders may differ by a count or two between libraries: +-2 around the README.
    const Volume nm = loadDefault(singleFile("JPEG-lossy.dcm"));
    EXPECT_EQ(nm.dims(), glm::uvec3(256, 1024, 1));
    EXPECT_EQ(nm.type(), ScalarType::UInt16);
    EXPECT_NEAR(nm.storedRange().min, 0.0, 2.0);
    EXPECT_NEAR(nm.storedRange().max, 264.0, 2.0);

    const Volume ct = loadDefault(singleFile("CT0012.fragmented_no_bot_jpeg_baseline.51.dcm"));
    EXPECT_EQ(ct.dims(), glm::uvec3(512, 512, 2));
    EXPECT_EQ(ct.type(), ScalarType::UInt16);
    EXPECT_NEAR(ct.storedRange().min, 1010.0, 2.0);
    EXPECT_NEAR(ct.storedRange().max, 2223.0, 2.0);
    EXPECT_DOUBLE_EQ(ct.rescale().intercept, -1024.0);
    // Per-frame positions z = -159 and -149 along a normal of (0, 0, -1): 10 mm apart.
    EXPECT_NEAR(ct.geometry().spacing.z, 10.0, 1e-9);
    EXPECT_NEAR(glm::length(ct.geometry().direction[2] - glm::dvec3(0, 0, -1)), 0.0, 1e-12);
    EXPECT_NEAR(ct.geometry().origin.z, -149.0, 1e-9);
    EXPECT_EQ(ct.metadata().units, "HU");
}

TEST(DicomSeriesLoader, FilesWithoutMetaHeaderLoad)
{
    EXPECT_TRUE(io::looksLikeDicom(singleFile("no_meta.dcm")));
    EXPECT_TRUE(io::looksLikeDicom(singleFile("mr.001")));

    const Volume ct = loadDefault(singleFile("no_meta.dcm"));
    EXPECT_EQ(ct.dims(), glm::uvec3(128, 128, 1));
    EXPECT_EQ(ct.type(), ScalarType::Int16);
    EXPECT_DOUBLE_EQ(ct.rescale().intercept, -1024.0);
    EXPECT_EQ(ct.metadata().modality, "CT"); // the attributes after the stray byte are read
    EXPECT_TRUE(anyWarningContains(ct, "stray byte")) << allWarnings(ct);

    const Volume mr = loadDefault(singleFile("mr.001"));
    EXPECT_EQ(mr.dims(), glm::uvec3(256, 256, 1));
    EXPECT_EQ(mr.type(), ScalarType::UInt16);
    EXPECT_DOUBLE_EQ(mr.geometry().spacing.x, 0.78125);
    EXPECT_EQ(mr.metadata().modality, "MR");
    ASSERT_TRUE(mr.metadata().windowCenter);
    EXPECT_EQ(*mr.metadata().windowCenter, 1048.0);
}

TEST(DicomSeriesLoader, RtDoseGridIsOneVolume)
{
    const Volume dose = loadDefault(singleFile("rtdose.dcm"));
    EXPECT_EQ(dose.dims(), glm::uvec3(10, 10, 15));
    EXPECT_EQ(dose.type(), ScalarType::UInt32);
    EXPECT_DOUBLE_EQ(dose.rescale().slope, 1e-6); // DoseGridScaling
    EXPECT_DOUBLE_EQ(dose.geometry().spacing.x, 10.0);
    EXPECT_NEAR(dose.geometry().spacing.z, 5.0, 1e-9); // GridFrameOffsetVector 0, 5, 10, ...
    EXPECT_NEAR(dose.geometry().origin.z, -761.87, 1e-9);
    EXPECT_NEAR(dose.geometry().toPhysical({0, 0, 14}).z, -761.87 + 70.0, 1e-9);
    EXPECT_TRUE(dose.geometry().sliceOrigins.empty());
    EXPECT_EQ(dose.metadata().modality, "RTDOSE");
}

TEST(DicomSeriesLoader, EnhancedMrFramesWithoutFunctionalGroupsStackInFrameOrder)
{
    const Volume mr = loadDefault(singleFile("emri_small.dcm"));
    EXPECT_EQ(mr.dims(), glm::uvec3(64, 64, 10));
    EXPECT_EQ(mr.type(), ScalarType::UInt16);
    EXPECT_EQ(mr.storedRange().min, 0.0);
    EXPECT_EQ(mr.storedRange().max, 467.0);
    EXPECT_TRUE(anyWarningContains(mr, "frame order")) << allWarnings(mr);
    // No positions: the file's SpacingBetweenSlices (1.2 mm) stands in, with a warning.
    EXPECT_DOUBLE_EQ(mr.geometry().spacing.z, 1.2);
    EXPECT_TRUE(anyWarningContains(mr, "SpacingBetweenSlices")) << allWarnings(mr);
}

TEST(DicomSeriesLoader, EnhancedMrTakesPerFramePositions)
{
    const Volume mr = loadDefault(singleFile("siemens_xa10_enhanced_6_1.dcm"));
    EXPECT_EQ(mr.dims(), glm::uvec3(64, 64, 6));
    EXPECT_NEAR(mr.geometry().spacing.z, 2.4, 1e-4);
    EXPECT_DOUBLE_EQ(mr.geometry().spacing.x, 3.375);
    EXPECT_NEAR(mr.geometry().origin.z, -5.40356, 1e-9);
    EXPECT_NEAR(mr.geometry().toPhysical({0, 0, 5}).z, 6.59644, 1e-3);
    EXPECT_TRUE(mr.geometry().sliceOrigins.empty()) << allWarnings(mr);
    EXPECT_TRUE(mr.metadata().warnings.empty()) << allWarnings(mr);
}

TEST(DicomSeriesLoader, TwelveBitSignedValuesAreSignExtendedFromHighBit)
{
    const Volume mr = loadDefault(singleFile("12bitSigned_0x0F0F.dcm"));
    EXPECT_EQ(mr.type(), ScalarType::Int16);
    EXPECT_GT(countValue(mr, -241.0f), 0u); // stored 0x0F0F
    EXPECT_GT(countValue(mr, -1.0f), 0u);   // stored 0xFFFF
    EXPECT_EQ(countValue(mr, float(0x0F0F)), 0u);
    EXPECT_GE(mr.storedRange().min, -2048.0);
    EXPECT_LE(mr.storedRange().max, 2047.0);
}

// ---------------------------------------------------------------------------------------------
// Broken input: clear errors, no crash.

TEST(DicomSeriesLoader, EmptyAndGarbageFilesAreNotDicom)
{
    test::TempDir dir;
    const fs::path empty = dir.path() / "empty.dcm";
    writeBytes(empty, {});
    const fs::path garbage = dir.path() / "garbage.dcm";
    std::vector<char> bytes(4000);
    for (std::size_t i = 0; i < bytes.size(); ++i) {
        bytes[i] = char((i * 7919 + 13) % 251);
    }
    writeBytes(garbage, bytes);

    EXPECT_FALSE(io::looksLikeDicom(empty));
    EXPECT_FALSE(io::looksLikeDicom(garbage));
    EXPECT_FALSE(io::looksLikeDicom(dir.path() / "missing.dcm"));
    const std::string emptyMessage = messageOf<IoError>([&] { io::scanDicom(empty); });
    EXPECT_NE(emptyMessage.find("not a DICOM file (it is empty)"), std::string::npos)
        << emptyMessage;
    const std::string garbageMessage = messageOf<IoError>([&] { io::scanDicom(garbage); });
    EXPECT_NE(garbageMessage.find("no DICOM image series found"), std::string::npos);
    EXPECT_NE(garbageMessage.find("garbage.dcm' is not a DICOM file"), std::string::npos)
        << garbageMessage;
    DicomSeriesInfo handMade;
    handMade.files = {garbage};
    EXPECT_THROW(io::loadDicomSeries(handMade), IoError);
    EXPECT_THROW(io::scanDicom(dir.path() / "missing"), IoError);
}

TEST(DicomSeriesLoader, FolderWithoutDicomIsAClearError)
{
    test::TempDir dir;
    writeBytes(dir.path() / "readme.txt", {'h', 'e', 'l', 'l', 'o'});
    fs::create_directory(dir.path() / "sub");
    writeBytes(dir.path() / "sub" / "data.bin", std::vector<char>(1000, '\x07'));
    const std::string message = messageOf<IoError>([&] { io::scanDicom(dir.path()); });
    EXPECT_NE(message.find("no DICOM image series found in"), std::string::npos) << message;
    EXPECT_NE(message.find("2 files are not DICOM"), std::string::npos) << message;
}

TEST(DicomSeriesLoader, TruncatedPixelDataNamesExpectedAndActualBytes)
{
    test::TempDir dir;
    std::vector<char> bytes = readBytes(singleFile(kCtReference));
    ASSERT_GT(bytes.size(), 300000u);
    bytes.resize(300000);
    const fs::path cut = dir.path() / "cut.dcm";
    writeBytes(cut, bytes);

    const DicomScan scan = io::scanDicom(cut); // the header is intact
    ASSERT_EQ(scan.series.size(), 1u);
    const std::string message = messageOf<IoError>([&] { io::loadDicomSeries(scan.series[0]); });
    EXPECT_NE(message.find("cut.dcm"), std::string::npos) << message;
    EXPECT_NE(message.find("truncated"), std::string::npos) << message;
    EXPECT_NE(message.find("expected 524288 bytes"), std::string::npos) << message;
    // 531324 bytes in the original, 524288 of them pixels: 7036 bytes of header.
    EXPECT_NE(message.find("the file holds " + std::to_string(300000 - 7036)), std::string::npos)
        << message;

    std::vector<char> rle =
        readBytes(singleFile("CTImage.dcm_RLELosslessTransferSyntax_1.2.840.10008.1.2.5.dcm"));
    rle.resize(100000);
    const fs::path cutRle = dir.path() / "cut_rle.dcm";
    writeBytes(cutRle, rle);
    const std::string rleMessage =
        messageOf<IoError>([&] { io::loadDicomSeries(io::scanDicom(cutRle).series.at(0)); });
    EXPECT_NE(rleMessage.find("truncated"), std::string::npos) << rleMessage;
}

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

// ---------------------------------------------------------------------------------------------
// Progress, cancellation, threads, fuzzing entry.

TEST(DicomSeriesLoader, ConcurrentLoadsAreIndependent)
{
    // The viewer loads in the background while the user may open another series: DCMTK's
    // codecs and OpenJPEG must not share state between loads.
    const Volume reference = loadDefault(singleFile(kCtReference));
    const std::vector<std::string> names = {
        "CTImage.dcm_RLELosslessTransferSyntax_1.2.840.10008.1.2.5.dcm",
        "CTImage.dcm_JPEGProcess14SV1TransferSyntax_1.2.840.10008.1.2.4.70.dcm",
        "CTImage.dcm_JPEGLSLosslessTransferSyntax_1.2.840.10008.1.2.4.80.dcm",
        "CTImage.dcm_JPEG2000LosslessOnlyTransferSyntax_1.2.840.10008.1.2.4.90.dcm"};
    std::vector<int> equal(names.size() * 2, 0);
    std::vector<std::thread> threads;
    for (std::size_t t = 0; t < equal.size(); ++t) {
        threads.emplace_back([&, t] {
            for (int round = 0; round < 3; ++round) {
                const Volume v = loadDefault(singleFile(names[t % names.size()]));
                equal[t] += voxelBytes(v) == voxelBytes(reference);
            }
        });
    }
    for (std::thread& thread : threads) {
        thread.join();
    }
    for (std::size_t t = 0; t < equal.size(); ++t) {
        EXPECT_EQ(equal[t], 3) << names[t % names.size()];
    }
}

TEST(DicomSeriesLoader, ReportsProgressAndStopsPromptlyWhenCancelled)
{
    const fs::path folder = dicomData("mr_philips_mprage_sag");
    RecordingMonitor recorder;
    const DicomScan scan = io::scanDicom(folder, &recorder);
    ASSERT_FALSE(recorder.calls.empty());
    EXPECT_EQ(recorder.calls.back().stage, "scanning files");
    EXPECT_EQ(recorder.calls.back().done, 170u);
    EXPECT_EQ(recorder.calls.back().total, 170u);

    CancelAfterSlices cancel(3);
    EXPECT_THROW(io::loadDicomSeries(scan.series.at(0), &cancel), CancelledError);
    EXPECT_EQ(cancel.m_decoded.load(), 3u); // the fourth slice was never reported
}

TEST(DicomSeriesLoader, FuzzEntrySurvivesDamagedBytes)
{
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(dicomData("single"))) {
        files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    for (const fs::path& file : files) {
        const std::vector<char> original = readBytes(file);
        std::vector<std::uint8_t> bytes(original.begin(), original.end());
        io::fuzzDicomBytes(bytes.data(), bytes.size());
        for (const std::size_t cut : {std::size_t(0), std::size_t(1), std::size_t(131),
                                      bytes.size() / 3, bytes.size() - 1}) {
            io::fuzzDicomBytes(bytes.data(), std::min(cut, bytes.size()));
        }
        // Deterministic byte flips through the header and the pixel data.
        std::uint32_t state = 12345;
        for (int round = 0; round < 12; ++round) {
            std::vector<std::uint8_t> damaged = bytes;
            for (int flip = 0; flip < 4; ++flip) {
                state = state * 1664525u + 1013904223u;
                damaged[state % damaged.size()] ^= std::uint8_t(1u << (state >> 29));
            }
            io::fuzzDicomBytes(damaged.data(), damaged.size());
        }
    }
    SUCCEED();
}

} // namespace
} // namespace isoview
