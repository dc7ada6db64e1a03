#include "io/read_only_file.h"

#include "core/error.h"
#include "io/volume_size_check.h"

#include <cerrno>
#include <unistd.h>

namespace isoview::io::detail {
namespace {

// The message names what was being read (the prefix) before InputFile's own words.
InputFile openFile(const std::filesystem::path& path, const std::string& prefix,
                   const std::string& label)
{
    try {
        return InputFile::open(path, label);
    } catch (const IoError& error) {
        throw IoError(prefix + error.what());
    }
}

} // namespace

ReadOnlyFile::ReadOnlyFile(const std::filesystem::path& path, const std::string& prefix,
                           const std::string& label)
    : m_prefix(prefix), m_label(label), m_file(openFile(path, prefix, label))
{
}

void ReadOnlyFile::readExactly(std::uint64_t offset, void* destination, std::size_t n)
{
    auto* out = static_cast<unsigned char*>(destination);
    std::size_t done = 0;
    while (done < n) {
        const ssize_t got = ::pread(m_file.fd(), out + done, n - done, off_t(offset + done));
        if (got < 0) {
            if (errno == EINTR) continue;
            fail(errno);
        }
        if (got == 0) {
            throw IoError(m_prefix + m_label + " became shorter (" + std::to_string(offset + done) +
                          " bytes) while it was being read");
        }
        done += std::size_t(got);
    }
}

std::size_t ReadOnlyFile::readSome(std::uint64_t offset, void* destination, std::size_t n)
{
    while (true) {
        const ssize_t got = ::pread(m_file.fd(), destination, n, off_t(offset));
        if (got >= 0) return std::size_t(got);
        if (errno != EINTR) fail(errno);
    }
}

void ReadOnlyFile::fail(int error) const
{
    throw IoError(m_prefix + "cannot read " + m_label + ": " + systemReason(error));
}

} // namespace isoview::io::detail
