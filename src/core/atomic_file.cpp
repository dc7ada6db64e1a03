#include "core/atomic_file.h"

#include "core/error.h"
#include "core/input_file.h"
#include "core/log.h"
#include "core/protected_inputs.h"
#include "core/temporary_files.h"

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <limits>
#include <random>
#include <sys/stat.h>
#include <system_error>
#include <unistd.h>
#include <utility>

namespace isoview {
namespace {

constexpr std::size_t kBufferCapacity = 256 * 1024;
// The longest file name most file systems accept (NAME_MAX).
constexpr std::size_t kMaxNameBytes = 255;

std::string reason(int error)
{
    // std::error_code is thread-safe where strerror() is not guaranteed to be.
    return std::error_code(error, std::generic_category()).message();
}

std::string quoted(const std::filesystem::path& path)
{
    return "'" + path.string() + "'";
}

// The process umask, read without changing it (umask() can only be read by setting it, which
// races with other threads creating files).
mode_t currentUmask()
{
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line)) {
        if (line.rfind("Umask:", 0) == 0) {
            return mode_t(std::strtoul(line.c_str() + 6, nullptr, 8)) & 0777;
        }
    }
    return 022;
}

std::filesystem::path folderOf(const std::filesystem::path& path)
{
    std::filesystem::path folder = path.parent_path();
    return folder.empty() ? std::filesystem::path(".") : folder;
}

// Symbolic links are never chained deeper than this (the kernel's own limit, ELOOP).
constexpr int kMaxLinkHops = 40;

std::atomic<int> g_standardOutputFd{STDOUT_FILENO};

} // namespace

void setStandardOutputDescriptor(int fd)
{
    g_standardOutputFd = fd;
}

std::filesystem::path writtenPathFor(const std::filesystem::path& path)
{
    std::filesystem::path at = path;
    for (int hop = 0; hop < kMaxLinkHops; ++hop) {
        std::error_code error;
        if (!std::filesystem::is_symlink(std::filesystem::symlink_status(at, error))) return at;
        const std::filesystem::path target = std::filesystem::read_symlink(at, error);
        if (error) {
            throw IoError("cannot write " + quoted(path) + ": cannot read the link " + quoted(at) +
                          ": " + error.message());
        }
        at = target.is_absolute() ? target : folderOf(at) / target;
    }
    throw IoError("cannot write " + quoted(path) + ": " + reason(ELOOP));
}

void requireReplaceableDestination(const std::filesystem::path& path)
{
    if (path == kStandardOutput) return;
    struct stat entry {};
    if (::lstat(path.c_str(), &entry) != 0) {
        // Nothing there yet: its folder must exist, said now rather than after the work.
        const std::filesystem::path folder = folderOf(path);
        struct stat folderInfo {};
        if (::stat(folder.c_str(), &folderInfo) != 0) {
            throw IoError("cannot write " + quoted(path) + ": the folder " + quoted(folder) +
                          " does not exist");
        }
        if (!S_ISDIR(folderInfo.st_mode)) {
            throw IoError("cannot write " + quoted(path) + ": " + quoted(folder) +
                          " is not a folder");
        }
        return;
    }
    const bool link = S_ISLNK(entry.st_mode);
    struct stat target {};
    if (link && ::stat(path.c_str(), &target) != 0) return; // a dangling link: its file is made
    const struct stat& info = link ? target : entry;
    if (const std::optional<std::string> kind = specialFileKind(info.st_mode)) {
        throw IoError("cannot write " + quoted(path) + ": it " + (link ? "links to " : "is ") +
                      *kind + "; isoview writes only regular files, so choose a file name");
    }
    if (const std::optional<std::string> input = protectedInputAt(info)) {
        const std::string same = *input == path.string() ? "" : " (as '" + *input + "')";
        throw IoError("cannot write " + quoted(path) + ": it is a file the open volume was read " +
                      "from" + same + "; writing there would destroy the volume, so choose " +
                      "another name");
    }
}

