// Opening a source once and loading from it: the series a DICOM folder lists, the same volume as
// loadVolume(path), a DICOM folder scanned once however it is opened and loaded, raw data that
// needs parameters (unnamed files, raw slice folders), and the errors of impossible choices.
#include "io/volume_loader.h"
#include "io_test_support.h"
#include "support/shared_data.h"
#include "support/temp_dir.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace isoview {
namespace {

namespace fs = std::filesystem;
using test::contains;
using test::messageOf;
using test::RecordingMonitor;

const char* const kCtFolder = "dicom/ct_philips_head_phantom_5mm";
const char* const kMrFolder = "dicom/mr_philips_mprage_sag";

std::vector<std::byte> voxelBytes(const Volume& volume)
{
    return std::vector<std::byte>(volume.bytes(), volume.bytes() + volume.byteCount());
}

void expectSameVolume(const Volume& a, const Volume& b)
{
    EXPECT_EQ(a.dims(), b.dims());
    EXPECT_EQ(a.type(), b.type());
    EXPECT_EQ(a.geometry().origin, b.geometry().origin);
    EXPECT_EQ(a.geometry().spacing, b.geometry().spacing);
    EXPECT_EQ(a.geometry().direction, b.geometry().direction);
    EXPECT_EQ(a.rescale().slope, b.rescale().slope);
    EXPECT_EQ(a.rescale().intercept, b.rescale().intercept);
    EXPECT_EQ(a.metadata().seriesInstanceUid, b.metadata().seriesInstanceUid);
    EXPECT_TRUE(voxelBytes(a) == voxelBytes(b));
}

// How often a scan started: scanDicom reports "scanning files" from 0 once per scan.
std::size_t scansStarted(const RecordingMonitor& monitor)
{
    return std::size_t(std::count_if(monitor.calls.begin(), monitor.calls.end(), [](const auto& c) {
        return c.stage == "scanning files" && c.done == 0;
    }));
}

// The CT and the MR series side by side in one folder (links to the shared files).
fs::path twoSeriesFolder(const test::TempDir& dir)
{
    for (const char* folder : {kCtFolder, kMrFolder}) {
        for (const auto& entry : fs::directory_iterator(test::sharedDataPath(folder))) {
            fs::create_symlink(entry.path(), dir.path() / (fs::path(folder).filename().string() +
                                                           "_" + entry.path().filename().string()));
        }
    }
    return dir.path();
}

void writeBytes(const fs::path& path, std::size_t count)
{
    test::writeFile(path, std::string(count, '\x07'));
}

TEST(VolumeSource, DicomFolderListsItsSeriesAndLoadsLikeLoadVolumeOfThePath)
{
    const fs::path folder = test::sharedDataPath(kCtFolder);
    const io::VolumeSource source = io::openSource(folder);
    EXPECT_EQ(source.format, io::VolumeFormat::Dicom);
    EXPECT_EQ(source.path, folder);
    EXPECT_FALSE(source.needsRawParameters);
    ASSERT_EQ(source.series.size(), 1u);
    EXPECT_EQ(source.defaultSeries, 0u);
    const io::SeriesSummary& ct = source.series[0];
    EXPECT_EQ(ct.description, "STD BRAIN 5MM");
    EXPECT_EQ(ct.modality, "CT");
    EXPECT_EQ(ct.sliceCount, 28u);
    EXPECT_EQ(ct.dims, glm::uvec3(512, 512, 28));
    EXPECT_EQ(ct.uid, "1.3.46.670589.33.1.6002432791750815306.26862469513794233732");
    EXPECT_TRUE(ct.note.empty()) << ct.note;

    const Volume fromSource = io::loadVolume(source, {});
    EXPECT_EQ(fromSource.dims(), glm::uvec3(512, 512, 28));
    expectSameVolume(fromSource, io::loadVolume(folder));
}

TEST(VolumeSource, ChosenSeriesOfATwoSeriesFolderLoadsFromTheSameScan)
{
    test::TempDir dir;
    const fs::path folder = twoSeriesFolder(dir);
    const io::VolumeSource source = io::openSource(folder);
    ASSERT_EQ(source.series.size(), 2u);
    std::size_t ct = source.series[0].modality == "CT" ? 0 : 1;
    EXPECT_EQ(source.series[ct].dims, glm::uvec3(512, 512, 28));
    EXPECT_EQ(source.series[1 - ct].dims, glm::uvec3(256, 256, 170));
    EXPECT_EQ(source.defaultSeries, 1 - ct); // the MR has more voxels

    const Volume chosen = io::loadVolume(source, {.seriesIndex = ct});
    EXPECT_EQ(chosen.metadata().modality, "CT");
    expectSameVolume(chosen, io::loadVolume(folder, {.seriesIndex = ct}));

    const std::string message = messageOf([&] { io::loadVolume(source, {.seriesIndex = 2}); });
    EXPECT_TRUE(contains(message, "series 2 does not exist")) << message;
    EXPECT_TRUE(contains(message, "holds 2 series")) << message;
}

TEST(VolumeSource, ADicomFolderIsScannedOnceForOpenAndLoad)
{
    test::TempDir dir;
    const fs::path folder = twoSeriesFolder(dir);
    RecordingMonitor monitor;
    const io::VolumeSource source = io::openSource(folder, &monitor);
    EXPECT_EQ(scansStarted(monitor), 1u);
    // Loading the default series, then another one, from the same source: no scan again.
    (void)io::loadVolume(source, {}, &monitor);
    (void)io::loadVolume(source, {.seriesIndex = 1 - source.defaultSeries}, &monitor);
    EXPECT_EQ(scansStarted(monitor), 1u);
    const auto decoding = std::count_if(monitor.calls.begin(), monitor.calls.end(),
                                        [](const auto& c) { return c.stage == "decoding slices"; });
    EXPECT_GT(decoding, 0); // the loads did happen
    const std::size_t files = 28 + 170;
    const auto scanned = std::count_if(monitor.calls.begin(), monitor.calls.end(), [&](auto& c) {
        return c.stage == "scanning files" && c.done == files && c.total == files;
    });
    EXPECT_EQ(scanned, 1);

    // loadVolume(path) opens once too.
    RecordingMonitor byPath;
    (void)io::loadVolume(folder, {}, &byPath);
    EXPECT_EQ(scansStarted(byPath), 1u);
}

TEST(VolumeSource, RawFileWithoutTheNameConventionNeedsParameters)
{
    test::TempDir dir;
    for (const char* name : {"scan.bin", "scan.raw", "noextension"}) {
        const fs::path file = dir.path() / name;
        writeBytes(file, 4 * 5 * 6 * 2);
        const io::VolumeSource source = io::openSource(file);
        EXPECT_EQ(source.format, io::VolumeFormat::Raw) << name;
        EXPECT_TRUE(source.needsRawParameters) << name;
        ASSERT_EQ(source.series.size(), 1u);
        EXPECT_EQ(source.series[0].description, name);

        // Without parameters: the same error as loadVolume(path) gives.
        const std::string message = messageOf([&] { io::loadVolume(source); });
        EXPECT_EQ(message, messageOf([&] { io::loadVolume(file); })) << name;
        EXPECT_TRUE(contains(message, "cannot tell")) << message;

        io::RawVolumeParameters raw;
        raw.dims = {4, 5, 6};
        raw.type = ScalarType::UInt16;
        const Volume v = io::loadVolume(source, {.raw = raw});
        EXPECT_EQ(v.dims(), glm::uvec3(4, 5, 6));
        EXPECT_EQ(v.metadata().sourceFormat, "raw");
    }
}

TEST(VolumeSource, NamedRawAndHeaderFormatsNeedNoParameters)
{
    test::TempDir dir;
    const fs::path named = dir.path() / "cube_4x5x6_uint8.raw";
    writeBytes(named, 4 * 5 * 6);
    const io::VolumeSource raw = io::openSource(named);
    EXPECT_EQ(raw.format, io::VolumeFormat::Raw);
    EXPECT_FALSE(raw.needsRawParameters);
    EXPECT_EQ(raw.series.at(0).dims, glm::uvec3(4, 5, 6));
    EXPECT_EQ(io::loadVolume(raw).dims(), glm::uvec3(4, 5, 6));

    const io::VolumeSource nrrd = io::openSource(test::sharedDataPath("nrrd/brain1_image.nrrd"));
    EXPECT_EQ(nrrd.format, io::VolumeFormat::Nrrd);
    EXPECT_FALSE(nrrd.needsRawParameters);
    const io::VolumeSource mhd =
        io::openSource(test::sharedDataPath("raw/HeadMRVolume/HeadMRVolume.mhd"));
    EXPECT_EQ(mhd.format, io::VolumeFormat::MetaImage);
    EXPECT_EQ(io::loadVolume(mhd).dims(), glm::uvec3(48, 62, 42));

    // A single DICOM file without a telling extension is recognised by its bytes.
    const io::VolumeSource dicom = io::openSource(test::sharedDataPath("dicom/single/mr.001"));
    EXPECT_EQ(dicom.format, io::VolumeFormat::Dicom);
    EXPECT_FALSE(dicom.needsRawParameters);
    EXPECT_EQ(dicom.series.at(0).dims, glm::uvec3(256, 256, 1));
}

TEST(VolumeSource, RawSliceFolderIsOpenedWithKnownParametersOnly)
{
    test::TempDir dir;
    for (int k = 1; k <= 3; ++k)
        writeBytes(dir.path() / ("slice." + std::to_string(k)), 4 * 5);

    // Opened as DICOM, a folder without DICOM is the error it always was.
    const std::string message = messageOf([&] { io::openSource(dir.path()); });
    EXPECT_TRUE(contains(message, "no DICOM image series found")) << message;

    const io::VolumeSource source = io::openRawSource(dir.path());
    EXPECT_EQ(source.format, io::VolumeFormat::RawSliceFolder);
    EXPECT_TRUE(source.needsRawParameters);
    EXPECT_THROW(io::loadVolume(source), InvalidInputError);
    io::RawVolumeParameters slice;
    slice.dims = {4, 5, 0};
    const Volume v = io::loadVolume(source, {.raw = slice});
    EXPECT_EQ(v.dims(), glm::uvec3(4, 5, 3));
    EXPECT_EQ(io::loadVolume(dir.path(), {.raw = slice}).dims(), glm::uvec3(4, 5, 3));
}

TEST(VolumeSource, MissingPathIsAClearError)
{
    const fs::path missing = "/nonexistent/isoview/volume_4x4x4_uint8.raw";
    for (const std::string& message : {messageOf([&] { io::openSource(missing); }),
                                       messageOf([&] { io::openRawSource(missing); })}) {
        EXPECT_TRUE(contains(message, "no such file or folder")) << message;
    }
}

} // namespace
} // namespace isoview
