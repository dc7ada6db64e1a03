// NRRD: header parsing (fields, synonyms, geometry and space conversion, data file forms, every
// malformed header a clear InvalidInputError), reading attached and detached raw and gzip data,
// checks made before allocating, cancellation, and the real brain1_image.nrrd.
#include "core/error.h"
#include "io/io_test_support.h"
#include "io/nrrd_reader.h"
#include "support/temp_dir.h"
#include "test_paths.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
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

// A header for a W x H x D volume with the given type line and encoding, ending in the empty
// line that starts attached data.
std::string header(const std::string& type, glm::uvec3 dims, const std::string& encoding,
                   const std::string& extra = "")
{
    return "NRRD0004\n# a comment\ntype: " + type +
           "\ndimension: 3\nsizes: " + std::to_string(dims.x) + " " + std::to_string(dims.y) + " " +
           std::to_string(dims.z) + "\nendian: little\nencoding: " + encoding + "\n" + extra + "\n";
}

// 3x2x2 int16 voxels -1000, -999, ..., -989 little-endian.
std::string int16Ramp(bool bigEndian = false)
{
    std::string bytes;
    for (int v = 0; v < 12; ++v)
        bytes += encode<std::int16_t>(std::int16_t(v - 1000), bigEndian);
    return bytes;
}

void expectRamp(const Volume& volume)
{
    ASSERT_EQ(volume.dims(), glm::uvec3(3, 2, 2));
    ASSERT_EQ(volume.type(), ScalarType::Int16);
    for (std::size_t i = 0; i < 12; ++i)
        EXPECT_EQ(volume.valueAt(i), float(int(i) - 1000)) << i;
}

std::string parseError(const std::string& text)
{
    try {
        parseNrrdHeader(text);
    } catch (const InvalidInputError& e) {
        return e.what();
    }
    return "(no InvalidInputError)";
}

// --- Header parsing ------------------------------------------------------------------------

TEST(NrrdHeader, ParsesFieldsGeometryAndWhereTheDataStart)
{
    const std::string text = "NRRD0005\n"
                             "# Complete NRRD file format specification at: ...\n"
                             "type: short\n"
                             "dimension: 3\n"
                             "space: left-posterior-superior\n"
                             "sizes: 256 256 25\n"
                             "space directions: (0.78125,0,0) (0,-0.78125,0) (0,0,6.5)\n"
                             "kinds: domain domain domain\n"
                             "endian: big\n"
                             "encoding: gzip\n"
                             "content: brain\n"
                             "space origin: (-99.609375,99.609375,-78)\n"
                             "my key:=my value: with colon\n"
                             "\n"
                             "\x1f\x8b binary data follow";
    const NrrdHeader h = parseNrrdHeader(text);
    EXPECT_EQ(h.version, 5);
    EXPECT_EQ(h.type, ScalarType::Int16);
    EXPECT_EQ(h.dims, glm::uvec3(256, 256, 25));
    EXPECT_EQ(h.sizes, (std::vector<std::uint64_t>{256, 256, 25}));
    EXPECT_EQ(h.encoding, NrrdEncoding::Gzip);
    EXPECT_TRUE(h.bigEndian);
    EXPECT_EQ(h.space, "left-posterior-superior");
    EXPECT_EQ(h.content, "brain");
    EXPECT_EQ(h.geometry.spacing, glm::dvec3(0.78125, 0.78125, 6.5));
    EXPECT_EQ(h.geometry.direction[0], glm::dvec3(1, 0, 0));
    EXPECT_EQ(h.geometry.direction[1], glm::dvec3(0, -1, 0));
    EXPECT_EQ(h.geometry.direction[2], glm::dvec3(0, 0, 1));
    EXPECT_EQ(h.geometry.origin, glm::dvec3(-99.609375, 99.609375, -78.0));
    EXPECT_TRUE(h.endsWithEmptyLine);
    EXPECT_EQ(h.headerBytes, text.find("\x1f\x8b"));
    EXPECT_TRUE(h.dataFiles.empty());
    EXPECT_TRUE(h.warnings.empty());
}

