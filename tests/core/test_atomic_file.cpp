// AtomicFileWriter: the destination holds either nothing (or its old content) or the complete
// new content, and no temporary file survives any outcome.
#include "core/atomic_file.h"
#include "core/error.h"
#include "support/child_process.h"
#include "support/file_contents.h"
#include "support/temp_dir.h"

#include <gtest/gtest.h>

#include <signal.h>
#include <string>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <vector>

namespace isoview {
namespace {

namespace fs = std::filesystem;
using test::ChildResult;
using test::expectIoErrorInChild;
using test::expectIoErrorWithoutRoot;
using test::kSetupFailed;
using test::kThrewIoError;
using test::limitFileSize;
using test::readFile;
using test::runInChild;
using test::TempDir;
using test::writeFile;

fs::perms permissionsOf(const fs::path& path)
{
    return fs::status(path).permissions() & fs::perms::mask;
}

TEST(AtomicFile, CommitWritesExactlyTheBytes)
{
    TempDir dir;
    const fs::path target = dir.path() / "out.bin";
    std::string expected = "header\n";
    const std::string big(3 * 1024 * 1024 + 17, 'x'); // larger than the internal buffer
    {
        AtomicFileWriter writer(target);
        writer.write(expected.data(), expected.size());
        writer.write(big.data(), big.size());
        writer.write("!", 1);
        EXPECT_FALSE(fs::exists(target)) << "nothing may appear before commit()";
        writer.commit();
        EXPECT_TRUE(writer.tempPath().empty());
    }
    expected += big + "!";
    EXPECT_EQ(readFile(target), expected);
    EXPECT_EQ(dir.entries(), std::vector<std::string>{"out.bin"});
}

// Where the file system has O_TMPFILE (ext4, tmpfs, xfs, btrfs: this machine's), nothing is
// visible before commit(), so a killed process leaves nothing; elsewhere the temporary file is
// hidden beside the target.
TEST(AtomicFile, NothingIsVisibleBeforeCommitWhereTheFileSystemAllows)
{
    TempDir dir;
    AtomicFileWriter writer(dir.path() / "mesh.ply");
    writer.write("partial", 7);
    const fs::path temp = writer.tempPath();
    if (temp.empty()) {
        EXPECT_TRUE(dir.entries().empty()) << dir.entries().front();
    } else {
        EXPECT_EQ(temp.parent_path(), dir.path());
        EXPECT_EQ(temp.filename().string().rfind(".mesh.ply.tmp-", 0), 0u) << temp;
        EXPECT_TRUE(fs::exists(temp));
    }
    writer.commit();
    EXPECT_EQ(dir.entries(), std::vector<std::string>{"mesh.ply"});
}

TEST(AtomicFile, DestroyedWithoutCommitLeavesNothing)
{
    TempDir dir;
    const fs::path target = dir.path() / "out.bin";
    fs::path temp;
    {
        AtomicFileWriter writer(target);
        temp = writer.tempPath();
        writer.write("partial", 7);
    }
    EXPECT_FALSE(fs::exists(temp));
    EXPECT_FALSE(fs::exists(target));
    EXPECT_TRUE(dir.entries().empty());
}

TEST(AtomicFile, ExistingFileStaysUntilCommitThenIsReplaced)
{
    TempDir dir;
    const fs::path target = dir.path() / "out.txt";
    writeFile(target, "old content");
    {
        AtomicFileWriter abandoned(target);
        abandoned.write("new", 3);
    }
    EXPECT_EQ(readFile(target), "old content");

    AtomicFileWriter writer(target);
    writer.write("new", 3);
    EXPECT_EQ(readFile(target), "old content");
    writer.commit();
    EXPECT_EQ(readFile(target), "new");
    EXPECT_EQ(dir.entries(), std::vector<std::string>{"out.txt"});
}

TEST(AtomicFile, NewFileGetsUmaskPermissionsAndReplacedFileKeepsItsMode)
{
    TempDir dir;
    const mode_t previous = ::umask(022);
    writeFileAtomically(dir.path() / "new.bin", {});
    ::umask(previous);
    EXPECT_EQ(permissionsOf(dir.path() / "new.bin"), fs::perms(0644));

    const fs::path kept = dir.path() / "kept.bin";
    writeFile(kept, "old");
    fs::permissions(kept, fs::perms(0640));
    writeFileAtomically(kept, std::as_bytes(std::span("new", 3)));
    EXPECT_EQ(permissionsOf(kept), fs::perms(0640));
    EXPECT_EQ(readFile(kept), "new");
}

TEST(AtomicFile, MoveTransfersOwnership)
{
    TempDir dir;
    const fs::path target = dir.path() / "moved.bin";
    AtomicFileWriter first(target);
    first.write("ab", 2);
    AtomicFileWriter second(std::move(first));
    second.write("cd", 2);
    AtomicFileWriter third(dir.path() / "other.bin");
    third = std::move(second); // discards other.bin's temp file, takes over moved.bin
    third.write("ef", 2);
    third.commit();
    EXPECT_EQ(readFile(target), "abcdef");
    EXPECT_EQ(dir.entries(), std::vector<std::string>{"moved.bin"});
}

TEST(AtomicFile, WriteOrCommitAfterCommitThrows)
{
    TempDir dir;
    AtomicFileWriter writer(dir.path() / "once.bin");
    writer.commit();
    EXPECT_THROW(writer.write("x", 1), IoError);
    EXPECT_THROW(writer.commit(), IoError);
    EXPECT_EQ(dir.entries(), std::vector<std::string>{"once.bin"});
}

// A muxer writes a placeholder, then goes back to fill it in (MP4's moov atom), so seek() must
// land the next bytes at the offset, including bytes still in the writer's buffer before it.
TEST(AtomicFile, SeekOverwritesEarlierBytesThenWritingGoesOnFromThere)
{
    TempDir dir;
    const fs::path target = dir.path() / "seek.bin";
    AtomicFileWriter writer(target);
    writer.write("hello world", 11);
    writer.seek(0);
    writer.write("J", 1);
    writer.seek(11);
    writer.write("!", 1);
    writer.seek(14); // past the end: a hole of zeros
    writer.write("?", 1);
    writer.commit();
    EXPECT_EQ(readFile(target), std::string("Jello world!\0\0?", 15));
    EXPECT_THROW(writer.seek(0), IoError);
}

TEST(AtomicFile, StandardOutputCannotSeek)
{
    AtomicFileWriter writer(kStandardOutput);
    try {
        writer.seek(0);
        FAIL() << "expected IoError";
    } catch (const IoError& error) {
        EXPECT_NE(std::string(error.what()).find("standard output"), std::string::npos)
            << error.what();
    }
}

TEST(AtomicFile, MissingFolderThrowsIoErrorNamingThePath)
{
    TempDir dir;
    const fs::path target = dir.path() / "no_such_folder" / "out.ply";
    try {
        AtomicFileWriter writer(target);
        FAIL() << "expected IoError";
    } catch (const IoError& e) {
        const std::string message = e.what();
        EXPECT_NE(message.find(target.string()), std::string::npos) << message;
        EXPECT_NE(message.find("does not exist"), std::string::npos) << message;
    }
    EXPECT_TRUE(dir.entries().empty());
}

TEST(AtomicFile, FolderThatIsAFileThrowsIoError)
{
    TempDir dir;
    writeFile(dir.path() / "plain", "x");
    try {
        AtomicFileWriter writer(dir.path() / "plain" / "out.ply");
        FAIL() << "expected IoError";
    } catch (const IoError& e) {
        EXPECT_NE(std::string(e.what()).find("is not a folder"), std::string::npos) << e.what();
    }
    EXPECT_EQ(dir.entries(), std::vector<std::string>{"plain"});
}

TEST(AtomicFile, PathWithoutFileNameThrowsIoError)
{
    TempDir dir;
    EXPECT_THROW(AtomicFileWriter(dir.path() / ""), IoError);
    EXPECT_TRUE(dir.entries().empty());
}

TEST(AtomicFile, UnwritableFolderThrowsIoErrorAndCreatesNothing)
{
    TempDir dir;
    const fs::path locked = dir.path() / "locked";
    fs::create_directory(locked);
    fs::permissions(dir.path(), fs::perms(0755));
    fs::permissions(locked, fs::perms(0555));
    const fs::path target = locked / "out.ply";

    // Root ignores folder permissions, so the child gives up root first; the child also keeps
    // the identity change out of this process.
    const ChildResult child = expectIoErrorWithoutRoot(
        [&] {
            AtomicFileWriter writer(target);
            writer.write("x", 1);
            writer.commit();
        },
        [&] { return fs::is_empty(locked); });
    fs::permissions(locked, fs::perms(0755));

    ASSERT_TRUE(child.exited) << "child killed by signal " << child.signal;
    EXPECT_EQ(child.exitCode, kThrewIoError) << child.message;
    EXPECT_NE(child.message.find(target.string()), std::string::npos) << child.message;
    EXPECT_NE(child.message.find("Permission denied"), std::string::npos) << child.message;
    EXPECT_TRUE(fs::is_empty(locked));
}

TEST(AtomicFile, AFolderMadeThereBeforeCommitThrowsIoErrorAndRemovesTheTempFile)
{
    TempDir dir;
    const fs::path target = dir.path() / "taken";
    AtomicFileWriter writer(target);
    writer.write("data", 4);
    fs::create_directory(target); // a folder already there is refused by the constructor
    try {
        writer.commit();
        FAIL() << "expected IoError";
    } catch (const IoError& e) {
        EXPECT_NE(std::string(e.what()).find(target.string()), std::string::npos) << e.what();
    }
    EXPECT_TRUE(writer.tempPath().empty());
    EXPECT_EQ(dir.entries(), std::vector<std::string>{"taken"});
    EXPECT_TRUE(fs::is_directory(target));
}

// A full disk or a file-size limit: the write fails part-way. RLIMIT_FSIZE makes write()
// fail with EFBIG ("File too large") once the limit is reached, the same code path as ENOSPC.
// bytesToWrite below the internal buffer size makes the failure surface in commit(), above
// it in write().
class AtomicFileSizeLimit : public ::testing::TestWithParam<std::size_t> {};

TEST_P(AtomicFileSizeLimit, WriteFailureThrowsIoErrorAndLeavesNoFile)
{
    TempDir dir;
    const fs::path target = dir.path() / "big.bin";
    const std::size_t bytesToWrite = GetParam();
    constexpr rlim_t kLimit = 64 * 1024;

    const ChildResult child = runInChild([&](std::string& message) {
        if (!limitFileSize(kLimit, message)) return kSetupFailed;
        const std::string block(4096, 'z');
        return expectIoErrorInChild(
            [&] {
                AtomicFileWriter writer(target);
                for (std::size_t done = 0; done < bytesToWrite; done += block.size()) {
                    writer.write(block.data(), block.size());
                }
                writer.commit();
            },
            message, [&] { return fs::is_empty(dir.path()); });
    });

    ASSERT_TRUE(child.exited) << "child killed by signal " << child.signal << " (SIGXFSZ is "
                              << SIGXFSZ << ")";
    EXPECT_EQ(child.exitCode, kThrewIoError) << child.message;
    EXPECT_NE(child.message.find(target.string()), std::string::npos) << child.message;
    EXPECT_NE(child.message.find("File too large"), std::string::npos) << child.message;
    EXPECT_TRUE(dir.entries().empty());
}

INSTANTIATE_TEST_SUITE_P(FailsIn, AtomicFileSizeLimit,
                         ::testing::Values(std::size_t(128 * 1024), std::size_t(2 * 1024 * 1024)),
                         [](const auto& info) {
                             return info.param < 256 * 1024 ? std::string("Commit")
                                                            : std::string("Write");
                         });

} // namespace
} // namespace isoview
