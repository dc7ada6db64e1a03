// The DICOM loader on the real files of the shared data folder (see its README for the values
// checked here): a CT series sorted by position, an oblique MR, every transfer syntax of
// single/ decoding to its reference's values, files without meta header, RT dose, enhanced MR,
// 12-bit signed values; and loads under progress reports, cancellation and threads. Series
// written by the tests are in test_dicom_series_assembly.cpp, broken input in
// test_dicom_bad_input.cpp.
#include "core/error.h"
#include "io/dicom/dicom_series_loader.h"
#include "io/dicom_test_support.h"
#include "io/io_test_support.h"
#include "support/temp_dir.h"

#include <dcmtk/config/osconfig.h>
#include <dcmtk/dcmdata/dctk.h>
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace isoview {
namespace {

namespace fs = std::filesystem;
using io::DicomScan;
using io::DicomSeriesInfo;
using test::allWarnings;
using test::anyWarningContains;
using test::dicomData;
using test::kCtReference;
using test::loadDefault;
using test::RecordingMonitor;
using test::rewrite;
using test::singleFile;
using test::voxelBytes;

std::size_t countValue(const Volume& volume, float value)
{
    std::size_t count = 0;
    for (std::size_t i = 0; i < volume.voxelCount(); ++i) {
        count += volume.valueAt(i) == value;
    }
    return count;
}

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
// Progress, cancellation, threads.

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

} // namespace
} // namespace isoview