AtomicFileWriter::AtomicFileWriter(std::filesystem::path finalPath)
    : m_finalPath(std::move(finalPath))
{
    if (m_finalPath == kStandardOutput) {
        // A duplicate, so that closing it leaves the process's standard output open.
        m_fd = ::fcntl(g_standardOutputFd.load(), F_DUPFD_CLOEXEC, 0);
        if (m_fd < 0) {
            const int error = errno;
            throw IoError("cannot write to standard output: " + reason(error));
        }
        m_streaming = true;
        m_buffer.reserve(kBufferCapacity);
        return;
    }
    const std::string name = m_finalPath.filename().string();
    if (name.empty() || name == "." || name == "..") {
        throw IoError("cannot write " + quoted(m_finalPath) + ": the path does not name a file");
    }
    requireReplaceableDestination(m_finalPath);
    m_writtenPath = writtenPathFor(m_finalPath);
    // ".<name>.tmp-XXXXXX" must itself be a valid name, so shorten very long names.
    // (Built with append rather than operator+: GCC 12 warns falsely about the latter at -O3.)
    std::string prefix(1, '.');
    prefix.append(m_writtenPath.filename().string(), 0, kMaxNameBytes - 12);
    const std::filesystem::path folder = folderOf(m_writtenPath);
    std::string pattern = (folder / (prefix + ".tmp-XXXXXX")).string();

    m_signalCleanup = std::make_unique<TemporaryFileSlot>();
    m_tempPattern = pattern;
    // An unnamed file in the destination's folder: nothing to remove if the process dies,
    // even by SIGKILL; it gets a name only for the rename (commit). File systems without
    // O_TMPFILE get a named temporary file, removed by the writer and the signal handlers.
    m_fd = ::open(folder.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
    if (m_fd < 0 && (errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL)) {
        m_fd = ::mkstemp(pattern.data());
        if (m_fd >= 0) {
            m_tempPath = pattern;
            m_signalCleanup->arm(m_tempPath.c_str());
        }
    }
    if (m_fd < 0) {
        const int error = errno;
        throw IoError("cannot create a file in folder " + quoted(folder) + " to write " +
                      quoted(m_finalPath) + ": " + reason(error));
    }
    // The file must not leak into child processes (tests and tools spawn some).
    ::fcntl(m_fd, F_SETFD, FD_CLOEXEC);

    // mkstemp creates 0600; give the result the mode a plain open() would have, or keep the
    // mode of the file being replaced.
    struct stat existing {};
    const mode_t mode = ::stat(m_writtenPath.c_str(), &existing) == 0 && S_ISREG(existing.st_mode)
                            ? (existing.st_mode & 07777)
                            : (0666 & ~currentUmask());
    if (::fchmod(m_fd, mode) != 0) {
        log::get("io")->warn("cannot set the permissions of {}: {}", m_tempPath.string(),
                             reason(errno));
    }
    m_buffer.reserve(kBufferCapacity);
}

AtomicFileWriter::~AtomicFileWriter()
{
    discard();
}

AtomicFileWriter::AtomicFileWriter(AtomicFileWriter&& other) noexcept
    : m_finalPath(std::move(other.m_finalPath)), m_writtenPath(std::move(other.m_writtenPath)),
      m_tempPattern(std::move(other.m_tempPattern)),
      m_tempPath(std::exchange(other.m_tempPath, {})), m_fd(std::exchange(other.m_fd, -1)),
      m_streaming(other.m_streaming), m_buffer(std::move(other.m_buffer)),
      m_signalCleanup(std::move(other.m_signalCleanup))
{
}

AtomicFileWriter& AtomicFileWriter::operator=(AtomicFileWriter&& other) noexcept
{
    if (this != &other) {
        discard();
        m_finalPath = std::move(other.m_finalPath);
        m_writtenPath = std::move(other.m_writtenPath);
        m_tempPattern = std::move(other.m_tempPattern);
        m_tempPath = std::exchange(other.m_tempPath, {});
        m_fd = std::exchange(other.m_fd, -1);
        m_streaming = other.m_streaming;
        m_buffer = std::move(other.m_buffer);
        m_signalCleanup = std::move(other.m_signalCleanup);
    }
    return *this;
}

void AtomicFileWriter::write(const void* data, std::size_t n)
{
    if (m_fd < 0) {
        throw IoError("cannot write " + quoted(m_finalPath) +
                      ": the file was already committed or an earlier write failed");
    }
    const auto* bytes = static_cast<const std::byte*>(data);
    if (m_buffer.size() + n > kBufferCapacity) flushBuffer();
    if (n >= kBufferCapacity) {
        writeAll(bytes, n); // large blocks skip the copy into the buffer
    } else {
        m_buffer.insert(m_buffer.end(), bytes, bytes + n);
    }
}

void AtomicFileWriter::seek(std::uint64_t offset)
{
    if (m_fd < 0) {
        throw IoError("cannot write " + quoted(m_finalPath) +
                      ": the file was already committed or an earlier write failed");
    }
    if (m_streaming) {
        throw IoError("cannot write this format to standard output: it goes back to fill in "
                      "what it wrote earlier, which a pipe cannot do; choose a file name");
    }
    flushBuffer();
    if (offset > std::uint64_t(std::numeric_limits<off_t>::max())) {
        fail("cannot seek in", EOVERFLOW);
    }
    if (::lseek(m_fd, off_t(offset), SEEK_SET) < 0) fail("cannot seek in", errno);
}

void AtomicFileWriter::commit()
{
    if (m_fd < 0) {
        throw IoError("cannot commit " + quoted(m_finalPath) +
                      ": the file was already committed or an earlier write failed");
    }
    flushBuffer();
    if (m_streaming) {
        if (::close(std::exchange(m_fd, -1)) != 0) fail("cannot finish writing", errno);
        return;
    }
    if (::fsync(m_fd) != 0) fail("cannot flush to disk", errno);
    if (m_tempPath.empty()) nameUnnamedFile();
    const int fd = std::exchange(m_fd, -1);
    // close() can report a deferred write error (NFS, quotas): the data may not be complete.
    if (::close(fd) != 0) fail("cannot finish writing", errno);
    // Again, as late as possible: a FIFO or the volume may have appeared there meanwhile.
    try {
        requireReplaceableDestination(m_finalPath);
        if (writtenPathFor(m_finalPath) != m_writtenPath) {
            throw IoError("cannot write " + quoted(m_finalPath) +
                          ": the link now points elsewhere (an existing file was left unchanged)");
        }
    } catch (const IoError&) {
        discard();
        throw;
    }
    if (std::rename(m_tempPath.c_str(), m_writtenPath.c_str()) != 0) {
        fail("cannot replace", errno);
    }
    m_tempPath.clear();
    if (m_signalCleanup) m_signalCleanup->disarm();

    // Make the rename itself durable. The file is complete and in place by now, so a failure
    // here is only worth a warning.
    const std::filesystem::path folder = folderOf(m_writtenPath);
    const int dirFd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dirFd >= 0) {
        if (::fsync(dirFd) != 0 && errno != EINVAL) {
            log::get("io")->warn("cannot flush folder {} to disk: {}", folder.string(),
                                 reason(errno));
        }
        ::close(dirFd);
    }
}