TEST(NrrdHeader, AcceptsCrLfLinesAndTeemSpellings)
{
    const std::string text = "NRRD0001\r\nType: Unsigned  Short\r\ndimension: 3\r\nsizes: 2 2 2"
                             "\r\nendian: little\r\nencoding: RAW\r\nbyteskip: 4\r\nlineskip: 1"
                             "\r\n\r\nDATA";
    const NrrdHeader h = parseNrrdHeader(text);
    EXPECT_EQ(h.type, ScalarType::UInt16);
    EXPECT_EQ(h.encoding, NrrdEncoding::Raw);
    EXPECT_EQ(h.byteSkip, 4);
    EXPECT_EQ(h.lineSkip, 1u);
    EXPECT_EQ(h.headerBytes, text.size() - 4);
}

TEST(NrrdHeader, TypeSynonyms)
{
    const std::pair<const char*, ScalarType> cases[] = {
        {"signed char", ScalarType::Int8},
        {"int8", ScalarType::Int8},
        {"int8_t", ScalarType::Int8},
        {"uchar", ScalarType::UInt8},
        {"unsigned char", ScalarType::UInt8},
        {"uint8_t", ScalarType::UInt8},
        {"short", ScalarType::Int16},
        {"short int", ScalarType::Int16},
        {"signed short", ScalarType::Int16},
        {"signed short int", ScalarType::Int16},
        {"int16", ScalarType::Int16},
        {"int16_t", ScalarType::Int16},
        {"ushort", ScalarType::UInt16},
        {"unsigned short", ScalarType::UInt16},
        {"unsigned short int", ScalarType::UInt16},
        {"uint16_t", ScalarType::UInt16},
        {"int", ScalarType::Int32},
        {"signed int", ScalarType::Int32},
        {"int32_t", ScalarType::Int32},
        {"uint", ScalarType::UInt32},
        {"unsigned int", ScalarType::UInt32},
        {"uint32", ScalarType::UInt32},
        {"float", ScalarType::Float32},
        {"double", ScalarType::Float64},
    };
    for (const auto& [name, type] : cases) {
        EXPECT_EQ(parseNrrdHeader(header(name, {1, 1, 1}, "raw")).type, type) << name;
    }
}

TEST(NrrdHeader, RasAndLasSpacesAreConvertedToLps)
{
    const std::string geometry = "space directions: (1,0,0) (0,2,0) (0,0,3)\n"
                                 "space origin: (10,20,30)\n";
    const NrrdHeader ras =
        parseNrrdHeader(header("uchar", {2, 2, 2}, "raw", "space: RAS\n" + geometry));
    EXPECT_EQ(ras.geometry.direction[0], glm::dvec3(-1, 0, 0));
    EXPECT_EQ(ras.geometry.direction[1], glm::dvec3(0, -1, 0));
    EXPECT_EQ(ras.geometry.direction[2], glm::dvec3(0, 0, 1));
    EXPECT_EQ(ras.geometry.spacing, glm::dvec3(1, 2, 3));
    EXPECT_EQ(ras.geometry.origin, glm::dvec3(-10, -20, 30));
    // The physical point of a voxel is the same point in both spaces, just written in LPS.
    EXPECT_EQ(ras.geometry.toPhysical({1, 1, 1}), glm::dvec3(-11, -22, 33));

    const NrrdHeader las = parseNrrdHeader(
        header("uchar", {2, 2, 2}, "raw", "space: left-anterior-superior\n" + geometry));
    EXPECT_EQ(las.geometry.origin, glm::dvec3(10, -20, 30));
    EXPECT_EQ(las.geometry.direction[1], glm::dvec3(0, -1, 0));

    const NrrdHeader scanner =
        parseNrrdHeader(header("uchar", {2, 2, 2}, "raw", "space: scanner-xyz\n" + geometry));
    EXPECT_EQ(scanner.geometry.origin, glm::dvec3(10, 20, 30));
    ASSERT_EQ(scanner.warnings.size(), 1u);
    EXPECT_TRUE(contains(scanner.warnings[0], "not a patient space"));
}

TEST(NrrdHeader, SpacingsWithoutDirectionsAndNegativeSpacing)
{
    const NrrdHeader h =
        parseNrrdHeader(header("uchar", {2, 2, 2}, "raw", "spacings: 0.5 -2 3e0\n"));
    EXPECT_EQ(h.geometry.spacing, glm::dvec3(0.5, 2, 3));
    EXPECT_EQ(h.geometry.direction[1], glm::dvec3(0, -1, 0)); // the negative spacing flips y
    EXPECT_EQ(h.geometry.origin, glm::dvec3(0));
}

