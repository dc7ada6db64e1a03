#include "core/input_file.h"

#include "core/error.h"
#include "core/protected_inputs.h"

#include <cerrno>
#include <fcntl.h>
#include <sys/stat.h>
#include <system_error>
#include <unistd.h>
#include <utility>

namespace isoview {
namespace {

std::string reason(int error)
{
    return std::error_code(error, std::generic_category()).message();
}

[[noreturn]] void refuse(std::string_view label, const std::string& kind)
{
    throw IoError(std::string(label) + " is " + kind +
                  ", not a regular file; isoview reads only regular files (a pipe or device "
                  "could block or never end)");
}

} // namespace

std::optional<std::string> specialFileKind(mode_t mode)
{
    if (S_ISREG(mode)) return std::nullopt;
    if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISSOCK(mode)) return "a socket";
    if (S_ISDIR(mode)) return "a folder";
    return "a special file";
}

void requireRegularFile(const std::filesystem::path& path, std::string_view label)
{
    recordInputFile(path);
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0) return; // the open reports a missing file
    if (const std::optional<std::string> kind = specialFileKind(info.st_mode)) {
        refuse(label, *kind);
    }
}

InputFile InputFile::open(const std::filesystem::path& path, std::string_view label)
{
    requireRegularFile(path, label);
    // O_NONBLOCK: a FIFO put in place after the check must not block this open either.
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        throw IoError("cannot open " + std::string(label) + ": " + reason(errno));
    }
    InputFile file(fd, 0);
    struct stat info {};
    if (::fstat(fd, &info) != 0) {
        throw IoError("cannot read " + std::string(label) + ": " + reason(errno));
    }
    if (const std::optional<std::string> kind = specialFileKind(info.st_mode)) {
        refuse(label, *kind);
    }
    // Regular files ignore O_NONBLOCK, but clear it so no read can ever see EAGAIN.
    const int flags = ::fcntl(fd, F_GETFL);
    if (flags >= 0) ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    file.m_size = std::uint64_t(info.st_size);
    return file;
}

InputFile::~InputFile()
{
    if (m_fd >= 0) ::close(m_fd);
}

InputFile::InputFile(InputFile&& other) noexcept
    : m_fd(std::exchange(other.m_fd, -1)), m_size(other.m_size)
{
}

InputFile& InputFile::operator=(InputFile&& other) noexcept
{
    if (this != &other) {
        if (m_fd >= 0) ::close(m_fd);
        m_fd = std::exchange(other.m_fd, -1);
        m_size = other.m_size;
    }
    return *this;
}

} // namespace isoview
