// Several volumes in one DICOM series: synthetic series written with DCMTK, one per attribute
// that tells the volumes apart (AcquisitionNumber, TemporalPositionIndex, EchoNumbers,
// per-frame image type, DimensionIndexValues, per-frame rescale). Each must list one entry per
// volume with its label, the first the default, and each entry must load its own values only.
// Also the grouping rules themselves, and the ambiguous case nothing distinguishes.
#include "core/error.h"
#include "io/dicom/dicom_series_loader.h"
#include "io/dicom/dicom_volume_grouping.h"
#include "support/temp_dir.h"

#include <dcmtk/config/osconfig.h>
#include <dcmtk/dcmdata/dctk.h>
#include <dcmtk/dcmdata/dcuid.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace isoview {
namespace {

namespace fs = std::filesystem;
using io::dicom::groupVolumes;
using io::dicom::VolumeImage;

constexpr Uint16 kSize = 4; // 4x4 images
// Positions per volume; a test may change it for its own duration (PositionsForThisTest).
int positionsPerVolume = 3;

struct PositionsForThisTest {
    explicit PositionsForThisTest(int count) : m_kept(positionsPerVolume)
    {
        positionsPerVolume = count;
    }
    ~PositionsForThisTest() { positionsPerVolume = m_kept; }
    PositionsForThisTest(const PositionsForThisTest&) = delete;
    PositionsForThisTest& operator=(const PositionsForThisTest&) = delete;
    int m_kept;
};
const char* const kSeriesUid = "1.2.826.0.1.3680043.9.7433.79.1";

std::string generatedUid()
{
    char uid[100];
    return dcmGenerateUniqueIdentifier(uid, SITE_INSTANCE_UID_ROOT);
}

void putString(DcmItem& item, const DcmTagKey& tag, const std::string& value)
{
    ASSERT_TRUE(item.putAndInsertString(tag, value.c_str()).good()) << DcmTag(tag).getTagName();
}

// What every image carries: identity, pixel format, orientation and spacing.
void putCommon(DcmDataset& d, const char* sopClass, const std::string& imageType)
{
    putString(d, DCM_SOPClassUID, sopClass);
    putString(d, DCM_SOPInstanceUID, generatedUid());
    putString(d, DCM_StudyInstanceUID, "1.2.826.0.1.3680043.9.7433.79");
    putString(d, DCM_SeriesInstanceUID, kSeriesUid);
    putString(d, DCM_Modality, "MR");
    putString(d, DCM_SeriesDescription, "multi");
    putString(d, DCM_ImageType, imageType);
    putString(d, DCM_PhotometricInterpretation, "MONOCHROME2");
    ASSERT_TRUE(d.putAndInsertUint16(DCM_SamplesPerPixel, 1).good());
    ASSERT_TRUE(d.putAndInsertUint16(DCM_Rows, kSize).good());
    ASSERT_TRUE(d.putAndInsertUint16(DCM_Columns, kSize).good());
    ASSERT_TRUE(d.putAndInsertUint16(DCM_BitsAllocated, 16).good());
    ASSERT_TRUE(d.putAndInsertUint16(DCM_BitsStored, 16).good());
    ASSERT_TRUE(d.putAndInsertUint16(DCM_HighBit, 15).good());
    ASSERT_TRUE(d.putAndInsertUint16(DCM_PixelRepresentation, 0).good());
}

void save(DcmFileFormat& file, const fs::path& path)
{
    const OFCondition status = file.saveFile(path.c_str(), EXS_LittleEndianExplicit);
    ASSERT_TRUE(status.good()) << status.text();
}

// The value every voxel of volume v's slice at position p holds.
Uint16 valueOf(int volume, int position)
{
    return Uint16(1000 * (volume + 1) + position);
}

// A classic series: one file per (volume, position); `tag(file, volume)` adds what tells the
// volumes apart.
void writeClassic(const fs::path& dir, int volumes,
                  const std::function<void(DcmDataset&, int volume)>& tag)
{
    for (int v = 0; v < volumes; ++v) {
        for (int p = 0; p < positionsPerVolume; ++p) {
            DcmFileFormat file;
            DcmDataset& d = *file.getDataset();
            putCommon(d, UID_MRImageStorage, "ORIGINAL\\PRIMARY\\M\\NONE");
            putString(d, DCM_InstanceNumber, std::to_string(v * positionsPerVolume + p + 1));
            putString(d, DCM_ImagePositionPatient, "0\\0\\" + std::to_string(2 * p));
            putString(d, DCM_ImageOrientationPatient, "1\\0\\0\\0\\1\\0");
            putString(d, DCM_PixelSpacing, "1\\1");
            tag(d, v);
            const std::vector<Uint16> pixels(kSize * kSize, valueOf(v, p));
            ASSERT_TRUE(
                d.putAndInsertUint16Array(DCM_PixelData, pixels.data(), pixels.size()).good());
            // Volumes interleaved in file order, so file order cannot be what separates them.
            save(file, dir / ("im" + std::to_string(p) + "_" + std::to_string(v) + ".dcm"));
        }
    }
}

// An enhanced MR object: frames (volume, position) in that order, or (position, volume) when
// interleaved; `frameTag(item, volume)` fills each frame's functional groups beyond the
// position.
void writeEnhanced(const fs::path& path, int volumes,
                   const std::function<void(DcmItem& perFrame, int volume, int position)>& frameTag,
                   bool interleaved = false)
{
    DcmFileFormat file;
    DcmDataset& d = *file.getDataset();
    putCommon(d, UID_EnhancedMRImageStorage, "ORIGINAL\\PRIMARY\\MIXED\\NONE");
    putString(d, DCM_InstanceNumber, "1");
    putString(d, DCM_NumberOfFrames, std::to_string(volumes * positionsPerVolume));
    DcmItem* shared = nullptr;
    ASSERT_TRUE(d.findOrCreateSequenceItem(DCM_SharedFunctionalGroupsSequence, shared, 0).good());
    DcmItem* item = nullptr;
    ASSERT_TRUE(shared->findOrCreateSequenceItem(DCM_PlaneOrientationSequence, item, 0).good());
    putString(*item, DCM_ImageOrientationPatient, "1\\0\\0\\0\\1\\0");
    ASSERT_TRUE(shared->findOrCreateSequenceItem(DCM_PixelMeasuresSequence, item, 0).good());
    putString(*item, DCM_PixelSpacing, "1\\1");
    std::vector<Uint16> pixels;
    for (int outer = 0; outer < (interleaved ? positionsPerVolume : volumes); ++outer) {
        for (int inner = 0; inner < (interleaved ? volumes : positionsPerVolume); ++inner) {
            const int v = interleaved ? inner : outer;
            const int p = interleaved ? outer : inner;
            DcmItem* frame = nullptr;
            ASSERT_TRUE(
                d.findOrCreateSequenceItem(DCM_PerFrameFunctionalGroupsSequence, frame, -2).good());
            ASSERT_TRUE(frame->findOrCreateSequenceItem(DCM_PlanePositionSequence, item, 0).good());
            putString(*item, DCM_ImagePositionPatient, "0\\0\\" + std::to_string(2 * p));
            frameTag(*frame, v, p);
            pixels.insert(pixels.end(), kSize * kSize, valueOf(v, p));
        }
    }
    ASSERT_TRUE(d.putAndInsertUint16Array(DCM_PixelData, pixels.data(), pixels.size()).good());
    save(file, path);
}

// Every entry: its label, dims, and that it holds exactly its own volume's values.
void expectVolumes(const fs::path& input, const std::vector<std::string>& labels,
                   const std::function<double(int volume, int position)>& expected)
{
    const io::DicomScan scan = io::scanDicom(input);
    ASSERT_EQ(scan.series.size(), labels.size());
    EXPECT_EQ(scan.defaultSeries, 0u);
    for (std::size_t v = 0; v < labels.size(); ++v) {
        const io::DicomSeriesInfo& info = scan.series[v];
        EXPECT_EQ(info.summary.volumeLabel, labels[v]);
        EXPECT_EQ(info.summary.dims, glm::uvec3(kSize, kSize, positionsPerVolume));
        EXPECT_EQ(info.summary.sliceCount, std::size_t(positionsPerVolume));
        const Volume volume = io::loadDicomSeries(info);
        ASSERT_EQ(volume.dims(), glm::uvec3(kSize, kSize, positionsPerVolume)) << labels[v];
        for (int p = 0; p < positionsPerVolume; ++p) {
            EXPECT_DOUBLE_EQ(volume.rescale().toReal(volume.valueAt(1, 2, std::uint32_t(p))),
                             expected(int(v), p))
                << labels[v] << " slice " << p;
        }
        EXPECT_NE(volume.metadata().seriesDescription.find(labels[v]), std::string::npos);
    }
}

double stored(int volume, int position)
{
    return valueOf(volume, position);
}

TEST(DicomVolumes, AcquisitionNumberSeparatesTimePoints)
{
    test::TempDir dir;
    writeClassic(dir.path(), 2, [](DcmDataset& d, int v) {
        putString(d, DCM_AcquisitionNumber, std::to_string(v + 1));
    });
    expectVolumes(dir.path(), {"volume 1 of 2: time point 1", "volume 2 of 2: time point 2"},
                  stored);
}

TEST(DicomVolumes, EchoNumbersSeparateEchoes)
{
    test::TempDir dir;
    writeClassic(dir.path(), 3, [](DcmDataset& d, int v) {
        putString(d, DCM_AcquisitionNumber, "1");
        putString(d, DCM_EchoNumbers, std::to_string(v + 1));
    });
    expectVolumes(dir.path(),
                  {"volume 1 of 3: echo 1", "volume 2 of 3: echo 2", "volume 3 of 3: echo 3"},
                  stored);
}

TEST(DicomVolumes, TemporalPositionIndexSeparatesFramesOfOneFile)
{
    test::TempDir dir;
    writeEnhanced(dir.path() / "enhanced.dcm", 2, [](DcmItem& frame, int v, int p) {
        DcmItem* content = nullptr;
        ASSERT_TRUE(frame.findOrCreateSequenceItem(DCM_FrameContentSequence, content, 0).good());
        putString(*content, DCM_TemporalPositionIndex, std::to_string(v + 1));
        (void)p;
    });
    expectVolumes(dir.path(), {"volume 1 of 2: time point 1", "volume 2 of 2: time point 2"},
                  stored);
}

TEST(DicomVolumes, PerFrameImageTypeSeparatesMagnitudeAndPhase)
{
    test::TempDir dir;
    writeEnhanced(dir.path() / "enhanced.dcm", 2, [](DcmItem& frame, int v, int) {
        DcmItem* type = nullptr;
        ASSERT_TRUE(frame.findOrCreateSequenceItem(DCM_MRImageFrameTypeSequence, type, 0).good());
        putString(*type, DCM_FrameType,
                  v == 0 ? "ORIGINAL\\PRIMARY\\MAGNITUDE\\NONE" : "ORIGINAL\\PRIMARY\\PHASE\\NONE");
    });
    expectVolumes(dir.path(),
                  {"volume 1 of 2: image type MAGNITUDE", "volume 2 of 2: image type PHASE"},
                  stored);
}

TEST(DicomVolumes, DimensionIndexValuesSeparateVolumes)
{
    test::TempDir dir;
    writeEnhanced(dir.path() / "enhanced.dcm", 2, [](DcmItem& frame, int v, int p) {
        DcmItem* content = nullptr;
        ASSERT_TRUE(frame.findOrCreateSequenceItem(DCM_FrameContentSequence, content, 0).good());
        // (in-stack position, volume): only the second component says which volume.
        const Uint32 values[2] = {Uint32(p + 1), Uint32(v + 1)};
        ASSERT_TRUE(content->putAndInsertUint32Array(DCM_DimensionIndexValues, values, 2).good());
    });
    expectVolumes(dir.path(),
                  {"volume 1 of 2: dimension index 1", "volume 2 of 2: dimension index 2"}, stored);
}

TEST(DicomVolumes, PerFrameRescaleSeparatesVolumes)
{
    test::TempDir dir;
    writeEnhanced(dir.path() / "enhanced.dcm", 2, [](DcmItem& frame, int v, int) {
        DcmItem* transform = nullptr;
        ASSERT_TRUE(
            frame.findOrCreateSequenceItem(DCM_PixelValueTransformationSequence, transform, 0)
                .good());
        putString(*transform, DCM_RescaleSlope, v == 0 ? "1" : "0.5");
        putString(*transform, DCM_RescaleIntercept, v == 0 ? "0" : "-10");
        putString(*transform, DCM_RescaleType, "US");
    });
    // Each volume has one rescale: its real values are exact, with no float conversion.
    expectVolumes(
        dir.path(),
        {"volume 1 of 2: rescale slope 0.5, intercept -10",
         "volume 2 of 2: rescale slope 1, intercept 0"},
        [](int v, int p) { return v == 0 ? 0.5 * valueOf(1, p) - 10 : double(valueOf(0, p)); });
}

TEST(DicomVolumes, InterleavedImageTypesWithTheirOwnRescalesAreTwoVolumes)
{
    // The enhanced MR file: magnitude and phase frames interleaved at 32 positions,
    // each with its own per-frame rescale. It was refused ("two different images lie at the
    // same position"); now each image type is a volume with its own rescale.
    const PositionsForThisTest positions(32);
    test::TempDir dir;
    writeEnhanced(
        dir.path() / "enhanced.dcm", 2,
        [](DcmItem& frame, int v, int p) {
            DcmItem* item = nullptr;
            ASSERT_TRUE(
                frame.findOrCreateSequenceItem(DCM_MRImageFrameTypeSequence, item, 0).good());
            putString(*item, DCM_FrameType,
                      v == 0 ? "ORIGINAL\\PRIMARY\\M\\NONE" : "ORIGINAL\\PRIMARY\\P\\NONE");
            ASSERT_TRUE(
                frame.findOrCreateSequenceItem(DCM_PixelValueTransformationSequence, item, 0)
                    .good());
            // Phase frames: each its own slope, as scanners write them (none shared).
            putString(*item, DCM_RescaleSlope, v == 0 ? "2" : std::to_string(1 + p % 3));
            putString(*item, DCM_RescaleIntercept, v == 0 ? "0" : "-4096");
        },
        true);
    expectVolumes(dir.path(), {"volume 1 of 2: image type M", "volume 2 of 2: image type P"},
                  [](int v, int p) {
                      return v == 0 ? 2.0 * valueOf(0, p) : (1 + p % 3) * valueOf(1, p) - 4096.0;
                  });
}

TEST(DicomVolumes, AnEntryLoadsOnlyTheFramesItLists)
{
    test::TempDir dir;
    const fs::path path = dir.path() / "enhanced.dcm";
    writeEnhanced(path, 2, [](DcmItem&, int, int) {});
    io::DicomSeriesInfo info;
    info.files = {path};
    info.frames = {{4, 5}}; // the second volume's last two positions
    const Volume volume = io::loadDicomSeries(info);
    ASSERT_EQ(volume.dims().z, 2u);
    EXPECT_EQ(volume.valueAt(0, 0, 0), valueOf(1, 1));
    EXPECT_EQ(volume.valueAt(0, 0, 1), valueOf(1, 2));
    info.frames = {{99}};
    EXPECT_THROW((void)io::loadDicomSeries(info), InvalidInputError);
}

TEST(DicomVolumes, SingleVolumeSeriesHaveNoLabel)
{
    test::TempDir dir;
    writeClassic(dir.path(), 1,
                 [](DcmDataset& d, int) { putString(d, DCM_AcquisitionNumber, "4"); });
    const io::DicomScan scan = io::scanDicom(dir.path());
    ASSERT_EQ(scan.series.size(), 1u);
    EXPECT_TRUE(scan.series[0].summary.volumeLabel.empty());
    EXPECT_TRUE(scan.series[0].frames.empty());
}

TEST(DicomVolumes, ImagesNothingDistinguishesStayAnErrorThatSaysSo)
{
    test::TempDir dir;
    writeClassic(dir.path(), 2,
                 [](DcmDataset& d, int) { putString(d, DCM_AcquisitionNumber, "1"); });
    const io::DicomScan scan = io::scanDicom(dir.path());
    ASSERT_EQ(scan.series.size(), 1u);
    try {
        (void)io::loadDicomSeries(scan.series[0]);
        ADD_FAILURE() << "no error";
    } catch (const InvalidInputError& e) {
        const std::string message = e.what();
        EXPECT_NE(message.find("two different images lie at the same position"), std::string::npos)
            << message;
        EXPECT_NE(message.find("im0_0.dcm"), std::string::npos) << message;
        EXPECT_NE(message.find("im0_1.dcm"), std::string::npos) << message;
        EXPECT_NE(message.find("nothing distinguishes them"), std::string::npos) << message;
    }
}

// ---------------------------------------------------------------------------------------------
// The grouping rules on their own.

std::vector<VolumeImage> images(int volumes, int positions,
                                const std::function<void(VolumeImage&, int v, int p)>& fill)
{
    std::vector<VolumeImage> result;
    for (int v = 0; v < volumes; ++v) {
        for (int p = 0; p < positions; ++p) {
            VolumeImage image;
            image.position = glm::dvec3(0, 0, p);
            image.sopInstanceUid = std::to_string(v) + "." + std::to_string(p);
            fill(image, v, p);
            result.push_back(image);
        }
    }
    return result;
}

TEST(DicomVolumeGrouping, AnAttributeThatVariesPerSliceDoesNotFragmentTheSeries)
{
    // AcquisitionNumber differs on every image (some scanners count each slice), the echo
    // tells the volumes apart: two volumes, not six.
    const auto groups = groupVolumes(images(2, 3,
                                            [](VolumeImage& image, int v, int p) {
                                                image.acquisitionNumber = v * 3 + p;
                                                image.echoNumber = v + 1;
                                            }),
                                     false);
    ASSERT_EQ(groups.size(), 2u);
    EXPECT_EQ(groups[0].label, "volume 1 of 2: echo 1");
    EXPECT_EQ(groups[1].images, (std::vector<std::size_t>{3, 4, 5}));
}

TEST(DicomVolumeGrouping, NoRepeatedPositionMeansOneVolume)
{
    // Different echoes at different positions are one stack (today's behaviour).
    auto stack = images(1, 4, [](VolumeImage& image, int, int p) { image.echoNumber = p; });
    const auto groups = groupVolumes(stack, false);
    ASSERT_EQ(groups.size(), 1u);
    EXPECT_TRUE(groups[0].label.empty());
    // Copies of one image (same SOP instance and frame) are not repeats either.
    stack.push_back(stack.front());
    EXPECT_EQ(groupVolumes(stack, false).size(), 1u);
}

TEST(DicomVolumeGrouping, AttributesTogetherWhenNoneAloneSeparates)
{
    // Two echoes at two time points: neither alone leaves positions unique.
    const auto groups = groupVolumes(images(4, 2,
                                            [](VolumeImage& image, int v, int) {
                                                image.temporalPositionIndex = v / 2 + 1;
                                                image.echoNumber = v % 2 + 1;
                                            }),
                                     false);
    ASSERT_EQ(groups.size(), 4u);
    EXPECT_EQ(groups[1].label, "volume 2 of 4: time point 1, echo 2");
}

} // namespace
} // namespace isoview
