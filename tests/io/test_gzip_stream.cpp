// The one gzip/zlib decoder of the loaders, on its own: zlib and gzip streams, several gzip
// members, a stream inside a larger file, and how it stops: at the end (with the bytes after
// it counted), cut short, or at damage (a wrong check value among it), named in the error.
#include "io/gzip_stream.h"
#include "io/read_only_file.h"
#include "io_test_support.h"
#include "support/temp_dir.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <optional>
#include <string>

namespace isoview {
namespace {

using io::detail::GzipStream;
using io::detail::ReadOnlyFile;
using test::contains;
using test::deflateBytes;
using test::messageOf;
using test::TempDir;
using test::writeFile;

// Bytes that compress well but not to nothing: a counter in text.
std::string sampleBytes(std::size_t count)
{
    std::string text;
    for (std::size_t n = 0; text.size() < count; ++n)
        text += std::to_string(n * 7919 % 10007) + ",";
    return text.substr(0, count);
}

// bytes in a file of a temporary folder, opened as the loaders open theirs.
class TestFile {
public:
    explicit TestFile(const std::string& bytes)
    {
        writeFile(m_dir.path() / "data.gz", bytes);
        m_file.emplace(m_dir.path() / "data.gz", "cannot read test 'data.gz': ", "the file");
    }
    ReadOnlyFile& file() { return *m_file; }

private:
    TempDir m_dir;
    std::optional<ReadOnlyFile> m_file;
};

// Reads everything in pieces of `piece` bytes until the stream stops.
std::string readAll(GzipStream& stream, std::size_t piece)
{
    std::string out;
    std::string buffer(piece, '\0');
    while (std::size_t got = stream.read(buffer.data(), buffer.size()))
        out.append(buffer, 0, got);
    return out;
}

TEST(GzipStream, DecodesZlibGzipAndGzipMembersAsOneStream)
{
    const std::string data = sampleBytes(300000);
    for (const std::string& bytes :
         {deflateBytes(data, false), deflateBytes(data, true),
          deflateBytes(data.substr(0, 1000), true) + deflateBytes(data.substr(1000), true)}) {
        TestFile file(bytes);
        GzipStream stream(file.file(), 0, bytes.size());
        EXPECT_EQ(readAll(stream, 65536), data);
        EXPECT_EQ(stream.state(), GzipStream::State::Ended);
        EXPECT_EQ(stream.position(), data.size());
        EXPECT_EQ(stream.trailingBytes(), 0u);
    }
}

TEST(GzipStream, ReadsOnlyItsRangeAndCountsTheBytesAfterTheStream)
{
    const std::string data = sampleBytes(5000);
    const std::string compressed = deflateBytes(data, true);
    const std::string bytes = "HEADER" + compressed + "junk" + "outside the range";
    TestFile file(bytes);
    GzipStream stream(file.file(), 6, compressed.size() + 4);
    EXPECT_EQ(readAll(stream, 777), data);
    EXPECT_EQ(stream.state(), GzipStream::State::Ended);
    EXPECT_EQ(stream.trailingBytes(), 4u);
}

TEST(GzipStream, AStreamCutShortIsTruncatedAndKeepsWhatDecoded)
{
    const std::string data = sampleBytes(200000);
    const std::string compressed = deflateBytes(data, true);
    TestFile file(compressed.substr(0, compressed.size() / 2));
    GzipStream stream(file.file(), 0, compressed.size() / 2);
    const std::string got = readAll(stream, 4096);
    EXPECT_EQ(stream.state(), GzipStream::State::Truncated);
    EXPECT_GT(got.size(), 0u);
    EXPECT_LT(got.size(), data.size());
    EXPECT_EQ(got, data.substr(0, got.size()));
    EXPECT_EQ(stream.position(), got.size());
    EXPECT_EQ(messageOf([&] { stream.throwIfCorrupt(); }), "(no exception)");
}

TEST(GzipStream, AWrongCheckValueIsCorruptDataAfterTheBytesItCovers)
{
    const std::string data = sampleBytes(100000);
    std::string compressed = deflateBytes(data, true);
    compressed[compressed.size() - 6] = char(compressed[compressed.size() - 6] ^ 0x01); // CRC-32
    TestFile file(compressed);
    GzipStream stream(file.file(), 0, compressed.size());
    std::string all(data.size() + 1, '\0');
    EXPECT_EQ(stream.read(all.data(), all.size()), data.size());
    EXPECT_EQ(stream.state(), GzipStream::State::Corrupt);
    EXPECT_EQ(messageOf([&] { stream.throwIfCorrupt(); }),
              "cannot read test 'data.gz': the compressed data in the file are corrupt (zlib: "
              "incorrect data check) after 100000 decompressed bytes");
}

TEST(GzipStream, ReadInMemberLeavesTheNextMemberUndecoded)
{
    const std::string data = sampleBytes(3000);
    const std::string bytes = deflateBytes(data, true) + "\x1f\x8b" + std::string(10, '\0');
    TestFile file(bytes);
    GzipStream stream(file.file(), 0, bytes.size());
    std::string buffer(8000, '\0');
    EXPECT_EQ(stream.readInMember(buffer.data(), buffer.size()), data.size());
    EXPECT_EQ(stream.state(), GzipStream::State::Decoding);
    EXPECT_EQ(stream.readInMember(buffer.data(), buffer.size()), 0u);
    // read() goes on into the next member, whose header is damaged.
    EXPECT_EQ(stream.read(buffer.data(), buffer.size()), 0u);
    EXPECT_TRUE(contains(messageOf([&] { stream.throwIfCorrupt(); }),
                         "are corrupt (zlib: unknown compression method) after 3000 "
                         "decompressed bytes"));
}

} // namespace
} // namespace isoview
