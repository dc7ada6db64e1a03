// Opening a source once and loading from it: the series a DICOM folder lists, the same volume as
// loadVolume(path), a DICOM folder scanned once however it is opened and loaded, raw data that
// needs parameters (unnamed files, raw slice folders), and the errors of impossible choices.
#include "io/raw_slice_folder_reader.h"
#include "io/volume_loader.h"
#include "io_test_support.h"
#include "support/shared_data.h"
#include "support/temp_dir.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

namespace isoview {
namespace {

namespace fs = std::filesystem;
using test::contains;
using test::messageOf;
using test::RecordingMonitor;
using test::voxelBytes;

const char* const kCtFolder = "dicom/ct_philips_head_phantom_5mm";
const char* const kMrFolder = "dicom/mr_philips_mprage_sag";

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

TEST(VolumeSource, AFolderOfNumberedNonDicomFilesIsARawSliceFolderNeedingParameters)
{
    test::TempDir dir;
    for (int k = 1; k <= 3; ++k)
        writeBytes(dir.path() / ("slice." + std::to_string(k)), 4 * 5);

    for (const io::VolumeSource& source :
         {io::openSource(dir.path()), io::openRawSource(dir.path())}) {
        EXPECT_EQ(source.format, io::VolumeFormat::RawSliceFolder);
        EXPECT_TRUE(source.needsRawParameters);
        EXPECT_THROW(io::loadVolume(source), InvalidInputError);
        io::RawVolumeParameters slice;
        slice.dims = {4, 5, 0};
        EXPECT_EQ(io::loadVolume(source, {.raw = slice}).dims(), glm::uvec3(4, 5, 3));
    }
    const io::VolumeSource opened = io::openSource(dir.path());
    EXPECT_EQ(opened.rawSliceFiles, 3u);
    EXPECT_EQ(opened.series.at(0).sliceCount, 3u);
    EXPECT_FALSE(opened.rawGuess.has_value()); // 20 bytes: no square slice, no common width
    io::RawVolumeParameters slice;
    slice.dims = {4, 5, 0};
    EXPECT_EQ(io::loadVolume(dir.path(), {.raw = slice}).dims(), glm::uvec3(4, 5, 3));

    // A folder with neither DICOM nor numbered slices is the clear error it always was.
    test::TempDir other;
    writeBytes(other.path() / "notes.txt", 100);
    writeBytes(other.path() / "image.png", 100);
    const std::string message = messageOf([&] { io::openSource(other.path()); });
    EXPECT_TRUE(contains(message, "no DICOM image series found")) << message;
    // DICOM folders stay DICOM.
    EXPECT_EQ(io::openSource(test::sharedDataPath(kCtFolder)).format, io::VolumeFormat::Dicom);
}

TEST(VolumeSource, CtHeadFolderProposesTheLayoutItsNameStates)
{
    const fs::path folder = test::sharedDataPath("raw/CThead_256x256x113_int16_be");
    const io::VolumeSource source = io::openSource(folder);
    EXPECT_EQ(source.format, io::VolumeFormat::RawSliceFolder);
    EXPECT_TRUE(source.needsRawParameters);
    EXPECT_EQ(source.rawSliceFiles, 113u);
    ASSERT_TRUE(source.rawGuess.has_value());
    EXPECT_TRUE(source.rawGuessFromName);
    EXPECT_EQ(source.rawGuess->dims, glm::uvec3(256, 256, 113));
    EXPECT_EQ(source.rawGuess->type, ScalarType::Int16);
    EXPECT_TRUE(source.rawGuess->bigEndian);
    EXPECT_EQ(source.series.at(0).dims, glm::uvec3(256, 256, 113));
    // Without parameters (the CLI without --raw-dims), the error says what the name states.
    const std::string message = messageOf([&] { io::loadVolume(source); });
    EXPECT_TRUE(contains(message, "its name states --raw-dims 256 256 113 --raw-type int16 "
                                  "--big-endian"))
        << message;
    const Volume ct = io::loadVolume(source, {.raw = source.rawGuess});
    EXPECT_EQ(ct.dims(), glm::uvec3(256, 256, 113));
    EXPECT_EQ(ct.storedRange().max, 3272.0); // the README's range: big-endian read right
}

TEST(VolumeSource, WithoutANameTheSlicesLayoutIsGuessedFromCountAndSize)
{
    test::TempDir dir;
    for (int k = 1; k <= 5; ++k) {
        fs::copy_file(test::sharedDataPath("raw/CThead_256x256x113_int16_be/CThead." +
                                           std::to_string(40 + k)),
                      dir.path() / ("ct." + std::to_string(k)));
    }
    const io::VolumeSource source = io::openSource(dir.path());
    ASSERT_TRUE(source.rawGuess.has_value());
    EXPECT_FALSE(source.rawGuessFromName);
    EXPECT_EQ(source.rawGuess->dims, glm::uvec3(256, 256, 5)); // 131,072 B = 256^2 int16
    EXPECT_EQ(source.rawGuess->type, ScalarType::Int16);
    EXPECT_TRUE(source.rawGuess->bigEndian); // CThead is; read little-endian it is noise

    // The same slices in little-endian order are guessed so.
    test::TempDir swapped;
    for (int k = 1; k <= 3; ++k) {
        std::string bytes = test::readFile(dir.path() / ("ct." + std::to_string(k)));
        for (std::size_t i = 0; i + 1 < bytes.size(); i += 2)
            std::swap(bytes[i], bytes[i + 1]);
        test::writeFile(swapped.path() / ("ct." + std::to_string(k)), bytes);
    }
    const io::VolumeSource little = io::openSource(swapped.path());
    ASSERT_TRUE(little.rawGuess.has_value());
    EXPECT_FALSE(little.rawGuess->bigEndian);
    const Volume read = io::loadVolume(little, {.raw = little.rawGuess});
    EXPECT_EQ(read.storedRange().max,
              io::loadVolume(source, {.raw = source.rawGuess}).storedRange().max);

    // A layout in the file names is honoured over the guess.
    test::TempDir named;
    for (int k = 1; k <= 2; ++k)
        writeBytes(named.path() / ("scan_128x512_uint16_be." + std::to_string(k)), 131072);
    const io::VolumeSource fromFiles = io::openSource(named.path());
    ASSERT_TRUE(fromFiles.rawGuess.has_value());
    EXPECT_TRUE(fromFiles.rawGuessFromName);
    EXPECT_EQ(fromFiles.rawGuess->dims, glm::uvec3(128, 512, 2));
    EXPECT_EQ(fromFiles.rawGuess->type, ScalarType::UInt16);
    EXPECT_TRUE(fromFiles.rawGuess->bigEndian);
}

TEST(VolumeSource, GuessRawSliceLayout)
{
    EXPECT_EQ(io::guessRawSliceLayout(131072, 113)->dims, glm::uvec3(256, 256, 113));
    EXPECT_EQ(io::guessRawSliceLayout(131072, 113)->type, ScalarType::Int16);
    EXPECT_EQ(io::guessRawSliceLayout(512 * 512 * 2, 7)->dims, glm::uvec3(512, 512, 7));
    EXPECT_EQ(io::guessRawSliceLayout(255 * 255, 3)->type, ScalarType::UInt8); // odd: no int16
    EXPECT_EQ(io::guessRawSliceLayout(512 * 300 * 2, 3)->dims, glm::uvec3(512, 300, 3));
    EXPECT_FALSE(io::guessRawSliceLayout(20, 3).has_value());
    EXPECT_FALSE(io::guessRawSliceLayout(0, 3).has_value());
}

TEST(VolumeSource, LayoutInANameIsReadLeniently)
{
    const auto layout = [](const char* name) { return io::parseRawLayoutInName(name); };
    ASSERT_TRUE(layout("CThead_256x256x113_int16_be"));
    EXPECT_EQ(layout("CThead_256x256x113_int16_be")->dims, glm::uvec3(256, 256, 113));
    EXPECT_TRUE(layout("CThead_256x256x113_int16_be")->bigEndian);
    EXPECT_FALSE(layout("head_64x64x64_uint8.raw")->bigEndian);
    EXPECT_EQ(layout("slice_512x400_UINT16.001")->dims, glm::uvec3(512, 400, 0));
    EXPECT_EQ(layout("slice_512x400_UINT16.001")->type, ScalarType::UInt16);
    EXPECT_EQ(layout("a-10x20x30-float32-le.img")->type, ScalarType::Float32);
    EXPECT_FALSE(layout("CThead"));
    EXPECT_FALSE(layout("256x256x113"));
    EXPECT_FALSE(layout("a_0x256x113_int16"));
    EXPECT_FALSE(layout("a_256x256x113_int12"));
    EXPECT_FALSE(layout("a_1x2x3x4_int16"));
}

TEST(VolumeSource, ARawFileWhoseNameStatesALayoutProposesIt)
{
    test::TempDir dir;
    const fs::path file = dir.path() / "scan_4x5x6_int16_be.img";
    writeBytes(file, 4 * 5 * 6 * 2);
    const io::VolumeSource source = io::openSource(file);
    EXPECT_TRUE(source.needsRawParameters); // proposed only: not the .raw convention
    ASSERT_TRUE(source.rawGuess.has_value());
    EXPECT_TRUE(source.rawGuessFromName);
    EXPECT_EQ(source.rawGuess->dims, glm::uvec3(4, 5, 6));
    EXPECT_TRUE(source.rawGuess->bigEndian);
}

TEST(VolumeSource, ReadRawSliceReadsOneSliceOnly)
{
    const fs::path file = test::sharedDataPath("raw/neghip_64x64x64_uint8.raw");
    io::RawVolumeParameters p;
    p.dims = {64, 64, 64};
    const Volume whole = io::loadVolume(file);
    const Volume slice = io::readRawSlice(file, p, 40);
    ASSERT_EQ(slice.dims(), glm::uvec3(64, 64, 1));
    for (std::uint32_t y = 0; y < 64; y += 7)
        for (std::uint32_t x = 0; x < 64; x += 5)
            ASSERT_EQ(slice.valueAt(x, y, 0), whole.valueAt(x, y, 40)) << x << " " << y;
    EXPECT_THROW(io::readRawSlice(file, p, 64), InvalidInputError);
    p.dims = {64, 64, 65};
    const std::string message = messageOf([&] { io::readRawSlice(file, p, 64); });
    EXPECT_TRUE(contains(message, "too few for slice 64")) << message;
}

// NaN and +-Inf in a float volume: one warning with their counts, whichever reader read it.
TEST(VolumeSource, NonFiniteVoxelsGiveOneWarningWithTheirCounts)
{
    test::TempDir dir;
    std::string bytes;
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    const float values[] = {1, nan, 2, inf, inf, -inf, 3, nan, nan, 4, 5, 6};
    for (float v : values)
        bytes += test::encode(v, false);
    test::writeFile(dir.path() / "f_3x2x2_float32.raw", bytes);
    test::writeFile(dir.path() / "f.mhd", "NDims = 3\nDimSize = 3 2 2\nElementType = MET_FLOAT\n"
                                          "ElementDataFile = f_3x2x2_float32.raw\n");
    for (const char* name : {"f_3x2x2_float32.raw", "f.mhd"}) {
        const Volume v = io::loadVolume(dir.path() / name);
        int found = 0;
        for (const std::string& w : v.metadata().warnings) {
            if (contains(w, "not finite")) {
                ++found;
                EXPECT_TRUE(contains(w, "6 of 12 voxels are not finite (3 NaN, 2 +Inf, 1 -Inf)"))
                    << w;
                EXPECT_TRUE(contains(w, "+Inf counts as inside")) << w;
            }
        }
        EXPECT_EQ(found, 1) << name;
        EXPECT_EQ(v.storedRange().min, 1.0);
        EXPECT_EQ(v.storedRange().max, 6.0);
    }
    // Integer and finite volumes: no such warning.
    writeBytes(dir.path() / "i_3x2x2_uint8.raw", 12);
    EXPECT_TRUE(io::loadVolume(dir.path() / "i_3x2x2_uint8.raw").metadata().warnings.empty());
}

// Refuses every volume in admitVolume, as a GPU that cannot hold it does, and remembers what it
// was asked and whether any voxel was read before.
class RefusingMonitor : public io::LoadMonitor {
public:
    void progress(std::string_view stage, std::uint64_t done, std::uint64_t) override
    {
        if (done > 0 && (stage == "reading voxels" || stage == "decoding slices" ||
                         stage == "decompressing voxels"))
            voxelsRead = true;
    }
    void admitVolume(glm::uvec3 dims, ScalarType type) override
    {
        asked.push_back({dims, type});
        throw InvalidInputError("refused by the GPU");
    }
    std::vector<std::pair<glm::uvec3, ScalarType>> asked;
    bool voxelsRead = false;
};

TEST(VolumeSource, EveryFormatAsksItsMonitorToAdmitTheVolumeBeforeReadingVoxels)
{
    test::TempDir dir;
    const fs::path slices = dir.path() / "slices";
    fs::create_directory(slices);
    for (int k = 1; k <= 3; ++k)
        writeBytes(slices / ("slice." + std::to_string(k)), 4 * 5);
    io::RawVolumeParameters slice;
    slice.dims = {4, 5, 0};

    struct Case {
        fs::path path;
        io::VolumeChoice choice;
    };
    const std::vector<Case> cases = {
        {test::sharedDataPath("raw/neghip_64x64x64_uint8.raw"), {}},
        {test::sharedDataPath("nrrd/brain1_image.nrrd"), {}},
        {test::sharedDataPath("raw/HeadMRVolume/HeadMRVolume.mhd"), {}},
        {test::sharedDataPath("nifti/ax_int_36sl_12.nii"), {}},
        {test::sharedDataPath(kCtFolder), {}},
        {slices, {.raw = slice}},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.path.string());
        const io::VolumeSource source =
            c.choice.raw ? io::openRawSource(c.path) : io::openSource(c.path);
        const Volume loaded = io::loadVolume(source, c.choice);
        RefusingMonitor monitor;
        const std::string message = messageOf([&] { io::loadVolume(source, c.choice, &monitor); });
        EXPECT_EQ(message, "refused by the GPU");
        ASSERT_FALSE(monitor.asked.empty());
        EXPECT_EQ(monitor.asked.front().first, loaded.dims());
        EXPECT_EQ(monitor.asked.front().second, loaded.type());
        EXPECT_FALSE(monitor.voxelsRead);
    }
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
