// MetaImage: header parsing (keys, synonyms, TransformMatrix interpretation, data file forms,
// every malformed header a clear InvalidInputError), .mhd + data file and .mha LOCAL data,
// raw and compressed, byte order, HeaderSize, cancellation, and the real HeadMRVolume.mhd.
#include "core/error.h"
#include "io/io_test_support.h"
#include "io/metaimage_reader.h"
#include "io/raw_volume_reader.h"
#include "support/temp_dir.h"
#include "test_paths.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace isoview::io {
namespace {

namespace fs = std::filesystem;
using test::contains;
using test::encode;
using test::messageOf;
using test::TempDir;
using test::writeFile;

std::string mhd(const std::string& keys, const std::string& dataFile)
{
    return "ObjectType = Image\nNDims = 3\nDimSize = 3 2 2\nElementType = MET_USHORT\n" + keys +
           "ElementDataFile = " + dataFile + "\n";
}

// 3x2x2 uint16 voxels 60000, 60001, ..., 60011.
std::string uint16Ramp(bool bigEndian = false)
{
    std::string bytes;
    for (int v = 0; v < 12; ++v) {
        bytes += encode<std::uint16_t>(std::uint16_t(60000 + v), bigEndian);
    }
    return bytes;
}

void expectRamp(const Volume& volume)
{
    ASSERT_EQ(volume.dims(), glm::uvec3(3, 2, 2));
    ASSERT_EQ(volume.type(), ScalarType::UInt16);
    for (std::size_t i = 0; i < 12; ++i)
        EXPECT_EQ(volume.valueAt(i), float(60000 + i)) << i;
}

std::string parseError(const std::string& text)
{
    try {
        parseMetaImageHeader(text);
    } catch (const InvalidInputError& e) {
        return e.what();
    }
    return "(no InvalidInputError)";
}

// --- Header parsing ------------------------------------------------------------------------

TEST(MetaImageHeader, ParsesKeysInAnyCaseAndWhereLocalDataStart)
{
    const std::string text = "objecttype = image\r\nNDims=3\r\nDimSize = 48 62 42\r\n"
                             "ElementSpacing = 0.5 0.25 4\r\nOffset = -1.5 2 3e2\r\n"
                             "ElementType = MET_FLOAT\r\nBinaryDataByteOrderMSB = True\r\n"
                             "CompressedData = False\r\nHeaderSize = 7\r\nModality = MET_MOD_CT\r\n"
                             "ElementDataFile = LOCAL\r\nBINARY";
    const MetaImageHeader h = parseMetaImageHeader(text);
    EXPECT_EQ(h.dims, glm::uvec3(48, 62, 42));
    EXPECT_EQ(h.type, ScalarType::Float32);
    EXPECT_TRUE(h.bigEndian);
    EXPECT_FALSE(h.compressed);
    EXPECT_EQ(h.headerSize, 7);
    EXPECT_TRUE(h.local);
    EXPECT_TRUE(h.dataFiles.empty());
    EXPECT_EQ(h.headerBytes, text.size() - 6);
    EXPECT_EQ(h.geometry.spacing, glm::dvec3(0.5, 0.25, 4));
    EXPECT_EQ(h.geometry.origin, glm::dvec3(-1.5, 2, 300));
    EXPECT_EQ(h.geometry.direction, glm::dmat3(1.0));
    EXPECT_EQ(h.modality, "CT");
    EXPECT_TRUE(h.warnings.empty());
}

TEST(MetaImageHeader, ElementTypes)
{
    const std::pair<const char*, ScalarType> cases[] = {
        {"MET_UCHAR", ScalarType::UInt8},   {"MET_CHAR", ScalarType::Int8},
        {"MET_USHORT", ScalarType::UInt16}, {"MET_SHORT", ScalarType::Int16},
        {"MET_UINT", ScalarType::UInt32},   {"MET_INT", ScalarType::Int32},
        {"MET_FLOAT", ScalarType::Float32}, {"MET_DOUBLE", ScalarType::Float64}};
    for (const auto& [name, type] : cases) {
        const std::string text = "NDims = 3\nDimSize = 1 1 1\nElementType = " + std::string(name) +
                                 "\nElementDataFile = x.raw\n";
        EXPECT_EQ(parseMetaImageHeader(text).type, type) << name;
    }
}

TEST(MetaImageHeader, TransformMatrixTriplesAreTheAxisDirections)
{
    // Axis i points along +y, axis j along -x, axis k along +z (a 90 degree turn), as ITK's
    // MetaImageIO writes direction columns one after the other.
    const MetaImageHeader h =
        parseMetaImageHeader(mhd("TransformMatrix = 0 1 0 -1 0 0 0 0 1\nElementSpacing = 2 3 4\n"
                                 "Offset = 10 20 30\n",
                                 "x.raw"));
    EXPECT_EQ(h.geometry.direction[0], glm::dvec3(0, 1, 0));
    EXPECT_EQ(h.geometry.direction[1], glm::dvec3(-1, 0, 0));
    EXPECT_EQ(h.geometry.direction[2], glm::dvec3(0, 0, 1));
    // One step along i moves 2 mm along +y; one step along j moves 3 mm along -x.
    EXPECT_EQ(h.geometry.toPhysical({1, 0, 0}), glm::dvec3(10, 22, 30));
    EXPECT_EQ(h.geometry.toPhysical({0, 1, 0}), glm::dvec3(7, 20, 30));
    EXPECT_EQ(h.geometry.toPhysical({0, 0, 1}), glm::dvec3(10, 20, 34));

    // Synonyms: Rotation for TransformMatrix, Position / Origin for Offset, ElementSize for
    // ElementSpacing; non-unit columns are normalized.
    const MetaImageHeader s = parseMetaImageHeader(
        mhd("Rotation = 2 0 0 0 0 3 0 -1 0\nPosition = 1 2 3\nElementSize = 5 5 5\n", "x.raw"));
    EXPECT_EQ(s.geometry.direction[0], glm::dvec3(1, 0, 0));
    EXPECT_EQ(s.geometry.direction[1], glm::dvec3(0, 0, 1));
    EXPECT_EQ(s.geometry.direction[2], glm::dvec3(0, -1, 0));
    EXPECT_EQ(s.geometry.origin, glm::dvec3(1, 2, 3));
    EXPECT_EQ(s.geometry.spacing, glm::dvec3(5));

    // ElementSpacing wins over ElementSize (HeadMRVolume.mhd has both); disagreeing synonyms
    // leave a warning.
    const MetaImageHeader both = parseMetaImageHeader(mhd(
        "ElementSize = 1 1 1\nElementSpacing = 2 2 2\nOrigin = 1 1 1\nOffset = 0 0 0\n", "x.raw"));
    EXPECT_EQ(both.geometry.spacing, glm::dvec3(2));
    EXPECT_EQ(both.geometry.origin, glm::dvec3(0));
    EXPECT_EQ(both.warnings.size(), 2u);
}

TEST(MetaImageHeader, DataFileForms)
{
    const MetaImageHeader single = parseMetaImageHeader(mhd("", "dir/my data.raw"));
    EXPECT_EQ(single.dataFiles, std::vector<std::string>{"dir/my data.raw"});
    EXPECT_EQ(single.dataFileAxes, 3u);

    const MetaImageHeader list = parseMetaImageHeader(mhd("", "LIST") + "a.raw\n\nb.raw\n");
    EXPECT_EQ(list.dataFiles, (std::vector<std::string>{"a.raw", "b.raw"}));
    EXPECT_EQ(list.dataFileAxes, 2u);

    const MetaImageHeader rows = parseMetaImageHeader(mhd("", "LIST 1") + "a\nb\nc\nd\n");
    EXPECT_EQ(rows.dataFiles.size(), 4u);

    const MetaImageHeader pattern = parseMetaImageHeader(mhd("", "im%d.raw 0 1 1"));
    EXPECT_EQ(pattern.dataFiles, (std::vector<std::string>{"im0.raw", "im1.raw"}));

    EXPECT_TRUE(contains(parseError(mhd("", "LIST") + "a.raw\n"), "1 file(s) named"));
    EXPECT_TRUE(contains(parseError(mhd("", "LIST 4") + "a.raw\n"), "number of axes from 1"));
}

TEST(MetaImageHeader, MalformedHeadersAreClearErrors)
{
    const std::pair<std::string, const char*> cases[] = {
        {"", "not a MetaImage header"},
        {"\x89PNG\r\n\x1a\n", "line 1 '\\x89PNG' is not 'Key = Value'; this is not a MetaImage"},
        {"NDims = 3\nDimSize = 1 1 1\nElementType = MET_UCHAR\n", "'ElementDataFile' is missing"},
        {"ObjectType = Mesh\nNDims = 3\nDimSize = 1 1 1\nElementType = MET_UCHAR\n"
         "ElementDataFile = a\n",
         "ObjectType (line 1): 'Mesh'"},
        {"NDims = 2\nDimSize = 1 1\nElementType = MET_UCHAR\nElementDataFile = a\n",
         "NDims (line 1): '2'; isoview reads 3-D images"},
        {"DimSize = 1 1 1\nElementType = MET_UCHAR\nElementDataFile = a\n", "'NDims' is missing"},
        {"NDims = 3\nElementType = MET_UCHAR\nElementDataFile = a\n", "'DimSize' is missing"},
        {"NDims = 3\nDimSize = 1 1 1\nElementDataFile = a\n", "'ElementType' is missing"},
        {"NDims = 3\nDimSize = 1 1\nElementType = MET_UCHAR\nElementDataFile = a\n",
         "has 2 values, expected 3"},
        {"NDims = 3\nDimSize = 1 0 1\nElementType = MET_UCHAR\nElementDataFile = a\n",
         "'0' is not a whole number from 1"},
        {"NDims = 3\nDimSize = 4294967295 4294967295 4294967295\nElementType = MET_DOUBLE\n"
         "ElementDataFile = a\n",
         "needs more than 2^64 bytes"},
        {mhd("", "a").replace(mhd("", "a").find("MET_USHORT"), 10, "MET_LONG_LONG"),
         "'MET_LONG_LONG' is not supported"},
        {mhd("", "a").replace(mhd("", "a").find("MET_USHORT"), 10, "FLOAT"),
         "unknown element type 'FLOAT'"},
        {mhd("ElementNumberOfChannels = 3\n", "a"), "isoview reads one value per voxel"},
        {mhd("BinaryData = False\n", "a"), "ASCII voxel values"},
        {mhd("ElementByteOrderMSB = True\nBinaryDataByteOrderMSB = False\n", "a"),
         "contradict each other"},
        {mhd("ElementByteOrderMSB = maybe\n", "a"), "'maybe' is neither True nor False"},
        {mhd("CompressedData = True\nHeaderSize = -1\n", "a"), "only for uncompressed"},
        {mhd("HeaderSize = -3\n", "a"), "HeaderSize (line 5): '-3'"},
        {mhd("CompressedDataSize = lots\n", "a"), "'lots' is not a byte count"},
        {mhd("ElementSpacing = 1 0 1\n", "a"), "axis 1 has spacing 0"},
        {mhd("ElementSpacing = 1 nan 1\n", "a"), "'nan' is not a finite number"},
        {mhd("Offset = 1 2\n", "a"), "Offset (line 5): '1 2' has 2 values, expected 3"},
        {mhd("TransformMatrix = 1 0 0 0 1 0 0 0\n", "a"), "has 8 values, expected 9"},
        {mhd("TransformMatrix = 0 0 0 0 1 0 0 0 1\n", "a"), "axis 0 (values 1 to 3)"},
        {mhd("TransformMatrix = 1 0 0 1 0 0 0 0 1\n", "a"), "(nearly) parallel"},
        {mhd("NDims = 3\n", "a"), "'NDims' appears twice (lines 2 and 5)"},
        {mhd("= 5\n", "a"), "line 5 has no key before '='"},
        {mhd("", "LOCAL extra"), "LOCAL takes nothing after it"},
        {mhd("", ""), "no file name given"},
    };
    for (const auto& [text, expected] : cases) {
        const std::string message = parseError(text);
        EXPECT_TRUE(contains(message, expected))
            << "'" << message << "' lacks '" << expected << "' for:\n"
            << text;
    }
}

TEST(MetaImageHeader, UnknownKeysAreIgnoredWithAWarning)
{
    const MetaImageHeader h = parseMetaImageHeader(mhd(
        "AnatomicalOrientation = RAI\nCenterOfRotation = 0 0 0\nFavouriteColour = red\n", "x.raw"));
    ASSERT_EQ(h.warnings.size(), 1u);
    EXPECT_TRUE(contains(h.warnings[0], "'FavouriteColour' on line 7"));
}

// --- Reading files -------------------------------------------------------------------------

TEST(MetaImageReader, MhdWithDataFileLittleAndBigEndian)
{
    TempDir dir;
    writeFile(dir.path() / "le.raw", uint16Ramp());
    writeFile(dir.path() / "le.mhd", mhd("ElementByteOrderMSB = False\n", "le.raw"));
    const Volume volume = readMetaImage(dir.path() / "le.mhd");
    expectRamp(volume);
    EXPECT_EQ(volume.metadata().sourceFormat, "MetaImage");

    writeFile(dir.path() / "be.raw", uint16Ramp(true));
    writeFile(dir.path() / "be.mhd", mhd("BinaryDataByteOrderMSB = True\n", "be.raw"));
    expectRamp(readMetaImage(dir.path() / "be.mhd"));
}

TEST(MetaImageReader, MhaLocalRawAndCompressed)
{
    TempDir dir;
    writeFile(dir.path() / "raw.mha", mhd("", "LOCAL") + uint16Ramp());
    expectRamp(readMetaImage(dir.path() / "raw.mha"));

    const std::string compressed = test::deflateBytes(uint16Ramp(), false); // zlib, as MetaIO
    writeFile(dir.path() / "z.mha", mhd("CompressedData = True\nCompressedDataSize = " +
                                            std::to_string(compressed.size()) + "\n",
                                        "LOCAL") +
                                        compressed);
    expectRamp(readMetaImage(dir.path() / "z.mha"));

    // Without CompressedDataSize the stream runs to the end of the file.
    writeFile(dir.path() / "nosize.mha", mhd("CompressedData = True\n", "LOCAL") + compressed);
    expectRamp(readMetaImage(dir.path() / "nosize.mha"));

    // HeaderSize skips bytes of the data file; -1 means the data are its last bytes.
    writeFile(dir.path() / "skip.raw", "HEADER" + uint16Ramp());
    writeFile(dir.path() / "skip.mhd", mhd("HeaderSize = 6\n", "skip.raw"));
    expectRamp(readMetaImage(dir.path() / "skip.mhd"));
    writeFile(dir.path() / "end.mhd", mhd("HeaderSize = -1\n", "skip.raw"));
    expectRamp(readMetaImage(dir.path() / "end.mhd"));
}

TEST(MetaImageReader, ListAndPatternDataFiles)
{
    TempDir dir;
    const std::string ramp = uint16Ramp();
    writeFile(dir.path() / "s0.raw", ramp.substr(0, 12));
    writeFile(dir.path() / "s1.raw", ramp.substr(12));
    writeFile(dir.path() / "list.mhd", mhd("", "LIST") + "s0.raw\ns1.raw\n");
    expectRamp(readMetaImage(dir.path() / "list.mhd"));
    writeFile(dir.path() / "pattern.mhd", mhd("", "s%d.raw 0 1 1"));
    expectRamp(readMetaImage(dir.path() / "pattern.mhd"));
}

TEST(MetaImageReader, BadDataAreClearErrors)
{
    TempDir dir;
    writeFile(dir.path() / "missing.mhd", mhd("", "nowhere.raw"));
    std::string message = messageOf([&] { readMetaImage(dir.path() / "missing.mhd"); });
    EXPECT_TRUE(
        contains(message, "cannot open data file '" + (dir.path() / "nowhere.raw").string() + "'"))
        << message;
    EXPECT_THROW(readMetaImage(dir.path() / "missing.mhd"), IoError);

    writeFile(dir.path() / "short.mha", mhd("", "LOCAL") + uint16Ramp().substr(0, 20));
    message = messageOf([&] { readMetaImage(dir.path() / "short.mha"); });
    EXPECT_TRUE(contains(message, "holds 20 bytes")) << message;
    EXPECT_TRUE(contains(message, "need exactly 24")) << message;

    const std::string compressed = test::deflateBytes(uint16Ramp(), false);
    writeFile(dir.path() / "cut.mha",
              mhd("CompressedData = True\n", "LOCAL") + compressed.substr(0, 10));
    message = messageOf([&] { readMetaImage(dir.path() / "cut.mha"); });
    EXPECT_TRUE(contains(message, "end early")) << message;
    EXPECT_THROW(readMetaImage(dir.path() / "cut.mha"), IoError);

    // A cut stream stays an error whatever size the header states.
    writeFile(dir.path() / "cutsize.mha",
              mhd("CompressedData = True\nCompressedDataSize = 9999\n", "LOCAL") +
                  compressed.substr(0, compressed.size() - 6));
    message = messageOf([&] { readMetaImage(dir.path() / "cutsize.mha"); });
    EXPECT_TRUE(contains(message, "end early")) << message;
    EXPECT_TRUE(contains(message, "header announces 9999 compressed bytes")) << message;
    EXPECT_THROW(readMetaImage(dir.path() / "cutsize.mha"), IoError);

    writeFile(dir.path() / "empty.mha", "");
    message = messageOf([&] { readMetaImage(dir.path() / "empty.mha"); });
    EXPECT_TRUE(contains(message, "the file is empty")) << message;

    writeFile(dir.path() / "garbage.mha", "\x7f"
                                          "ELF\x02\x01\x01");
    EXPECT_THROW(readMetaImage(dir.path() / "garbage.mha"), InvalidInputError);

    writeFile(dir.path() / "huge.mha",
              "NDims = 3\nDimSize = 100000 100000 100000\nElementType = MET_UCHAR\n"
              "ElementDataFile = LOCAL\nxyz");
    message = messageOf([&] { readMetaImage(dir.path() / "huge.mha"); });
    EXPECT_TRUE(contains(message, "memory")) << message;
    EXPECT_THROW(readMetaImage(dir.path() / "huge.mha"), InvalidInputError);

    message = messageOf([&] { readMetaImage(dir.path() / "absent.mha"); });
    EXPECT_TRUE(contains(message, "cannot open MetaImage")) << message;
}

// 64x64x40 int16, every slice z holding 1000 + z (+ x, so that a slice is not constant), in
// one zlib stream: the last slices are the ones a reader that trusts a short
// CompressedDataSize returns as zeros (VTK 9.1 does, silently).
struct SlicedStream {
    std::string raw;
    std::string zlib;
};
SlicedStream slicesValuedByIndex()
{
    SlicedStream s;
    for (int z = 0; z < 40; ++z)
        for (int y = 0; y < 64; ++y)
            for (int x = 0; x < 64; ++x)
                s.raw += encode<std::int16_t>(std::int16_t(1000 + z + x), false);
    s.zlib = test::deflateBytes(s.raw, false);
    return s;
}

std::string slicedHeader(std::uint64_t compressedDataSize)
{
    return "ObjectType = Image\nNDims = 3\nDimSize = 64 64 40\nElementType = MET_SHORT\n"
           "CompressedData = True\nCompressedDataSize = " +
           std::to_string(compressedDataSize) + "\nElementDataFile = LOCAL\n";
}

void expectEverySliceRight(const Volume& volume)
{
    ASSERT_EQ(volume.dims(), glm::uvec3(64, 64, 40));
    for (std::uint32_t z = 0; z < 40; ++z)
        for (std::uint32_t x : {0u, 63u}) {
            const std::size_t i = x + 64 * (17 + 64 * std::size_t(z));
            ASSERT_EQ(volume.valueAt(i), float(1000 + z + x)) << "slice " << z << ", x " << x;
        }
}

bool hasWarning(const Volume& volume, const std::string& text)
{
    for (const std::string& w : volume.metadata().warnings) {
        if (contains(w, text)) return true;
    }
    return false;
}

TEST(MetaImageReader, CompressedDataSizeSmallerThanTheStreamReadsTheWholeStream)
{
    TempDir dir;
    const SlicedStream s = slicesValuedByIndex();
    const std::uint64_t stated = s.zlib.size() / 3; // as in VTK's test data: the size is too small
    writeFile(dir.path() / "short_size.mha", slicedHeader(stated) + s.zlib);
    const Volume volume = readMetaImage(dir.path() / "short_size.mha");
    expectEverySliceRight(volume); // the last slices too, where a trusting reader has zeros
    EXPECT_TRUE(hasWarning(volume, "header says CompressedDataSize = " + std::to_string(stated) +
                                       " but the zlib stream in the file is " +
                                       std::to_string(s.zlib.size()) +
                                       " bytes long; read the whole stream"))
        << volume.metadata().warnings.size();

    // A stated size larger than the file, the stream complete: read, with the same warning.
    writeFile(dir.path() / "long_size.mha", slicedHeader(s.zlib.size() + 5000) + s.zlib);
    const Volume longer = readMetaImage(dir.path() / "long_size.mha");
    expectEverySliceRight(longer);
    EXPECT_TRUE(hasWarning(longer, "but the zlib stream in the file is " +
                                       std::to_string(s.zlib.size()) + " bytes long"));

    // The right size: no warning.
    writeFile(dir.path() / "right_size.mha", slicedHeader(s.zlib.size()) + s.zlib);
    const Volume right = readMetaImage(dir.path() / "right_size.mha");
    expectEverySliceRight(right);
    EXPECT_FALSE(hasWarning(right, "CompressedDataSize"));

    // A stream that really ends early (cut file, small stated size) is an IoError.
    writeFile(dir.path() / "cut.mha", slicedHeader(stated) + s.zlib.substr(0, s.zlib.size() / 2));
    const std::string message = messageOf([&] { readMetaImage(dir.path() / "cut.mha"); });
    EXPECT_TRUE(contains(message, "end early")) << message;
    EXPECT_TRUE(contains(message, "truncated")) << message;
    EXPECT_THROW(readMetaImage(dir.path() / "cut.mha"), IoError);
}

TEST(MetaImageReader, CancelsThroughTheMonitor)
{
    TempDir dir;
    const std::string voxels(std::size_t(256) * 256 * 48, '\x07'); // 3 MiB of uint8
    writeFile(dir.path() / "big.mha", "NDims = 3\nDimSize = 256 256 48\nElementType = MET_UCHAR\n"
                                      "ElementDataFile = LOCAL\n" +
                                          voxels);
    test::RecordingMonitor all;
    EXPECT_EQ(readMetaImage(dir.path() / "big.mha", &all).valueAt(12345), 7.0f);
    EXPECT_EQ(all.calls.back().done, voxels.size());
    test::RecordingMonitor cancel(2);
    EXPECT_THROW(readMetaImage(dir.path() / "big.mha", &cancel), CancelledError);
}

// --- The shared real volume (see the data README) -------------------------------------------

TEST(MetaImageReader, HeadMRVolumeFromVtkData)
{
    const fs::path path =
        fs::path(test::kSharedDataDir) / "raw" / "HeadMRVolume" / "HeadMRVolume.mhd";
    ASSERT_TRUE(fs::exists(path)) << path << " is missing; set ISOVIEW_SHARED_DATA_DIR";
    const Volume volume = readMetaImage(path);
    EXPECT_EQ(volume.dims(), glm::uvec3(48, 62, 42));
    EXPECT_EQ(volume.type(), ScalarType::UInt8);
    EXPECT_EQ(volume.geometry().spacing, glm::dvec3(4.0));
    EXPECT_EQ(volume.geometry().origin, glm::dvec3(0.0));
    EXPECT_EQ(volume.geometry().direction, glm::dmat3(1.0));
    EXPECT_EQ(volume.storedRange().min, 0.0);
    EXPECT_EQ(volume.storedRange().max, 255.0);
    double sum = 0.0;
    for (std::size_t i = 0; i < volume.voxelCount(); ++i)
        sum += volume.valueAt(i);
    EXPECT_NEAR(sum / double(volume.voxelCount()), 24.5, 0.05);

    // The voxels are exactly the bytes of the data file beside the header.
    RawVolumeParameters raw;
    raw.dims = {48, 62, 42};
    const Volume direct = readRawVolume(path.parent_path() / "HeadMRVolume.raw", raw);
    ASSERT_EQ(direct.byteCount(), volume.byteCount());
    EXPECT_EQ(std::memcmp(direct.bytes(), volume.bytes(), volume.byteCount()), 0);
}

} // namespace
} // namespace isoview::io
