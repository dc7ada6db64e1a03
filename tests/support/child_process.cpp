#include "support/child_process.h"

#include "core/error.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <cstdio>
#include <exception>
#include <grp.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

namespace isoview::test {

ChildResult runInChild(const std::function<int(std::string&)>& body)
{
    int fds[2];
    if (::pipe(fds) != 0) {
        ADD_FAILURE() << "pipe failed";
        return {};
    }
    std::fflush(nullptr); // buffered output would otherwise be printed twice
    const pid_t pid = ::fork();
    if (pid < 0) {
        ADD_FAILURE() << "fork failed";
        return {};
    }
    if (pid == 0) {
        ::close(fds[0]);
        std::string message;
        int code = 90;
        try {
            code = body(message);
        } catch (const std::exception& e) {
            message = std::string("unexpected exception: ") + e.what();
            code = 91;
        }
        std::size_t written = 0;
        while (written < message.size()) {
            const ssize_t n = ::write(fds[1], message.data() + written, message.size() - written);
            if (n <= 0) break;
            written += std::size_t(n);
        }
        ::_exit(code); // no gtest or static destructors in the child
    }
    ::close(fds[1]);
    ChildResult result;
    char buffer[4096];
    for (;;) {
        const ssize_t n = ::read(fds[0], buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        result.message.append(buffer, std::size_t(n));
    }
    ::close(fds[0]);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            ADD_FAILURE() << "waitpid failed";
            return result;
        }
    }
    result.exited = WIFEXITED(status);
    result.exitCode = result.exited ? WEXITSTATUS(status) : -1;
    result.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    return result;
}

bool dropRootPrivileges()
{
    if (::geteuid() != 0) return true;
    return ::setgroups(0, nullptr) == 0 && ::setgid(65534) == 0 && ::setuid(65534) == 0;
}

bool limitFileSize(std::uint64_t bytes, std::string& message)
{
    // Without this the kernel kills the child with SIGXFSZ instead of failing write().
    if (::signal(SIGXFSZ, SIG_IGN) == SIG_ERR) {
        message = "cannot ignore SIGXFSZ";
        return false;
    }
    const rlimit limit{rlim_t(bytes), rlim_t(bytes)};
    if (::setrlimit(RLIMIT_FSIZE, &limit) != 0) {
        message = "setrlimit failed";
        return false;
    }
    return true;
}

int expectIoErrorInChild(const std::function<void()>& write, std::string& message,
                         const std::function<bool()>& leftNothing)
{
    try {
        write();
        return kDidNotThrow;
    } catch (const IoError& e) {
        message = e.what();
    } catch (...) {
        return kWrongException;
    }
    return leftNothing() ? kThrewIoError : kLeftFiles;
}

ChildResult expectIoErrorWithoutRoot(const std::function<void()>& write,
                                     const std::function<bool()>& leftNothing)
{
    return runInChild([&](std::string& message) {
        if (!dropRootPrivileges()) {
            message = "cannot drop root privileges";
            return kSetupFailed;
        }
        return expectIoErrorInChild(write, message, leftNothing);
    });
}

} // namespace isoview::test
