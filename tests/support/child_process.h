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
// Example:
//   const ChildResult child = runInChild([&](std::string& message) {
//       if (!dropRootPrivileges()) return kSetupFailed;
//       ...
//   });
//   ASSERT_TRUE(child.exited) << "child killed by signal " << child.signal;
//   EXPECT_EQ(child.exitCode, 0) << child.message;
#pragma once

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

} // namespace isoview::test