void AtomicFileWriter::nameUnnamedFile()
{
    // linkat cannot replace a file, so the unnamed file first gets a fresh temporary name
    // (".<name>.tmp-" and six random characters, as mkstemp would choose), then the rename
    // replaces the destination in one step as always.
    static constexpr char kLetters[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    const std::string descriptor = "/proc/self/fd/" + std::to_string(m_fd);
    std::random_device random;
    std::uniform_int_distribution<std::size_t> letter(0, sizeof kLetters - 2);
    for (int attempt = 0; attempt < 100; ++attempt) {
        std::string name = m_tempPattern;
        for (std::size_t i = name.size() - 6; i < name.size(); ++i)
            name[i] = kLetters[letter(random)];
        if (::linkat(AT_FDCWD, descriptor.c_str(), AT_FDCWD, name.c_str(), AT_SYMLINK_FOLLOW) ==
            0) {
            m_tempPath = name;
            m_signalCleanup->arm(m_tempPath.c_str());
            return;
        }
        if (errno != EEXIST) fail("cannot name the file written for", errno);
    }
    fail("cannot name the file written for", EEXIST);
}

void AtomicFileWriter::flushBuffer()
{
    if (m_buffer.empty()) return;
    writeAll(m_buffer.data(), m_buffer.size());
    m_buffer.clear();
}

void AtomicFileWriter::writeAll(const std::byte* data, std::size_t n)
{
    while (n > 0) {
        const ssize_t written = ::write(m_fd, data, n);
        if (written < 0) {
            if (errno == EINTR) continue;
            fail("cannot write", errno);
        }
        if (written == 0) fail("cannot write", EIO); // no progress and no error: give up
        data += written;
        n -= std::size_t(written);
    }
}

void AtomicFileWriter::fail(const std::string& what, int error)
{
    discard();
    if (m_streaming) throw IoError(what + " to standard output: " + reason(error));
    throw IoError(what + " " + quoted(m_finalPath) + ": " + reason(error) +
                  " (an existing file there was left unchanged)");
}

void AtomicFileWriter::discard() noexcept
{
    if (m_fd >= 0) ::close(std::exchange(m_fd, -1));
    if (!m_tempPath.empty()) {
        ::unlink(m_tempPath.c_str());
        m_tempPath.clear();
    }
    if (m_signalCleanup) m_signalCleanup->disarm();
    m_buffer.clear();
}

void writeFileAtomically(const std::filesystem::path& path, std::span<const std::byte> bytes)
{
    AtomicFileWriter writer(path);
    writer.write(bytes);
    writer.commit();
}

} // namespace isoview
