// Inputs that must never block or flood memory: FIFOs and devices wherever a path is read (the
// volume, a detached data file, a DICOM folder's entries), gzip streams cut short, and the
// protection a loaded volume gives the files it was read from against being overwritten.
#include "core/atomic_file.h"
#include "core/error.h"
#include "io/volume_loader.h"
#include "io_test_support.h"
#include "support/child_process.h"
#include "support/temp_dir.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <optional>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

namespace isoview {
namespace {

namespace fs = std::filesystem;
using test::ChildResult;
using test::contains;
using test::deflateBytes;
using test::messageOf;
using test::runInChild;
using test::TempDir;
using test::writeFile;

// Loading runs in a child with an alarm: a read that blocks on the FIFO ends the child by
// SIGALRM instead of hanging the test runner.
ChildResult loadWithin(const fs::path& path, unsigned seconds)
{
    return runInChild([&](std::string& message) {
        ::alarm(seconds);
        message = messageOf([&] { io::loadVolume(path); });
        return 0;
    });
}

void expectRefusedAsFifo(const fs::path& path, const std::string& named)
{
    const ChildResult child = loadWithin(path, 10);
    ASSERT_TRUE(child.exited) << path << ": blocked (killed by signal " << child.signal << ")";
    EXPECT_TRUE(contains(child.message, "is a FIFO (named pipe), not a regular file"))
        << child.message;
    EXPECT_TRUE(contains(child.message, named)) << child.message;
}

TEST(InputSafety, AFifoAsTheVolumeIsRefusedWithoutBlockingWhateverItsName)
{
    TempDir dir;
    for (const char* name : {"a.nrrd", "a.nhdr", "a.mhd", "a.mha", "a_2x2x2_uint8.raw", "noext"}) {
        const fs::path fifo = dir.path() / name;
        ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
        expectRefusedAsFifo(fifo, name);
    }
}

TEST(InputSafety, AFifoAsADetachedDataFileIsRefusedWithoutBlocking)
{
    TempDir dir;
    ASSERT_EQ(::mkfifo((dir.path() / "data.raw").c_str(), 0600), 0);
    writeFile(dir.path() / "a.nhdr", "NRRD0004\ntype: uchar\ndimension: 3\nsizes: 2 2 2\n"
                                     "encoding: raw\ndata file: data.raw\n\n");
    writeFile(dir.path() / "a.mhd", "ObjectType = Image\nNDims = 3\nDimSize = 2 2 2\n"
                                    "ElementType = MET_UCHAR\nElementDataFile = data.raw\n");
    expectRefusedAsFifo(dir.path() / "a.nhdr", "data.raw");
    expectRefusedAsFifo(dir.path() / "a.mhd", "data.raw");
}

TEST(InputSafety, AFifoInADicomFolderDoesNotBlockTheScan)
{
    TempDir dir;
    ASSERT_EQ(::mkfifo((dir.path() / "IM0001").c_str(), 0600), 0);
    const ChildResult child = loadWithin(dir.path(), 10);
    ASSERT_TRUE(child.exited) << "blocked (killed by signal " << child.signal << ")";
    EXPECT_FALSE(contains(child.message, "(no exception)")) << child.message;
}

TEST(InputSafety, ADeviceAsTheVolumeIsRefused)
{
    const std::string message = messageOf([] { io::loadVolume("/dev/zero"); });
    EXPECT_TRUE(contains(message, "is a character device")) << message;
}

// Every file a volume was read from (header and data file) is protected while the volume, or
// a copy of it, lives.
TEST(InputSafety, ALoadedVolumeProtectsEveryFileItWasReadFrom)
{
    TempDir dir;
    const fs::path header = dir.path() / "head.nhdr";
    const fs::path data = dir.path() / "head.raw";
    writeFile(header, "NRRD0004\ntype: uchar\ndimension: 3\nsizes: 2 2 2\nencoding: raw\n"
                      "data file: head.raw\n\n");
    writeFile(data, std::string(8, '\x07'));
    std::optional<Volume> copy;
    {
        const Volume volume = io::loadVolume(header);
        copy = volume;
    }
    for (const fs::path& path : {header, data}) {
        const std::string message = messageOf([&] { AtomicFileWriter writer(path); });
        EXPECT_TRUE(contains(message, "a file the open volume was read from")) << message;
    }
    EXPECT_EQ(test::readFile(data), std::string(8, '\x07'));
    copy.reset();
    EXPECT_EQ(messageOf([&] { AtomicFileWriter writer(data); }), "(no exception)");
}

// A /proc/self/status figure in bytes: "VmHWM" (the peak resident size since the last reset)
// or "VmRSS" (the resident size now).
std::uint64_t statusBytes(const std::string& key)
{
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line)) {
        if (line.rfind(key + ":", 0) == 0) return std::stoull(line.substr(key.size() + 1)) * 1024;
    }
    return 0;
}

