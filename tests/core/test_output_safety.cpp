// What AtomicFileWriter refuses to replace (FIFOs, devices, folders, the files an open volume
// was read from) and the temporary files it removes when a signal stops the process.
#include "core/atomic_file.h"
#include "core/error.h"
#include "core/protected_inputs.h"
#include "support/child_process.h"
#include "support/file_contents.h"
#include "support/temp_dir.h"

#include <gtest/gtest.h>

#include <signal.h>
#include <string>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>
#include <vector>

namespace isoview {
namespace {

namespace fs = std::filesystem;
using test::ChildResult;
using test::readFile;
using test::runInChild;
using test::TempDir;
using test::writeFile;

// The message of the IoError that making a writer for path throws ("" when none is thrown).
std::string refusal(const fs::path& path)
{
    try {
        AtomicFileWriter writer(path);
    } catch (const IoError& e) {
        return e.what();
    }
    return "";
}

bool contains(const std::string& text, const std::string& part)
{
    return text.find(part) != std::string::npos;
}

TEST(OutputSafety, AFifoIsRefusedAndStaysAFifo)
{
    TempDir dir;
    const fs::path fifo = dir.path() / "mesh.ply";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    const std::string message = refusal(fifo);
    EXPECT_TRUE(contains(message, "is a FIFO (named pipe)")) << message;
    EXPECT_TRUE(contains(message, fifo.string())) << message;
    EXPECT_TRUE(fs::is_fifo(fifo));
    EXPECT_EQ(dir.entries(), std::vector<std::string>{"mesh.ply"}); // no temporary file
}

TEST(OutputSafety, ALinkToADeviceIsRefusedAndTheDeviceIsUntouched)
{
    TempDir dir;
    const fs::path link = dir.path() / "out.stl";
    fs::create_symlink("/dev/null", link);
    const std::string message = refusal(link);
    EXPECT_TRUE(contains(message, "links to a character device")) << message;
    EXPECT_TRUE(fs::is_symlink(link));
    EXPECT_TRUE(fs::is_character_file("/dev/null"));
}

TEST(OutputSafety, AFolderIsRefusedBeforeAnythingIsWritten)
{
    TempDir dir;
    const fs::path folder = dir.path() / "taken";
    fs::create_directory(folder);
    EXPECT_TRUE(contains(refusal(folder), "is a folder"));
    EXPECT_EQ(dir.entries(), std::vector<std::string>{"taken"});
}

// A link is written through, never replaced (`-o /dev/stdout` once replaced the system's
// /dev/stdout link with a file): through a chain of links to a file, or to the file a dangling
// link names, which is then made.
TEST(OutputSafety, ALinkIsWrittenThroughAndStaysALink)
{
    TempDir dir;
    const fs::path file = dir.path() / "real.ply";
    const fs::path middle = dir.path() / "middle.ply";
    const fs::path link = dir.path() / "out.ply";
    writeFile(file, "old");
    fs::create_symlink("real.ply", middle); // relative, as `ln -s` usually makes them
    fs::create_symlink(middle, link);
    writeFileAtomically(link, std::as_bytes(std::span("new", 3)));
    EXPECT_TRUE(fs::is_symlink(link));
    EXPECT_TRUE(fs::is_symlink(middle));
    EXPECT_EQ(readFile(file), "new");

    const fs::path dangling = dir.path() / "dangling.ply";
    fs::create_symlink(dir.path() / "nowhere.ply", dangling);
    writeFileAtomically(dangling, std::as_bytes(std::span("ok", 2)));
    EXPECT_TRUE(fs::is_symlink(dangling));
    EXPECT_EQ(readFile(dir.path() / "nowhere.ply"), "ok");
    EXPECT_EQ(dir.entries().size(), 5u); // no temporary file left
}

TEST(OutputSafety, AnInputOfAnOpenVolumeIsRefusedUnderAnyName)
{
    TempDir dir;
    const fs::path input = dir.path() / "head.raw";
    const fs::path hardLink = dir.path() / "alias.raw";
    const fs::path symbolicLink = dir.path() / "link.raw";
    writeFile(input, "voxels");
    fs::create_hard_link(input, hardLink);
    fs::create_symlink(input, symbolicLink);
    {
        const InputProtection protection({input});
        for (const fs::path& name : {input, hardLink, symbolicLink}) {
            const std::string message = refusal(name);
            EXPECT_TRUE(contains(message, "a file the open volume was read from")) << message;
            EXPECT_TRUE(contains(message, name.string())) << message;
        }
        EXPECT_EQ(readFile(input), "voxels");
        EXPECT_EQ(dir.entries().size(), 3u); // no temporary file left
    }
    // Protection ends with the volume.
    writeFileAtomically(input, std::as_bytes(std::span("mesh", 4)));
    EXPECT_EQ(readFile(input), "mesh");
}

TEST(OutputSafety, ProtectionLastsWhileAnyRegistrationLives)
{
    TempDir dir;
    const fs::path input = dir.path() / "a.nrrd";
    writeFile(input, "x");
    auto first = std::make_unique<InputProtection>(std::vector<fs::path>{input});
    const InputProtection second({input, input}); // listed twice: counted once
    EXPECT_EQ(second.fileCount(), 1u);
    first.reset();
    EXPECT_FALSE(refusal(input).empty());
}

TEST(OutputSafety, AFifoThatAppearsBeforeCommitIsRefusedThenToo)
{
    TempDir dir;
    const fs::path target = dir.path() / "mesh.ply";
    AtomicFileWriter writer(target);
    writer.write("data", 4);
    ASSERT_EQ(::mkfifo(target.c_str(), 0600), 0);
    try {
        writer.commit();
        FAIL() << "expected IoError";
    } catch (const IoError& e) {
        EXPECT_TRUE(contains(e.what(), "is a FIFO")) << e.what();
    }
    EXPECT_TRUE(fs::is_fifo(target));
    EXPECT_EQ(dir.entries(), std::vector<std::string>{"mesh.ply"});
}

TEST(OutputSafety, RecorderCollectsOnlyItsOwnThreadsInputs)
{
    InputFileRecorder outer;
    recordInputFile("a");
    {
        const InputFileRecorder inner;
        recordInputFile("b");
        EXPECT_EQ(inner.files(), std::vector<fs::path>{"b"});
    }
    recordInputFile("c");
    EXPECT_EQ(outer.files(), (std::vector<fs::path>{"a", "c"}));
}

// A signal that stops the process mid-export leaves nothing and the process still ends by that
// signal: the temporary file is unnamed (O_TMPFILE), or, where it is named, the handler removes
// it. SIGKILL, which no handler sees, leaves nothing either where the file is unnamed.
class OutputSafetySignal : public ::testing::TestWithParam<int> {};

TEST_P(OutputSafetySignal, RemovesTheTemporaryFileAndEndsByTheSignal)
{
    TempDir dir;
    const fs::path target = dir.path() / "mesh.ply";
    const int signal = GetParam();
    const ChildResult child = runInChild([&](std::string& message) {
        // The handlers are installed once per process: earlier tests may have installed them
        // in the test process already, which the child inherits.
        AtomicFileWriter writer(target);
        writer.write("partial", 7);
        if (!writer.tempPath().empty() && !fs::exists(writer.tempPath())) {
            message = "the named temporary file is missing";
            return 2;
        }
        if (signal == SIGKILL && !writer.tempPath().empty()) {
            message = "this file system has no O_TMPFILE: SIGKILL would leave the file";
            return 3;
        }
        ::raise(signal);
        message = "survived the signal";
        return 1;
    });
    EXPECT_FALSE(child.exited) << child.message;
    EXPECT_EQ(child.signal, signal) << child.message;
    EXPECT_TRUE(dir.entries().empty()) << "left: " << dir.entries().front();
}

INSTANTIATE_TEST_SUITE_P(Signals, OutputSafetySignal,
                         ::testing::Values(SIGINT, SIGTERM, SIGHUP, SIGKILL), [](const auto& info) {
                             return info.param == SIGINT    ? std::string("SIGINT")
                                    : info.param == SIGTERM ? std::string("SIGTERM")
                                    : info.param == SIGHUP  ? std::string("SIGHUP")
                                                            : std::string("SIGKILL");
                         });

TEST(OutputSafety, AProgramsOwnSignalHandlerIsLeftAlone)
{
    TempDir dir;
    const ChildResult child = runInChild([&](std::string& message) {
        static volatile sig_atomic_t caught = 0;
        ::signal(SIGTERM, [](int) { caught = 1; });
        AtomicFileWriter writer(dir.path() / "out.ply");
        ::raise(SIGTERM);
        if (caught != 1) {
            message = "the program's handler did not run";
            return 1;
        }
        return 0;
    });
    EXPECT_TRUE(child.exited) << "killed by signal " << child.signal;
    EXPECT_EQ(child.exitCode, 0) << child.message;
}

} // namespace
} // namespace isoview
