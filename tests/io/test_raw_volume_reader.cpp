// Raw volume reading: the file-name convention, exact size checks before any allocation, byte
// order, header offsets, and the real raw volumes from the shared test data.
#include "core/error.h"
#include "io/raw_volume_reader.h"
#include "io/volume_size_check.h"
#include "support/temp_dir.h"
#include "test_paths.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <functional>
#include <optional>
#include <string>
#include <unistd.h>
#include <vector>

namespace isoview::io {
namespace {

namespace fs = std::filesystem;
using test::TempDir;

void writeBytes(const fs::path& path, const std::vector<std::uint8_t>& bytes)
{
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

std::string messageOf(const std::function<void()>& action)
{
    try {
        action();
    } catch (const Error& e) {
        return e.what();
    }
    return "(no exception)";
}

// --- File-name convention ----------------------------------------------------------------

struct AcceptedName {
    const char* name;
    glm::uvec3 dims;
    ScalarType type;
};

TEST(RawFileName, AcceptsTheConvention)
{
    const AcceptedName cases[] = {
        {"neghip_64x64x64_uint8.raw", {64, 64, 64}, ScalarType::UInt8},
        {"mr_head_128x128x85_uint16.raw", {128, 128, 85}, ScalarType::UInt16},
        {"tooth_103x94x161_uint8.raw", {103, 94, 161}, ScalarType::UInt8},
        {"a_1x2x3_int8.raw", {1, 2, 3}, ScalarType::Int8},
        {"ct_512x512x300_int16.raw", {512, 512, 300}, ScalarType::Int16},
        {"x_7x1x1_uint32.raw", {7, 1, 1}, ScalarType::UInt32},
        {"x_7x1x1_int32.raw", {7, 1, 1}, ScalarType::Int32},
        {"dose_10x10x15_float32.raw", {10, 10, 15}, ScalarType::Float32},
        {"field_3x4x5_float64.RAW", {3, 4, 5}, ScalarType::Float64},
        {"64x64x64_uint8.raw", {64, 64, 64}, ScalarType::UInt8}, // the name part may be empty
        {"my_scan_v2_0100x20x30_uint8.raw", {100, 20, 30}, ScalarType::UInt8},
        {"big_4294967295x1x1_uint8.raw", {4294967295u, 1, 1}, ScalarType::UInt8},
        {"huge_100000x100000x100000_uint8.raw", {100000, 100000, 100000}, ScalarType::UInt8},
    };
    for (const AcceptedName& c : cases) {
        const std::optional<RawVolumeParameters> parsed = parseRawFileName(c.name);
        ASSERT_TRUE(parsed.has_value()) << c.name;
        EXPECT_EQ(parsed->dims, c.dims) << c.name;
        EXPECT_EQ(parsed->type, c.type) << c.name;
        EXPECT_FALSE(parsed->bigEndian) << c.name;
        EXPECT_EQ(parsed->spacing, glm::dvec3(1.0)) << c.name;
        EXPECT_EQ(parsed->headerOffset, 0u) << c.name;
    }
    // A byte order may follow the type, as the names isoview proposes write it.
    const std::optional<RawVolumeParameters> big = parseRawFileName("ct_512x512x99_int16_be.raw");
    ASSERT_TRUE(big.has_value());
    EXPECT_EQ(big->dims, glm::uvec3(512, 512, 99));
    EXPECT_EQ(big->type, ScalarType::Int16);
    EXPECT_TRUE(big->bigEndian);
    const std::optional<RawVolumeParameters> little = parseRawFileName("ct_2x2x2_uint16_LE.raw");
    ASSERT_TRUE(little.has_value());
    EXPECT_FALSE(little->bigEndian);
}

TEST(RawFileName, RejectsEverythingElse)
{
    const char* cases[] = {
        "",
        ".raw",
        "neghip_64x64x64_uint8",           // no extension
        "neghip_64x64x64_uint8.bin",       // other extension
        "neghip_64x64x64_uint8.raw.gz",    // compressed
        "neghip_64x64x64.raw",             // no type
        "neghip_uint8.raw",                // no dims
        "neghip_64x64_uint8.raw",          // two dims
        "neghip_64x64x64x2_uint8.raw",     // four dims
        "neghip_64x64x_uint8.raw",         // empty dim
        "neghip_x64x64_uint8.raw",         // empty dim
        "neghip_64X64X64_uint8.raw",       // capital X
        "neghip_64x64x64_uint12.raw",      // unknown type
        "neghip_64x64x64_UINT8.raw",       // type is lower case
        "neghip_64x64x64_.raw",            // empty type
        "neghip_0x64x64_uint8.raw",        // zero dim
        "neghip_64x64x0_uint8.raw",        // zero dim
        "neghip_-64x64x64_uint8.raw",      // sign
        "neghip_+64x64x64_uint8.raw",      // sign
        "neghip_6.4x64x64_uint8.raw",      // not whole
        "neghip_ 64x64x64_uint8.raw",      // space
        "neghip_4294967296x1x1_uint8.raw", // above 2^32 - 1
        "neghip_99999999999999999999x1x1_uint8.raw",
        "neghip_64x64x64_be.raw",                         // a byte order, no type
        "neghip_64x64x64_uint8_xe.raw",                   // not a byte order
        "w_4294967295x4294967295x4294967295_float64.raw", // 2^96 * 8 bytes overflows
        "w_4294967295x4294967295x2_uint8.raw",            // just above 2^64 bytes
    };
    for (const char* name : cases) {
        EXPECT_FALSE(parseRawFileName(name).has_value()) << "'" << name << "'";
    }
}

TEST(RawFileName, AcceptsTheLargestByteCountThatFits)
{
    // 4294967295 * 641 * 6700417 = (2^32 - 1)(2^32 + 1) = 2^64 - 1 bytes: the largest byte
    // count there is. One more voxel row overflows.
    EXPECT_TRUE(parseRawFileName("w_4294967295x641x6700417_uint8.raw").has_value());
    EXPECT_FALSE(parseRawFileName("w_4294967295x641x6700418_uint8.raw").has_value());
    EXPECT_FALSE(parseRawFileName("w_4294967295x641x6700417_int16.raw").has_value());
}

// --- Reading -------------------------------------------------------------------------------

TEST(RawVolumeReader, ReadsXFastestWithSpacing)
{
    TempDir dir;
    const fs::path path = dir.path() / "ramp_3x2x2_uint16.raw";
    std::vector<std::uint8_t> bytes;
    for (std::uint16_t v = 0; v < 12; ++v) {
        const std::uint16_t value = std::uint16_t(v * 1000 + 7);
        bytes.push_back(std::uint8_t(value & 0xff)); // little-endian
        bytes.push_back(std::uint8_t(value >> 8));
    }
    writeBytes(path, bytes);

    const Volume byName = readRawVolume(path);
    EXPECT_EQ(byName.dims(), glm::uvec3(3, 2, 2));
    EXPECT_EQ(byName.type(), ScalarType::UInt16);
    EXPECT_EQ(byName.valueAt(0, 0, 0), 7.0f);
    EXPECT_EQ(byName.valueAt(1, 0, 0), 1007.0f);
    EXPECT_EQ(byName.valueAt(0, 1, 0), 3007.0f);
    EXPECT_EQ(byName.valueAt(2, 1, 1), 11007.0f);
    EXPECT_EQ(byName.geometry().spacing, glm::dvec3(1.0));

    RawVolumeParameters parameters;
    parameters.dims = {3, 2, 2};
    parameters.type = ScalarType::UInt16;
    parameters.spacing = {0.5, 0.75, 2.5};
    const Volume explicitParameters = readRawVolume(path, parameters);
    EXPECT_EQ(explicitParameters.geometry().spacing, glm::dvec3(0.5, 0.75, 2.5));
    EXPECT_EQ(explicitParameters.geometry().origin, glm::dvec3(0.0));
    EXPECT_EQ(explicitParameters.geometry().direction, glm::dmat3(1.0));
    EXPECT_EQ(explicitParameters.valueAt(2, 1, 1), 11007.0f);
}

TEST(RawVolumeReader, BigEndianInt16RoundTrip)
{
    TempDir dir;
    const fs::path path = dir.path() / "ct.bin";
    const std::vector<std::int16_t> values = {-32768, -1000, -1, 0, 1, 258, 3272, 32767};
    std::vector<std::uint8_t> bytes;
    for (std::int16_t v : values) {
        const auto u = std::uint16_t(v);
        bytes.push_back(std::uint8_t(u >> 8)); // most significant byte first
        bytes.push_back(std::uint8_t(u & 0xff));
    }
    writeBytes(path, bytes);

    RawVolumeParameters parameters;
    parameters.dims = {2, 2, 2};
    parameters.type = ScalarType::Int16;
    parameters.bigEndian = true;
    const Volume volume = readRawVolume(path, parameters);
    for (std::size_t i = 0; i < values.size(); ++i) {
        EXPECT_EQ(volume.valueAt(i), float(values[i])) << "voxel " << i;
    }
    EXPECT_EQ(volume.storedRange().min, -32768.0);
    EXPECT_EQ(volume.storedRange().max, 32767.0);

    // Read as little-endian the same bytes are swapped: 258 = 0x0102 becomes 0x0201 = 513.
    parameters.bigEndian = false;
    EXPECT_EQ(readRawVolume(path, parameters).valueAt(5), 513.0f);
}

TEST(RawVolumeReader, BigEndianFloat32AndFloat64)
{
    TempDir dir;
    const fs::path path32 = dir.path() / "f32.bin";
    const float f = -1.5f; // 0xbfc00000
    std::uint32_t bits32;
    std::memcpy(&bits32, &f, 4);
    writeBytes(path32, {std::uint8_t(bits32 >> 24), std::uint8_t(bits32 >> 16),
                        std::uint8_t(bits32 >> 8), std::uint8_t(bits32)});
    RawVolumeParameters parameters;
    parameters.dims = {1, 1, 1};
    parameters.type = ScalarType::Float32;
    parameters.bigEndian = true;
    EXPECT_EQ(readRawVolume(path32, parameters).valueAt(0), -1.5f);

    const fs::path path64 = dir.path() / "f64.bin";
    const double d = 1234.25;
    std::uint64_t bits64;
    std::memcpy(&bits64, &d, 8);
    std::vector<std::uint8_t> bytes;
    for (int shift = 56; shift >= 0; shift -= 8)
        bytes.push_back(std::uint8_t(bits64 >> shift));
    writeBytes(path64, bytes);
    parameters.type = ScalarType::Float64;
    EXPECT_EQ(readRawVolume(path64, parameters).valueAt(0), 1234.25f);
}

TEST(RawVolumeReader, SkipsTheHeaderOffset)
{
    TempDir dir;
    const fs::path path = dir.path() / "with_header.vol";
    std::vector<std::uint8_t> bytes(37, 0xee); // a header the reader must skip
    for (std::uint8_t v = 1; v <= 8; ++v)
        bytes.push_back(v);
    writeBytes(path, bytes);

    RawVolumeParameters parameters;
    parameters.dims = {2, 2, 2};
    parameters.type = ScalarType::UInt8;
    parameters.headerOffset = 37;
    const Volume volume = readRawVolume(path, parameters);
    EXPECT_EQ(volume.valueAt(0), 1.0f);
    EXPECT_EQ(volume.valueAt(7), 8.0f);

    parameters.headerOffset = 36; // one byte too few skipped: size no longer matches
    const std::string message = messageOf([&] { readRawVolume(path, parameters); });
    EXPECT_NE(message.find("45 bytes"), std::string::npos) << message;
    EXPECT_NE(message.find("9 after a 36-byte header"), std::string::npos) << message;

    parameters.headerOffset = 100; // beyond the end of the file
    EXPECT_THROW(readRawVolume(path, parameters), IoError);
}

TEST(RawVolumeReader, WrongSizeNamesBothByteCounts)
{
    TempDir dir;
    const fs::path path = dir.path() / "short_16x16x16_uint8.raw";
    writeBytes(path, std::vector<std::uint8_t>(1000, 1));
    const std::string message = messageOf([&] { readRawVolume(path); });
    EXPECT_NE(message.find(path.string()), std::string::npos) << message;
    EXPECT_NE(message.find("1000"), std::string::npos) << message;
    EXPECT_NE(message.find("4096"), std::string::npos) << message;
    EXPECT_THROW(readRawVolume(path), IoError);

    writeBytes(path, std::vector<std::uint8_t>(4097, 1)); // one byte too many is also wrong
    EXPECT_THROW(readRawVolume(path), IoError);
}

TEST(RawVolumeReader, HugeDimensionsAreRejectedBeforeAllocating)
{
    // 10^15 bytes: allocating first would throw std::bad_alloc (or exhaust memory) instead of
    // the error checked here.
    TempDir dir;
    const fs::path path = dir.path() / "huge_100000x100000x100000_uint8.raw";
    writeBytes(path, std::vector<std::uint8_t>(16, 0));
    const std::string message = messageOf([&] { readRawVolume(path); });
    EXPECT_NE(message.find("1000000000000000"), std::string::npos) << message;
    EXPECT_NE(message.find("16 bytes"), std::string::npos) << message;
}

TEST(RawVolumeReader, OverflowingDimensionsAreRejected)
{
    TempDir dir;
    const fs::path path = dir.path() / "w_4294967295x4294967295x4294967295_float64.raw";
    writeBytes(path, std::vector<std::uint8_t>(8, 0));
    EXPECT_THROW(readRawVolume(path), InvalidInputError);
    RawVolumeParameters parameters;
    parameters.dims = {4294967295u, 4294967295u, 4294967295u};
    parameters.type = ScalarType::Float64;
    const std::string message = messageOf([&] { readRawVolume(path, parameters); });
    EXPECT_NE(message.find("2^64"), std::string::npos) << message;
}

TEST(RawVolumeReader, VolumeLargerThanMemoryIsRejectedClearly)
{
    // A sparse file four times the machine's memory has the exact size its name asks for but
    // takes no disk space; the reader must refuse it for lack of memory instead of trying to
    // allocate it. Sized from this machine's memory, so it holds on any machine.
    const long pages = ::sysconf(_SC_PHYS_PAGES);
    const long pageSize = ::sysconf(_SC_PAGE_SIZE);
    ASSERT_GT(pages, 0);
    ASSERT_GT(pageSize, 0);
    const std::uintmax_t memory = std::uintmax_t(pages) * std::uintmax_t(pageSize);
    const std::uintmax_t slice = std::uintmax_t(65536) * 65536;
    const std::uintmax_t slices = (4 * memory + slice - 1) / slice;
    TempDir dir;
    const fs::path path =
        dir.path() / ("sparse_65536x65536x" + std::to_string(slices) + "_uint8.raw");
    writeBytes(path, {});
    std::error_code error;
    fs::resize_file(path, slices * slice, error);
    ASSERT_FALSE(error) << "the temp file system must hold a sparse file of " << slices * slice
                        << " bytes: " << error.message();
    const std::string message = messageOf([&] { readRawVolume(path); });
    EXPECT_NE(message.find(std::to_string(slices * slice) + " bytes"), std::string::npos)
        << message;
    EXPECT_NE(message.find("of memory available now"), std::string::npos) << message;
    EXPECT_NE(message.find("close other programs"), std::string::npos) << message;
    EXPECT_THROW(readRawVolume(path), InvalidInputError);
}

TEST(RawVolumeReader, AvailableMemoryIsWhatTheKernelSaysAndNeverMoreThanInstalled)
{
    std::ifstream meminfo("/proc/meminfo");
    std::string key;
    std::uint64_t kib = 0;
    std::string unit;
    std::uint64_t stated = 0;
    while (meminfo >> key >> kib >> unit) {
        if (key == "MemAvailable:") stated = kib * 1024;
    }
    ASSERT_GT(stated, 0u) << "no MemAvailable in /proc/meminfo";
    const std::uint64_t available = io::detail::availableMemoryBytes();
    EXPECT_LE(available, io::detail::physicalMemoryBytes());
    // Both read a moment apart: they agree within what other processes change meanwhile.
    EXPECT_NEAR(double(available), double(stated), 256.0 * 1024 * 1024);
}

TEST(RawVolumeReader, NameOutsideTheConventionIsExplained)
{
    TempDir dir;
    const fs::path path = dir.path() / "head.raw";
    writeBytes(path, std::vector<std::uint8_t>(8, 0));
    EXPECT_THROW(readRawVolume(path), InvalidInputError);
    const std::string message = messageOf([&] { readRawVolume(path); });
    EXPECT_NE(message.find(path.string()), std::string::npos) << message;
    EXPECT_NE(message.find("<name>_<X>x<Y>x<Z>_<type>.raw"), std::string::npos) << message;

    const std::string badType =
        messageOf([&] { readRawVolume(dir.path() / "head_2x2x2_uint12.raw"); });
    EXPECT_NE(badType.find("'uint12' is not a voxel type"), std::string::npos) << badType;
}

TEST(RawVolumeReader, MissingFileIsAnIoError)
{
    TempDir dir;
    const fs::path path = dir.path() / "absent_2x2x2_uint8.raw";
    EXPECT_THROW(readRawVolume(path), IoError);
    const std::string message = messageOf([&] { readRawVolume(path); });
    EXPECT_NE(message.find(path.string()), std::string::npos) << message;
    EXPECT_NE(message.find("No such file or directory"), std::string::npos) << message;
}

TEST(RawVolumeReader, FolderIsAnIoError)
{
    TempDir dir;
    const fs::path path = dir.path() / "folder_2x2x2_uint8.raw";
    fs::create_directory(path);
    EXPECT_THROW(readRawVolume(path), IoError);
}

TEST(RawVolumeReader, InvalidParametersAreRejected)
{
    TempDir dir;
    const fs::path path = dir.path() / "eight.bin";
    writeBytes(path, std::vector<std::uint8_t>(8, 0));
    RawVolumeParameters parameters;
    parameters.dims = {8, 0, 1};
    EXPECT_THROW(readRawVolume(path, parameters), InvalidInputError);
    parameters.dims = {2, 2, 2};
    parameters.spacing = {1.0, 0.0, 1.0};
    EXPECT_THROW(readRawVolume(path, parameters), InvalidInputError);
    parameters.spacing = {1.0, 1.0, -2.0};
    EXPECT_THROW(readRawVolume(path, parameters), InvalidInputError);
    parameters.spacing = {1.0, std::nan(""), 1.0};
    EXPECT_THROW(readRawVolume(path, parameters), InvalidInputError);
    parameters.spacing = {1.0, 1.0, 1.0};
    EXPECT_NO_THROW(readRawVolume(path, parameters));
}

// --- The shared real volumes (see the data README for the expected values) ---------------

struct SharedRaw {
    const char* file;
    glm::uvec3 dims;
    double min;
    double max;
    double mean;
};

class SharedRawVolume : public ::testing::TestWithParam<SharedRaw> {};

TEST_P(SharedRawVolume, LoadsWithTheDocumentedDimsAndValues)
{
    const SharedRaw& expected = GetParam();
    const fs::path path = fs::path(test::kSharedDataDir) / "raw" / expected.file;
    ASSERT_TRUE(fs::exists(path)) << path << " is missing; set ISOVIEW_SHARED_DATA_DIR";

    const Volume volume = readRawVolume(path);
    EXPECT_EQ(volume.dims(), expected.dims);
    EXPECT_EQ(volume.type(), ScalarType::UInt8);
    EXPECT_EQ(volume.storedRange().min, expected.min);
    EXPECT_EQ(volume.storedRange().max, expected.max);
    double sum = 0.0;
    for (std::size_t i = 0; i < volume.voxelCount(); ++i)
        sum += volume.valueAt(i);
    EXPECT_NEAR(sum / double(volume.voxelCount()), expected.mean, 0.05);
}

INSTANTIATE_TEST_SUITE_P(
    DataReadme, SharedRawVolume,
    ::testing::Values(SharedRaw{"neghip_64x64x64_uint8.raw", {64, 64, 64}, 0, 255, 18.4},
                      SharedRaw{"tooth_103x94x161_uint8.raw", {103, 94, 161}, 0, 255, 103.2}),
    [](const auto& info) { return std::string(info.param.file).substr(0, 5); });

} // namespace
} // namespace isoview::io