TEST(NrrdHeader, FourDimensionsWithALeadingAxisOfSizeOne)
{
    const NrrdHeader h = parseNrrdHeader(
        "NRRD0004\ntype: float\ndimension: 4\nsizes: 1 4 5 6\nendian: little\nencoding: raw\n"
        "space: LPS\nspace directions: none (2,0,0) (0,2,0) (0,0,2)\nspacings: nan 2 2 2\n\n");
    EXPECT_EQ(h.dims, glm::uvec3(4, 5, 6));
    EXPECT_EQ(h.geometry.spacing, glm::dvec3(2.0));
    EXPECT_EQ(h.warnings.size(), 1u); // spacings ignored beside space directions
}

TEST(NrrdHeader, DataFileForms)
{
    const std::string base = "NRRD0004\ntype: uchar\ndimension: 3\nsizes: 2 2 3\nencoding: raw\n";
    const NrrdHeader single = parseNrrdHeader(base + "data file: my data.raw\n");
    EXPECT_EQ(single.dataFiles, std::vector<std::string>{"my data.raw"});
    EXPECT_EQ(single.dataFileAxes, 3u);
    EXPECT_FALSE(single.endsWithEmptyLine);

    const NrrdHeader list = parseNrrdHeader(base + "data file: LIST\na.raw\nb.raw\nc.raw\n");
    EXPECT_EQ(list.dataFiles, (std::vector<std::string>{"a.raw", "b.raw", "c.raw"}));
    EXPECT_EQ(list.dataFileAxes, 2u);

    const NrrdHeader pattern = parseNrrdHeader(base + "data file: s%03d.raw 8 12 2\n");
    EXPECT_EQ(pattern.dataFiles, (std::vector<std::string>{"s008.raw", "s010.raw", "s012.raw"}));

    const NrrdHeader down = parseNrrdHeader(base + "data file: %d%%.raw 3 1 -1 2\n");
    EXPECT_EQ(down.dataFiles, (std::vector<std::string>{"3%.raw", "2%.raw", "1%.raw"}));

    EXPECT_TRUE(contains(parseError(base + "data file: LIST\na.raw\nb.raw\n"), "2 files named"));
    EXPECT_TRUE(contains(parseError(base + "data file: s%s.raw 1 3 1\n"), "%d, %i or %u"));
    EXPECT_TRUE(contains(parseError(base + "data file: s%d%d.raw 1 3 1\n"), "more than one"));
    EXPECT_TRUE(contains(parseError(base + "data file: s%d.raw 1 3 0\n"), "step of 0"));
    EXPECT_TRUE(contains(parseError(base + "data file: s%d.raw 1 3 -1\n"), "never reaches"));
    EXPECT_TRUE(
        contains(parseError(base + "data file: s%d.raw 1 9999999999 1\n"), "at most 100000"));
}

struct BadHeader {
    const char* name;
    std::string text;
    const char* expected; // part of the message
};

