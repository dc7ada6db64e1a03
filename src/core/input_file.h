// Opens files for reading without ever blocking on what is not a regular file. open() on a
// FIFO waits for a writer (forever, if none comes), a device can stream without end, and a
// socket cannot be opened at all; isoview reads every input (volumes, detached data files,
// DICOM slices, transfer functions) through these checks first.
//
// Contract:
// - requireRegularFile(path, label) stats path (following symbolic links) and throws IoError
//   "<label> is a FIFO (named pipe), not a regular file ..." for FIFOs, devices, sockets and
//   folders. A path that does not exist passes: the open that follows reports it in its own
//   words.
// - InputFile::open(path, label) checks first, then opens with O_NONBLOCK (so a FIFO swapped
//   in between the check and the open still cannot block), checks the opened file again with
//   fstat, and clears O_NONBLOCK. Throws IoError naming label and the system's reason.
// - Thread: any.
//
// Example:
//   InputFile file = InputFile::open(path, "data file 'head.raw'");
//   ::pread(file.fd(), buffer, n, 0);
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <sys/types.h>

namespace isoview {

// "a FIFO (named pipe)", "a character device", "a block device", "a socket", "a folder" or
// "a special file" for st_mode; nullopt for a regular file.
std::optional<std::string> specialFileKind(mode_t mode);

// Throws IoError when path exists and is not a regular file (see the contract above).
void requireRegularFile(const std::filesystem::path& path, std::string_view label);

// A regular file open for reading; closed by the destructor. Move-only.
class InputFile {
public:
    static InputFile open(const std::filesystem::path& path, std::string_view label);

    ~InputFile();
    InputFile(InputFile&& other) noexcept;
    InputFile& operator=(InputFile&& other) noexcept;
    InputFile(const InputFile&) = delete;
    InputFile& operator=(const InputFile&) = delete;

    int fd() const { return m_fd; }
    std::uint64_t size() const { return m_size; }

private:
    InputFile(int fd, std::uint64_t size) : m_fd(fd), m_size(size) {}

    int m_fd = -1;
    std::uint64_t m_size = 0;
};

} // namespace isoview
