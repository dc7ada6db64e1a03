// Folders of headerless per-slice files (<prefix>.<N>): numeric slice order, gaps, duplicates,
// sizes checked per file before allocating, ignored non-slice files, detection, cancellation,
// and the real CThead study (113 big-endian int16 slices).
#include "core/error.h"
#include "io/io_test_support.h"
#include "io/raw_slice_folder_reader.h"
#include "support/temp_dir.h"
#include "test_paths.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <string>
#include <sys/stat.h>
#include <vector>

namespace isoview::io {
namespace {

namespace fs = std::filesystem;
using test::contains;
using test::encode;
using test::messageOf;
using test::TempDir;
using test::writeFile;

// A 2x2 uint16 slice whose four voxels all hold value (little-endian).
std::string slice(std::uint16_t value, const std::string& header = "")
{
    std::string bytes = header;
    for (int i = 0; i < 4; ++i)
        bytes += encode<std::uint16_t>(value, false);
    return bytes;
}

RawVolumeParameters sliceParameters()
{
    RawVolumeParameters parameters;
    parameters.dims = {2, 2, 0};
    parameters.type = ScalarType::UInt16;
    return parameters;
}

// --- Synthetic folders ---------------------------------------------------------------------

TEST(RawSliceFolder, SlicesAreOrderedByNumberNotByName)
{
    TempDir dir;
    for (int n = 1; n <= 12; ++n)
        writeFile(dir.path() / ("s." + std::to_string(n)), slice(n * 10));
    const Volume volume = readRawSliceFolder(dir.path(), sliceParameters());
    ASSERT_EQ(volume.dims(), glm::uvec3(2, 2, 12));
    for (std::uint32_t k = 0; k < 12; ++k) {
        EXPECT_EQ(volume.valueAt(1, 1, k), float((k + 1) * 10)) << "slice " << k;
    }
    EXPECT_EQ(volume.metadata().sourceFormat, "raw");
    EXPECT_TRUE(volume.metadata().warnings.empty());
    EXPECT_TRUE(looksLikeRawSliceFolder(dir.path()));

    const std::optional<RawSliceSeries> series = findRawSliceSeries(dir.path());
    ASSERT_TRUE(series.has_value());
    EXPECT_EQ(series->prefix, "s");
    EXPECT_EQ(series->files[9].filename(), "s.10");
    EXPECT_EQ(series->numbers.front(), 1u);
}

TEST(RawSliceFolder, LeadingZerosStartAtZeroAndParameters)
{
    TempDir dir;
    for (int n = 0; n < 3; ++n) {
        writeFile(dir.path() / ("scan.v2.00" + std::to_string(n)), slice(100 + n, "HDR"));
    }
    RawVolumeParameters parameters = sliceParameters();
    parameters.dims.z = 3; // may be given if it matches
    parameters.headerOffset = 3;
    parameters.bigEndian = true;
    parameters.spacing = {0.5, 0.5, 2.0};
    const Volume volume = readRawSliceFolder(dir.path(), parameters);
    ASSERT_EQ(volume.dims(), glm::uvec3(2, 2, 3));
    // Little-endian 100 = 0x0064 read as big-endian is 0x6400 = 25600.
    EXPECT_EQ(volume.valueAt(0, 0, 0), 25600.0f);
    EXPECT_EQ(volume.valueAt(0, 0, 2), float(0x6600));
    EXPECT_EQ(volume.geometry().spacing, glm::dvec3(0.5, 0.5, 2.0));

    parameters.dims.z = 4;
    const std::string message = messageOf([&] { readRawSliceFolder(dir.path(), parameters); });
    EXPECT_TRUE(contains(message, "ask for 4 slices, but the folder holds 3 (scan.v2.0 to "
                                  "scan.v2.2)"))
        << message;
    EXPECT_THROW(readRawSliceFolder(dir.path(), parameters), InvalidInputError);
}

TEST(RawSliceFolder, AMissingNumberIsNamed)
{
    TempDir dir;
    for (int n : {1, 2, 3, 4, 6, 7, 9}) {
        writeFile(dir.path() / ("CT." + std::to_string(n)), slice(1));
    }
    const std::string message =
        messageOf([&] { readRawSliceFolder(dir.path(), sliceParameters()); });
    EXPECT_TRUE(contains(message, "slice file CT.5, CT.8 is missing")) << message;
    EXPECT_TRUE(contains(message, "numbered from 1 to 9 with 2 numbers missing")) << message;
    EXPECT_THROW(readRawSliceFolder(dir.path(), sliceParameters()), IoError);
    // A slice's place held by a folder or a FIFO is said as such, not as missing.
    fs::create_directory(dir.path() / "CT.5");
    ASSERT_EQ(::mkfifo((dir.path() / "CT.8").c_str(), 0600), 0);
    const std::string held = messageOf([&] { readRawSliceFolder(dir.path(), sliceParameters()); });
    EXPECT_TRUE(contains(held, "'CT.5' is a folder, not a file")) << held;
    EXPECT_TRUE(contains(held, "(and 1 more)")) << held;
}

TEST(RawSliceFolder, TwoNamesForOneNumberAreAnError)
{
    TempDir dir;
    writeFile(dir.path() / "s.6", slice(1));
    writeFile(dir.path() / "s.7", slice(1));
    writeFile(dir.path() / "s.07", slice(1));
    const std::string message =
        messageOf([&] { readRawSliceFolder(dir.path(), sliceParameters()); });
    EXPECT_TRUE(contains(message, "are slice 7")) << message;
}

TEST(RawSliceFolder, EveryFileSizeIsCheckedBeforeReading)
{
    TempDir dir;
    writeFile(dir.path() / "s.1", slice(1));
    writeFile(dir.path() / "s.2", slice(1).substr(0, 7));
    writeFile(dir.path() / "s.3", slice(1));
    const std::string message =
        messageOf([&] { readRawSliceFolder(dir.path(), sliceParameters()); });
    EXPECT_TRUE(
        contains(message, "slice file '" + (dir.path() / "s.2").string() + "' holds 7 bytes"))
        << message;
    EXPECT_TRUE(contains(message, "a 2x2 uint16 slice needs exactly 8 bytes")) << message;
    EXPECT_THROW(readRawSliceFolder(dir.path(), sliceParameters()), IoError);

    writeFile(dir.path() / "s.2", slice(1) + "x"); // too long is as wrong as too short
    EXPECT_THROW(readRawSliceFolder(dir.path(), sliceParameters()), IoError);

    RawVolumeParameters withHeader = sliceParameters();
    withHeader.headerOffset = 4;
    const std::string headerMessage =
        messageOf([&] { readRawSliceFolder(dir.path(), withHeader); });
    EXPECT_TRUE(contains(headerMessage, "needs exactly 12 bytes (including its 4-byte header)"))
        << headerMessage;
}

TEST(RawSliceFolder, NonNumericSuffixesAndHiddenFilesAreIgnored)
{
    // Documented behaviour: files that are not <prefix>.<digits> (desc.txt, s.bak, s.1a) are
    // left out and named in a warning; hidden files and subfolders are skipped silently; a
    // smaller second series (other.1, other.2) is left out like any other file.
    TempDir dir;
    for (int n = 1; n <= 3; ++n)
        writeFile(dir.path() / ("s." + std::to_string(n)), slice(n));
    writeFile(dir.path() / "desc.txt", "256x256x113, 2 bytes");
    writeFile(dir.path() / "s.bak", "x");
    writeFile(dir.path() / "s.1a", "x");
    writeFile(dir.path() / ".DS_Store", "x");
    writeFile(dir.path() / "other.1", "x");
    writeFile(dir.path() / "other.2", "x");
    fs::create_directory(dir.path() / "sub.4");
    const Volume volume = readRawSliceFolder(dir.path(), sliceParameters());
    EXPECT_EQ(volume.dims(), glm::uvec3(2, 2, 3));
    ASSERT_EQ(volume.metadata().warnings.size(), 1u);
    EXPECT_EQ(volume.metadata().warnings[0],
              "ignored 5 files not named s.<number>: desc.txt, other.1, other.2, s.1a, s.bak");
    EXPECT_FALSE(looksLikeRawSliceFolder(dir.path())); // 3 slices do not outnumber 5 others
}

TEST(RawSliceFolder, TwoEqualSeriesCannotBeTold)
{
    TempDir dir;
    for (const char* name : {"a.1", "a.2", "b.1", "b.2"})
        writeFile(dir.path() / name, slice(1));
    const std::string message =
        messageOf([&] { readRawSliceFolder(dir.path(), sliceParameters()); });
    EXPECT_TRUE(contains(message, "put each series in its own folder")) << message;
    EXPECT_FALSE(looksLikeRawSliceFolder(dir.path()));
}

TEST(RawSliceFolder, EmptyMissingAndBadParameters)
{
    TempDir dir;
    std::string message = messageOf([&] { readRawSliceFolder(dir.path(), sliceParameters()); });
    EXPECT_TRUE(contains(message, "holds no slice files named <prefix>.<number>")) << message;
    EXPECT_FALSE(looksLikeRawSliceFolder(dir.path()));

    message = messageOf([&] { readRawSliceFolder(dir.path() / "absent", sliceParameters()); });
    EXPECT_TRUE(contains(message, "cannot list slice folder")) << message;
    EXPECT_THROW(readRawSliceFolder(dir.path() / "absent", sliceParameters()), IoError);
    EXPECT_FALSE(looksLikeRawSliceFolder(dir.path() / "absent"));

    writeFile(dir.path() / "s.1", slice(1));
    writeFile(dir.path() / "s.2", slice(1));
    RawVolumeParameters parameters = sliceParameters();
    parameters.dims.x = 0;
    EXPECT_THROW(readRawSliceFolder(dir.path(), parameters), InvalidInputError);
    parameters = sliceParameters();
    parameters.spacing.z = -1.0;
    EXPECT_THROW(readRawSliceFolder(dir.path(), parameters), InvalidInputError);
    EXPECT_FALSE(looksLikeRawSliceFolder(dir.path() / "s.1")); // a file, not a folder
}

TEST(RawSliceFolder, HugeSlicesAreRejectedBeforeAllocating)
{
    TempDir dir;
    for (const char* name : {"s.1", "s.2", "s.3"})
        writeFile(dir.path() / name, "tiny");
    RawVolumeParameters parameters;
    parameters.dims = {100000, 100000, 0};
    parameters.type = ScalarType::Float64; // 3 x 80 GB
    const std::string message = messageOf([&] { readRawSliceFolder(dir.path(), parameters); });
    EXPECT_TRUE(contains(message, "240000000000 bytes")) << message;
    EXPECT_TRUE(contains(message, "memory")) << message;

    parameters.dims = {4294967295u, 4294967295u, 0};
    EXPECT_THROW(readRawSliceFolder(dir.path(), parameters), InvalidInputError);
}

TEST(RawSliceFolder, DicomNamedLikeSlicesIsNotARawFolder)
{
    TempDir dir;
    std::string dicom(132, '\0');
    dicom.replace(128, 4, "DICM");
    writeFile(dir.path() / "IM.1", dicom);
    writeFile(dir.path() / "IM.2", dicom);
    EXPECT_FALSE(looksLikeRawSliceFolder(dir.path()));
    dicom.replace(128, 4, "ABCD");
    writeFile(dir.path() / "IM.1", dicom);
    writeFile(dir.path() / "IM.2", dicom);
    EXPECT_TRUE(looksLikeRawSliceFolder(dir.path()));
    writeFile(dir.path() / "IM.2", dicom + "x"); // slices of different sizes
    EXPECT_FALSE(looksLikeRawSliceFolder(dir.path()));
}

TEST(RawSliceFolder, CancelsThroughTheMonitor)
{
    TempDir dir;
    const std::string big(std::size_t(512) * 512 * 2, '\x01'); // 512 KiB slices
    for (int n = 1; n <= 8; ++n)
        writeFile(dir.path() / ("s." + std::to_string(n)), big);
    RawVolumeParameters parameters;
    parameters.dims = {512, 512, 0};
    parameters.type = ScalarType::Int16;
    test::RecordingMonitor all;
    EXPECT_EQ(readRawSliceFolder(dir.path(), parameters, &all).valueAt(0, 0, 7), 257.0f);
    EXPECT_EQ(all.calls.back().done, 8u * big.size());
    test::RecordingMonitor cancel(3);
    EXPECT_THROW(readRawSliceFolder(dir.path(), parameters, &cancel), CancelledError);
}

// --- The shared CThead study (see the data README) -----------------------------------------

std::int16_t bigEndianVoxel(const fs::path& file, std::size_t index)
{
    std::ifstream in(file, std::ios::binary);
    in.seekg(std::streamoff(index * 2));
    unsigned char bytes[2] = {};
    in.read(reinterpret_cast<char*>(bytes), 2);
    EXPECT_TRUE(in.good()) << file;
    return std::int16_t(std::uint16_t(bytes[0] << 8 | bytes[1]));
}

TEST(RawSliceFolder, CtHeadLoadsInNumericSliceOrder)
{
    const fs::path folder = fs::path(test::kSharedDataDir) / "raw" / "CThead_256x256x113_int16_be";
    ASSERT_TRUE(fs::exists(folder)) << folder << " is missing; set ISOVIEW_SHARED_DATA_DIR";
    EXPECT_TRUE(looksLikeRawSliceFolder(folder));

    RawVolumeParameters parameters;
    parameters.dims = {256, 256, 0};
    parameters.type = ScalarType::Int16;
    parameters.bigEndian = true;
    parameters.spacing = {1.0, 1.0, 2.0};
    const Volume volume = readRawSliceFolder(folder, parameters);
    EXPECT_EQ(volume.dims(), glm::uvec3(256, 256, 113));
    EXPECT_EQ(volume.type(), ScalarType::Int16);
    EXPECT_EQ(volume.storedRange().min, 0.0);
    EXPECT_EQ(volume.storedRange().max, 3272.0);
    EXPECT_EQ(volume.geometry().spacing, glm::dvec3(1.0, 1.0, 2.0));
    EXPECT_TRUE(volume.metadata().warnings.empty());

    // Slice k is file CThead.(k+1): lexical order would put CThead.10 second and CThead.100
    // third. Check the centre voxel and a voxel off-centre of several slices against the files.
    for (std::uint32_t k : {0u, 1u, 8u, 9u, 56u, 98u, 99u, 112u}) {
        const fs::path file = folder / ("CThead." + std::to_string(k + 1));
        for (auto [i, j] : {std::pair{128u, 128u}, std::pair{90u, 170u}}) {
            EXPECT_EQ(volume.valueAt(i, j, k), float(bigEndianVoxel(file, i + 256 * j)))
                << "voxel " << i << "," << j << " of slice " << k;
        }
    }
    double sum = 0.0;
    for (std::size_t i = 0; i < volume.voxelCount(); ++i)
        sum += volume.valueAt(i);
    EXPECT_NEAR(sum / double(volume.voxelCount()), 379.5, 0.05);
}

TEST(RawSliceFolder, OtherSharedFoldersAreNotSliceFolders)
{
    const fs::path data(test::kSharedDataDir);
    EXPECT_FALSE(looksLikeRawSliceFolder(data / "nrrd"));
    EXPECT_FALSE(looksLikeRawSliceFolder(data / "raw" / "HeadMRVolume"));
    EXPECT_FALSE(looksLikeRawSliceFolder(data / "dicom" / "ct_philips_head_phantom_5mm"));
    EXPECT_FALSE(looksLikeRawSliceFolder(data / "dicom" / "single"));
}

} // namespace
} // namespace isoview::io