TEST(NrrdHeader, MalformedHeadersAreClearErrors)
{
    const std::string ok = "NRRD0004\ntype: short\ndimension: 3\nsizes: 2 2 2\n"
                           "endian: little\nencoding: raw\n";
    const BadHeader cases[] = {
        {"empty", "", "it is empty"},
        {"garbage", "hello world\x01\x02\n", "not a NRRD file: it starts with 'hello world\\x01"},
        {"future magic", "NRRD0009\n", "unsupported NRRD magic 'NRRD0009'"},
        {"CR line ends", "NRRD0004\rtype: uchar\rdimension: 3\r",
         "lines end in a carriage return alone"},
        {"colour axis",
         "NRRD0004\ntype: uchar\ndimension: 3\nsizes: 3 16 16\nkinds: RGB-color domain "
         "domain\nencoding: raw\n",
         "axis 0 is 'RGB-color', not space: the file holds colour components"},
        {"kinds count", ok + "kinds: domain domain\n", "has 2 values, but dimension is 3"},
        {"not a field", ok + "this line has no colon\n", "line 7 'this line has no colon'"},
        {"unknown type", header("uint12", {2, 2, 2}, "raw"), "unknown type 'uint12'"},
        {"64-bit type", header("int64", {2, 2, 2}, "raw"), "'int64' is not supported"},
        {"block type", header("block", {2, 2, 2}, "raw"), "'block' is not supported"},
        {"unknown encoding", header("short", {2, 2, 2}, "lzma"), "unknown encoding 'lzma'"},
        {"bzip2", header("short", {2, 2, 2}, "bzip2"), "'bzip2' is not supported"},
        {"ascii", header("short", {2, 2, 2}, "ascii"), "'ascii' is not supported"},
        {"no type", "NRRD0004\ndimension: 3\nsizes: 2 2 2\nencoding: raw\n", "'type:'"},
        {"no sizes", "NRRD0004\ntype: uchar\ndimension: 3\nencoding: raw\n", "'sizes:'"},
        {"no encoding", "NRRD0004\ntype: uchar\ndimension: 3\nsizes: 1 1 1\n", "'encoding:'"},
        {"no endian", "NRRD0004\ntype: short\ndimension: 3\nsizes: 1 1 1\nencoding: raw\n",
         "'endian:' is missing; it is required for int16"},
        {"second endian", ok + "endian: big\n", "'endian:' appears twice"},
        {"dimension 2", "NRRD0004\ntype: uchar\ndimension: 2\nsizes: 4 4\nencoding: raw\n",
         "2-D data"},
        {"dimension 4", "NRRD0004\ntype: uchar\ndimension: 4\nsizes: 3 4 4 4\nencoding: raw\n",
         "first axis has size 1"},
        {"sizes count", "NRRD0004\ntype: uchar\ndimension: 3\nsizes: 4 4\nencoding: raw\n",
         "has 2 values, but dimension is 3"},
        {"zero size", header("uchar", {2, 0, 2}, "raw"), "'0' is not a whole number from 1"},
        {"size too big",
         "NRRD0004\ntype: uchar\ndimension: 3\nsizes: 4294967296 1 1\n"
         "encoding: raw\n",
         "'4294967296'"},
        {"negative size", "NRRD0004\ntype: uchar\ndimension: 3\nsizes: -4 1 1\nencoding: raw\n",
         "'-4'"},
        {"overflow", header("double", {4294967295u, 4294967295u, 4294967295u}, "raw"),
         "needs more than 2^64 bytes"},
        {"duplicate", ok + "type: short\n", "'type:' appears twice (lines 2 and 7)"},
        {"byte skip", ok + "byte skip: -2\n", "byte skip: '-2'"},
        {"byte skip -1 gzip", header("short", {2, 2, 2}, "gzip", "byte skip: -1\n"),
         "works only with raw"},
        {"line skip", ok + "line skip: x\n", "line skip: 'x'"},
        {"bad vector", ok + "space: LPS\nspace directions: (1,0) (0,1,0) (0,0,1)\n",
         "axis 0 needs a vector of 3 numbers"},
        {"vector text", ok + "space: LPS\nspace directions: (1,a,0) (0,1,0) (0,0,1)\n",
         "'a' in '(1,a,0)' is not a number"},
        {"unclosed", ok + "space: LPS\nspace directions: (1,0,0 (0,1,0) (0,0,1)\n",
         "no closing parenthesis"},
        {"zero vector", ok + "space: LPS\nspace directions: (0,0,0) (0,1,0) (0,0,1)\n",
         "axis 0 has no usable length"},
        {"parallel", ok + "space: LPS\nspace directions: (1,0,0) (2,0,0) (0,0,1)\n",
         "(nearly) parallel"},
        {"directions count", ok + "space: LPS\nspace directions: (1,0,0) (0,1,0)\n",
         "has 2 entries, but dimension is 3"},
        {"no space", ok + "space directions: (1,0,0) (0,1,0) (0,0,1)\n",
         "needs a 'space:' or 'space dimension:'"},
        {"unknown space", ok + "space: up-down-strange\n", "unknown space 'up-down-strange'"},
        {"time space", ok + "space: right-anterior-superior-time\n", "has a time axis"},
        {"origin", ok + "space: LPS\nspace origin: (1,2)\n", "is not 3 finite numbers"},
        {"infinite origin", ok + "space: LPS\nspace origin: (1,2,inf)\n",
         "is not 3 finite numbers"},
        {"zero spacing", ok + "spacings: 1 0 1\n", "'0' on axis 1 is not a non-zero number"},
        {"nan spacing", ok + "spacings: 1 nan 1\n", "'nan' on axis 1"},
        {"both space fields", ok + "space: LPS\nspace dimension: 3\n", "one or the other"},
        {"space dimension 2", ok + "space dimension: 2\n", "isoview reads 3-D spaces"},
        {"data file empty", ok + "data file: \n", "no file name given"},
    };
    for (const BadHeader& c : cases) {
        const std::string message = parseError(c.text);
        EXPECT_TRUE(contains(message, c.expected))
            << c.name << ": '" << message << "' lacks '" << c.expected << "'";
    }
    const std::string middle = "NRRD0004\ntype: short\ndimension: 3\nsizes: 2 2 2\n"
                               "endian: middle\nencoding: raw\n";
    EXPECT_TRUE(contains(parseError(middle), "endian: 'middle' is neither little nor big"));
}

