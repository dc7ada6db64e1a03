// Shared by the libFuzzer targets (header-only): silences isoview's log, and hands a fuzz
// input to a reader as a real file without touching the disk (an anonymous memfd, opened by
// path through /proc/self/fd).
//
// Example:
//   isoview::fuzz::MemoryFile file(data, size);
//   if (file.valid()) isoview::io::readNrrd(file.path());
#pragma once

#include "core/log.h"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <sys/mman.h>
#include <unistd.h>

namespace isoview::fuzz {

// Called once from LLVMFuzzerInitialize: readers log every warning, which would swamp the
// fuzzer's output and slow it down.
inline void quietLogs()
{
    log::setLevel(spdlog::level::off);
}

class MemoryFile {
public:
    MemoryFile(const std::uint8_t* data, std::size_t size)
    {
        m_fd = ::memfd_create("isoview-fuzz", MFD_CLOEXEC);
        if (m_fd < 0) return;
        std::size_t done = 0;
        while (done < size) {
            const ssize_t n = ::write(m_fd, data + done, size - done);
            if (n <= 0) {
                ::close(m_fd);
                m_fd = -1;
                return;
            }
            done += std::size_t(n);
        }
    }
    ~MemoryFile()
    {
        if (m_fd >= 0) ::close(m_fd);
    }
    MemoryFile(const MemoryFile&) = delete;
    MemoryFile& operator=(const MemoryFile&) = delete;

    bool valid() const { return m_fd >= 0; }
    std::filesystem::path path() const { return "/proc/self/fd/" + std::to_string(m_fd); }

private:
    int m_fd = -1;
};

} // namespace isoview::fuzz
