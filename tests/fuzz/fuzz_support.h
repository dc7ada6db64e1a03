// Shared by the libFuzzer targets (header-only): libFuzzer's initialisation hook, which
// silences isoview's log; a fuzz input handed to a reader as a real file without touching the
// disk (an anonymous memfd, opened by path through /proc/self/fd); and the invariants every
// parsed volume geometry must hold. Include it from the one source file of a fuzz target: it
// defines that target's LLVMFuzzerInitialize (corpus_replay_main.cpp calls it too).
//
// Example:
//   isoview::fuzz::MemoryFile file(data, size);
//   if (file.valid()) isoview::io::readNrrd(file.path());
#pragma once

#include "core/error.h"
#include "core/log.h"
#include "volume/volume.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <sys/mman.h>
#include <unistd.h>

namespace isoview::fuzz {

// Every axis has a finite, positive spacing, a unit direction and a finite origin: what a
// header parser must never hand on, however damaged its input.
inline bool geometryIsSane(const VolumeGeometry& g)
{
    bool ok = true;
    for (int a = 0; a < 3; ++a) {
        ok = ok && std::isfinite(g.spacing[a]) && g.spacing[a] > 0.0 &&
             std::abs(glm::length(g.direction[a]) - 1.0) < 1e-9 && std::isfinite(g.origin[a]);
    }
    return ok;
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

// The volume read(path) reads from data handed over as a file (a MemoryFile); nothing when
// read throws isoview::Error, the expected outcome of bad input, or no memfd can be made.
// Anything else read throws escapes: a finding.
template <class Read>
std::optional<Volume> readAsFile(const std::uint8_t* data, std::size_t size, Read&& read)
{
    MemoryFile file(data, size);
    if (!file.valid()) return std::nullopt;
    try {
        return read(file.path());
    } catch (const Error&) {
        return std::nullopt;
    }
}

} // namespace isoview::fuzz

// Called once by libFuzzer (and by corpus_replay_main.cpp) before the first input: readers log
// every warning, which would swamp the fuzzer's output and slow it down.
extern "C" int LLVMFuzzerInitialize(int*, char***)
{
    isoview::log::setLevel(spdlog::level::off);
    return 0;
}