TEST(NrrdHeader, UnknownFieldsAreIgnoredWithAWarning)
{
    const NrrdHeader h = parseNrrdHeader(
        header("uchar", {1, 1, 1}, "raw", "colour: blue\nunits: \"mm\" \"mm\" \"mm\"\n"));
    ASSERT_EQ(h.warnings.size(), 1u);
    EXPECT_TRUE(contains(h.warnings[0], "unknown NRRD field on line 8 'colour: blue'"));
}

// --- Reading files -------------------------------------------------------------------------

TEST(NrrdReader, AttachedRawLittleAndBigEndian)
{
    TempDir dir;
    writeFile(dir.path() / "le.nrrd", header("short", {3, 2, 2}, "raw") + int16Ramp());
    expectRamp(readNrrd(dir.path() / "le.nrrd"));

    std::string big = header("short", {3, 2, 2}, "raw");
    big.replace(big.find("little"), 6, "big");
    writeFile(dir.path() / "be.nrrd", big + int16Ramp(true));
    const Volume volume = readNrrd(dir.path() / "be.nrrd");
    expectRamp(volume);
    EXPECT_EQ(volume.metadata().sourceFormat, "NRRD");
    EXPECT_TRUE(volume.metadata().warnings.empty());
}

TEST(NrrdReader, LineSkipByteSkipAndDataAtTheEnd)
{
    TempDir dir;
    writeFile(dir.path() / "skip.nrrd",
              header("short", {3, 2, 2}, "raw", "line skip: 2\nbyte skip: 3\n") +
                  "first line\nsecond\nXYZ" + int16Ramp());
    expectRamp(readNrrd(dir.path() / "skip.nrrd"));

    writeFile(dir.path() / "end.nrrd",
              header("short", {3, 2, 2}, "raw", "byte skip: -1\n") + "junk before" + int16Ramp());
    expectRamp(readNrrd(dir.path() / "end.nrrd"));
}

TEST(NrrdReader, AttachedGzipAndZlib)
{
    TempDir dir;
    writeFile(dir.path() / "gz.nrrd",
              header("short", {3, 2, 2}, "gzip") + test::deflateBytes(int16Ramp(), true));
    expectRamp(readNrrd(dir.path() / "gz.nrrd"));
    writeFile(dir.path() / "zlib.nrrd",
              header("short", {3, 2, 2}, "gz") + test::deflateBytes(int16Ramp(), false));
    expectRamp(readNrrd(dir.path() / "zlib.nrrd"));

    // With gzip, byte skip counts decompressed bytes; line skip counts lines before the stream.
    writeFile(dir.path() / "skip.nrrd",
              header("short", {3, 2, 2}, "gzip", "byte skip: 5\nline skip: 1\n") + "text\n" +
                  test::deflateBytes("12345" + int16Ramp(), true));
    expectRamp(readNrrd(dir.path() / "skip.nrrd"));

    // Two concatenated gzip members (as `cat a.gz b.gz` makes) are one stream of data.
    const std::string ramp = int16Ramp();
    writeFile(dir.path() / "members.nrrd", header("short", {3, 2, 2}, "gzip") +
                                               test::deflateBytes(ramp.substr(0, 10), true) +
                                               test::deflateBytes(ramp.substr(10), true));
    expectRamp(readNrrd(dir.path() / "members.nrrd"));
}