// Makes VmHWM start again from the current resident size (Linux 4.0 and later).
void resetPeakResident()
{
    std::ofstream clear("/proc/self/clear_refs");
    clear << "5";
    clear.flush();
    ASSERT_TRUE(clear.good()) << "cannot reset the peak resident size (/proc/self/clear_refs)";
}

constexpr std::uint64_t kClaimedBytes = 128ull * 1024 * 1024; // 512x512x512 uint8

// Mostly zeros with a pseudo-random byte every 61: it compresses about 40:1, within what
// deflate can expand, so the loader's size plausibility check lets it through to decoding.
std::string sparseNoise(std::size_t n)
{
    std::string bytes(n, '\0');
    std::uint32_t state = 12345;
    for (std::size_t i = 0; i < n; i += 61) {
        state = state * 1664525u + 1013904223u;
        bytes[i] = char(state >> 24);
    }
    return bytes;
}

// A compressed volume that claims 128 MiB and is cut after 60% of its stream. The peak memory
// of the failed load is measured in a child, so nothing else in this process counts.
std::uint64_t peakGrowthOfTruncatedLoad(const std::string& format, std::string& message)
{
    TempDir dir;
    const std::string stream = deflateBytes(sparseNoise(kClaimedBytes), format == "nrrd");
    const std::string cut = stream.substr(0, stream.size() * 6 / 10);
    fs::path path;
    if (format == "nrrd") {
        path = dir.path() / "bomb.nrrd";
        writeFile(path, "NRRD0004\ntype: uchar\ndimension: 3\nsizes: 512 512 512\n"
                        "encoding: gzip\n\n" +
                            cut);
    } else {
        path = dir.path() / "bomb.mha";
        writeFile(path, "ObjectType = Image\nNDims = 3\nDimSize = 512 512 512\n"
                        "ElementType = MET_UCHAR\nCompressedData = True\n"
                        "ElementDataFile = LOCAL\n" +
                            cut);
    }
    std::uint64_t growth = 0;
    const ChildResult child = runInChild([&](std::string& text) {
        resetPeakResident();
        const std::uint64_t before = statusBytes("VmRSS");
        text = messageOf([&] { io::loadVolume(path); });
        growth = statusBytes("VmHWM") - before;
        text += "\npeak growth " + std::to_string(growth);
        return 0;
    });
    EXPECT_TRUE(child.exited) << "killed by signal " << child.signal;
    message = child.message;
    const std::size_t at = message.rfind("peak growth ");
    return at == std::string::npos ? kClaimedBytes : std::stoull(message.substr(at + 12));
}

TEST(InputSafety, ATruncatedGzipStreamFailsBeforeTheVoxelsAreAllocated)
{
    std::string message;
    const std::uint64_t growth = peakGrowthOfTruncatedLoad("nrrd", message);
    EXPECT_TRUE(contains(message, "end early")) << message;
    // The stream is checked against its size trailer and decoded once without storing it.
    EXPECT_LT(growth, 16ull << 20) << message;
}

TEST(InputSafety, ATruncatedZlibStreamTouchesOnlyWhatItDecoded)
{
    std::string message;
    const std::uint64_t growth = peakGrowthOfTruncatedLoad("mha", message);
    EXPECT_TRUE(contains(message, "end early")) << message;
    // zlib has no size trailer: the 60% that decode are stored, the rest is never touched
    // (under AddressSanitizer its shadow memory adds an eighth: about 87 MiB of the 128).
    EXPECT_LT(growth, kClaimedBytes * 9 / 10) << message;
}

} // namespace
} // namespace isoview
