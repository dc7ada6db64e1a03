// Runs a piece of a test in a forked child process, so that what it changes process-wide (a
// dropped root identity, a file-size limit, an ignored signal) stays out of the test process.
//
// Contract: body runs in the child only; it returns the child's exit code and may fill
// message, which is piped back to the parent. An exception escaping body becomes exit code 91
// with "unexpected exception: ..." as the message. The child ends with _exit(), so neither
// gtest nor static destructors run there (gtest assertions inside body do not reach the
// parent: report through the exit code and message instead). Failures of pipe/fork/waitpid
// are reported with ADD_FAILURE() in the parent. Call from the test's own thread only.
//
// For a write that must fail cleanly, expectIoErrorInChild() is the usual body: it runs the
// write, expects IoError and checks that nothing was left behind.
//
// Example:
//   const ChildResult child = runInChild([&](std::string& message) {
//       if (!limitFileSize(16 * 1024, message)) return kSetupFailed;
//       return expectIoErrorInChild([&] { exportMesh(target, mesh, {}, {}); }, message,
//                                   [&] { return fs::is_empty(folder); });
//   });
//   ASSERT_TRUE(child.exited) << "child killed by signal " << child.signal;
//   EXPECT_EQ(child.exitCode, kThrewIoError) << child.message;
#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace isoview::test {

struct ChildResult {
    bool exited = false; // ended through exit(), not a signal
    int exitCode = -1;   // valid when exited
    int signal = 0;      // the signal that killed it, 0 when it exited
    std::string message;
};

ChildResult runInChild(const std::function<int(std::string&)>& body);

// Inside a child: gives up root (to uid/gid 65534, no supplementary groups), because root
// ignores file permissions. Does nothing when not running as root. False when that fails.
bool dropRootPrivileges();

// Inside a child: makes a write past `bytes` in a file fail with EFBIG ("File too large")
// instead of killing the process with SIGXFSZ (RLIMIT_FSIZE and SIGXFSZ ignored), the way a
// full disk makes it fail part-way. False, with message saying why, when that cannot be set.
bool limitFileSize(std::uint64_t bytes, std::string& message);

// Exit codes of a child body that expects a write to fail with IoError.
constexpr int kThrewIoError = 0;
constexpr int kDidNotThrow = 1;
constexpr int kWrongException = 2;
constexpr int kLeftFiles = 3;
constexpr int kSetupFailed = 4;

// Inside a child: runs write, which must throw IoError. kThrewIoError (the error's message in
// message) when it does and leftNothing() then holds, kLeftFiles when it does not;
// kDidNotThrow, or kWrongException when another exception escapes.
int expectIoErrorInChild(
    const std::function<void()>& write, std::string& message,
    const std::function<bool()>& leftNothing = [] { return true; });

// runInChild with a body that gives up root first (root ignores folder permissions;
// kSetupFailed when it cannot) and then runs write as expectIoErrorInChild does: for a write
// into a folder the test made read-only.
ChildResult expectIoErrorWithoutRoot(const std::function<void()>& write,
                                     const std::function<bool()>& leftNothing);

} // namespace isoview::test