TEST(NrrdReader, BrokenGzipDataAreClearErrors)
{
    TempDir dir;
    const fs::path path = dir.path() / "bad.nrrd";
    const std::string compressed = test::deflateBytes(int16Ramp(), true);

    const std::string head = header("short", {3, 2, 2}, "gzip");
    writeFile(path, head + compressed.substr(0, compressed.size() / 2));
    std::string message = messageOf([&] { readNrrd(path); });
    EXPECT_TRUE(contains(message, "end early")) << message;
    EXPECT_TRUE(contains(message, "of the 24 bytes")) << message;
    EXPECT_THROW(readNrrd(path), IoError);

    // Header says fewer voxels than the stream holds.
    writeFile(path, header("short", {3, 2, 1}, "gzip") + compressed);
    message = messageOf([&] { readNrrd(path); });
    EXPECT_TRUE(contains(message, "decompress to more than the 12 bytes")) << message;

    // Header says more voxels than the stream holds.
    writeFile(path, header("short", {3, 2, 3}, "gzip") + compressed);
    message = messageOf([&] { readNrrd(path); });
    EXPECT_TRUE(contains(message, "decompress to 24 of the 36 bytes")) << message;

    // Corrupt deflate data (the CRC or the codes fail).
    std::string corrupt = compressed;
    for (std::size_t i = 12; i < corrupt.size() - 8; ++i)
        corrupt[i] = char(corrupt[i] ^ 0x5a);
    writeFile(path, header("short", {3, 2, 2}, "gzip") + corrupt);
    message = messageOf([&] { readNrrd(path); });
    EXPECT_TRUE(contains(message, "corrupt (zlib:")) << message;

    // Not compressed at all.
    writeFile(path, header("short", {3, 2, 2}, "gzip") + int16Ramp());
    EXPECT_THROW(readNrrd(path), IoError);
}

TEST(NrrdReader, TruncatedOrOversizedRawData)
{
    TempDir dir;
    const fs::path path = dir.path() / "short.nrrd";
    const std::string head = header("short", {3, 2, 2}, "raw");
    writeFile(path, head + int16Ramp().substr(0, 23));
    const std::string message = messageOf([&] { readNrrd(path); });
    EXPECT_TRUE(contains(message, path.string())) << message;
    EXPECT_TRUE(contains(message, "holds 23 bytes after its first " + std::to_string(head.size()) +
                                      " bytes"))
        << message;
    EXPECT_TRUE(contains(message, "need exactly 24")) << message;
    EXPECT_THROW(readNrrd(path), IoError);

    writeFile(path, head + int16Ramp() + "extra");
    const Volume volume = readNrrd(path);
    expectRamp(volume);
    ASSERT_EQ(volume.metadata().warnings.size(), 1u);
    EXPECT_TRUE(contains(volume.metadata().warnings[0], "ignored 5 bytes after the 24 bytes"));
}

TEST(NrrdReader, EmptyFileGarbageAndMissingFile)
{
    TempDir dir;
    writeFile(dir.path() / "empty.nrrd", "");
    std::string message = messageOf([&] { readNrrd(dir.path() / "empty.nrrd"); });
    EXPECT_TRUE(contains(message, "the file is empty")) << message;
    EXPECT_THROW(readNrrd(dir.path() / "empty.nrrd"), IoError);

    writeFile(dir.path() / "garbage.nrrd", std::string("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16));
    message = messageOf([&] { readNrrd(dir.path() / "garbage.nrrd"); });
    EXPECT_TRUE(contains(message, "not a NRRD file")) << message;
    EXPECT_TRUE(contains(message, (dir.path() / "garbage.nrrd").string())) << message;
    EXPECT_THROW(readNrrd(dir.path() / "garbage.nrrd"), InvalidInputError);

    message = messageOf([&] { readNrrd(dir.path() / "absent.nrrd"); });
    EXPECT_TRUE(contains(message, "cannot open NRRD")) << message;
    EXPECT_TRUE(contains(message, "No such file or directory")) << message;

    // A header without the empty line has no attached data.
    writeFile(dir.path() / "headless.nrrd", header("uchar", {1, 1, 1}, "raw").substr(0, 70));
    EXPECT_THROW(readNrrd(dir.path() / "headless.nrrd"), Error);
}

TEST(NrrdReader, HugeSizesAreRejectedBeforeAllocating)
{
    // 10^15 voxels: allocating first would throw std::bad_alloc (or abort under ASan) instead
    // of the errors checked here.
    TempDir dir;
    const fs::path raw = dir.path() / "huge.nrrd";
    writeFile(raw, header("uchar", {100000, 100000, 100000}, "raw") + "tiny");
    std::string message = messageOf([&] { readNrrd(raw); });
    EXPECT_TRUE(contains(message, "1000000000000000 bytes")) << message;
    EXPECT_TRUE(contains(message, "memory")) << message;
    EXPECT_THROW(readNrrd(raw), InvalidInputError);

    const fs::path gz = dir.path() / "huge_gzip.nrrd";
    writeFile(gz,
              header("uchar", {100000, 100000, 100000}, "gzip") + test::deflateBytes("tiny", true));
    EXPECT_THROW(readNrrd(gz), InvalidInputError);

    // 1 GB fits in memory, but 24 bytes of gzip cannot expand to it: refused before the
    // gigabyte is allocated.
    const fs::path plausible = dir.path() / "gigabyte.nrrd";
    writeFile(plausible,
              header("uchar", {1000, 1000, 1000}, "gzip") + test::deflateBytes("tiny", true));
    message = messageOf([&] { readNrrd(plausible); });
    EXPECT_TRUE(contains(message, "cannot decompress to the 1000000000 bytes")) << message;

    // The same gigabyte as raw data: the file is far too short, refused before allocating.
    writeFile(plausible, header("uchar", {1000, 1000, 1000}, "raw") + "tiny");
    message = messageOf([&] { readNrrd(plausible); });
    EXPECT_TRUE(contains(message, "holds 4 bytes")) << message;
    EXPECT_TRUE(contains(message, "need exactly 1000000000")) << message;
    EXPECT_THROW(readNrrd(plausible), IoError);
}

TEST(NrrdReader, DetachedHeaderWithOneFileAListAndAPattern)
{
    TempDir dir;
    const std::string ramp = int16Ramp();
    const std::string base = "NRRD0004\ntype: short\ndimension: 3\nsizes: 3 2 2\n"
                             "endian: little\n";
    writeFile(dir.path() / "data.raw", ramp);
    writeFile(dir.path() / "one.nhdr", base + "encoding: raw\ndata file: ./data.raw\n");
    expectRamp(readNrrd(dir.path() / "one.nhdr"));

    fs::create_directory(dir.path() / "sub");
    writeFile(dir.path() / "sub" / "a.gz", test::deflateBytes(ramp.substr(0, 12), true));
    writeFile(dir.path() / "sub" / "b.gz", test::deflateBytes(ramp.substr(12), true));
    writeFile(dir.path() / "list.nhdr",
              base + "encoding: gzip\ndata file: LIST\nsub/a.gz\nsub/b.gz\n");
    expectRamp(readNrrd(dir.path() / "list.nhdr"));

    writeFile(dir.path() / "slice01.raw", ramp.substr(0, 12));
    writeFile(dir.path() / "slice02.raw", ramp.substr(12));
    writeFile(dir.path() / "pattern.nhdr",
              base + "encoding: raw\ndata file: slice%02d.raw 1 2 1 2\n");
    expectRamp(readNrrd(dir.path() / "pattern.nhdr"));

    // An absolute data file path works from anywhere.
    writeFile(dir.path() / "absolute.nhdr",
              base + "encoding: raw\ndata file: " + (dir.path() / "data.raw").string() + "\n");
    expectRamp(readNrrd(dir.path() / "absolute.nhdr"));
}

TEST(NrrdReader, MissingOrShortDataFileIsNamed)
{
    TempDir dir;
    const std::string base = "NRRD0004\ntype: short\ndimension: 3\nsizes: 3 2 2\n"
                             "endian: little\nencoding: raw\n";
    writeFile(dir.path() / "missing.nhdr", base + "data file: gone.raw\n");
    std::string message = messageOf([&] { readNrrd(dir.path() / "missing.nhdr"); });
    EXPECT_TRUE(
        contains(message, "cannot open data file '" + (dir.path() / "gone.raw").string() + "'"))
        << message;
    EXPECT_TRUE(contains(message, "No such file or directory")) << message;
    EXPECT_THROW(readNrrd(dir.path() / "missing.nhdr"), IoError);

    writeFile(dir.path() / "a.raw", int16Ramp().substr(0, 12));
    writeFile(dir.path() / "b.raw", int16Ramp().substr(0, 11));
    writeFile(dir.path() / "list.nhdr", base + "data file: LIST\na.raw\nb.raw\n");
    message = messageOf([&] { readNrrd(dir.path() / "list.nhdr"); });
    EXPECT_TRUE(
        contains(message, "data file '" + (dir.path() / "b.raw").string() + "' holds 11 bytes"))
        << message;
    EXPECT_TRUE(contains(message, "share of 2 files")) << message;
}

TEST(NrrdReader, ReportsProgressAndCancels)
{
    TempDir dir;
    const fs::path path = dir.path() / "big.nrrd";
    // 128 x 128 x 96 int16 = 3 MiB: several progress steps.
    const std::string voxels(std::size_t(128) * 128 * 96 * 2, '\x01');
    writeFile(path, header("short", {128, 128, 96}, "raw") + voxels);
    test::RecordingMonitor progress;
    EXPECT_EQ(readNrrd(path, &progress).valueAt(0), 257.0f);
    ASSERT_GE(progress.calls.size(), 4u);
    EXPECT_EQ(progress.calls.back().done, voxels.size());
    EXPECT_EQ(progress.calls.back().total, voxels.size());

    test::RecordingMonitor cancel(3);
    EXPECT_THROW(readNrrd(path, &cancel), CancelledError);
    EXPECT_EQ(cancel.calls.size(), 3u);

    const fs::path gz = dir.path() / "big_gzip.nrrd";
    writeFile(gz, header("short", {128, 128, 96}, "gzip") + test::deflateBytes(voxels, true));
    test::RecordingMonitor cancelGzip(3);
    EXPECT_THROW(readNrrd(gz, &cancelGzip), CancelledError);
    EXPECT_EQ(cancelGzip.calls.back().stage, "decompressing voxels");
}

// --- The shared real volume (see the data README) -------------------------------------------

TEST(NrrdReader, Brain1ImageFromPyradiomics)
{
    const fs::path path = fs::path(test::kSharedDataDir) / "nrrd" / "brain1_image.nrrd";
    ASSERT_TRUE(fs::exists(path)) << path << " is missing; set ISOVIEW_SHARED_DATA_DIR";
    const Volume volume = readNrrd(path);
    EXPECT_EQ(volume.dims(), glm::uvec3(256, 256, 25));
    EXPECT_EQ(volume.type(), ScalarType::Int16);
    EXPECT_EQ(volume.storedRange().min, 0.0);
    EXPECT_EQ(volume.storedRange().max, 3057.0);
    double sum = 0.0;
    for (std::size_t i = 0; i < volume.voxelCount(); ++i)
        sum += volume.valueAt(i);
    EXPECT_NEAR(sum / double(volume.voxelCount()), 385.7, 0.05);

    const VolumeGeometry& g = volume.geometry();
    EXPECT_NEAR(g.spacing.x, 0.78125, 1e-9);
    EXPECT_NEAR(g.spacing.y, 0.78125, 1e-9);
    EXPECT_NEAR(g.spacing.z, 6.5, 1e-9);
    EXPECT_EQ(g.direction[0], glm::dvec3(1, 0, 0));
    EXPECT_EQ(g.direction[1], glm::dvec3(0, -1, 0)); // the negative Y direction
    EXPECT_EQ(g.direction[2], glm::dvec3(0, 0, 1));
    EXPECT_NEAR(g.origin.x, -99.609, 1e-3);
    EXPECT_NEAR(g.origin.y, 99.609, 1e-3);
    EXPECT_NEAR(g.origin.z, -78.0, 1e-9);
    EXPECT_TRUE(g.isMirrored());
    // Voxel (0, 255, 0) lies 255 * 0.78125 mm towards anterior (-y in LPS) of the origin.
    EXPECT_NEAR(g.toPhysical({0, 255, 0}).y, 99.609375 - 255 * 0.78125, 1e-6);
    EXPECT_EQ(volume.metadata().sourceFormat, "NRRD");
    EXPECT_TRUE(volume.metadata().warnings.empty());
}

// The bundled sample's detached header (what the viewer opens by default): the raw voxels with
// their real 2 mm spacing and oblique LPS orientation, marked as patient space so the viewer
// names its views anatomically. A header in a non-patient space is not marked.
TEST(NrrdReader, BundledSampleHeaderIsInPatientSpace)
{
    const fs::path path = fs::path(test::kSourceDir) / "resources" / "samples" / "mr_head.nhdr";
    const Volume volume = readNrrd(path);
    EXPECT_EQ(volume.dims(), glm::uvec3(128, 128, 85));
    EXPECT_NEAR(volume.geometry().spacing.x, 2.0, 1e-5);
    EXPECT_NEAR(volume.geometry().spacing.z, 2.0, 1e-5);
    EXPECT_TRUE(volume.metadata().patientSpace);
    EXPECT_FALSE(volume.geometry().isMirrored());

    test::TempDir dir;
    writeFile(dir.path() / "v.nhdr", "NRRD0004\ntype: uint8\ndimension: 3\nspace: "
                                     "scanner-xyz\nsizes: 2 2 2\nspace directions: (1,0,0) "
                                     "(0,1,0) (0,0,1)\nencoding: raw\ndata file: v.raw\n");
    writeFile(dir.path() / "v.raw", std::string(8, '\x01'));
    EXPECT_FALSE(readNrrd(dir.path() / "v.nhdr").metadata().patientSpace);
}

} // namespace
} // namespace isoview::io
