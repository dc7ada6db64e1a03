// Internal to src/io: a file opened for reading through InputFile (so a FIFO or device is
// refused before it can block), read with pread at explicit offsets, with every failure an
// IoError in the loaders' words. The voxel data reader, the gzip stream and the NIfTI reader
// read their files through it. Not public API.
//
// Contract:
// - Messages start with `prefix` ("cannot read NRRD 'a.nrrd': ") and name the file by `label`
//   ("the file", "data file 'a.raw'"): opening fails as "<prefix><InputFile's words>", a read
//   as "<prefix>cannot read <label>: <system reason>".
// - size() is the size when the file was opened; readExactly() throws when the file turns out
//   shorter than that ("... became shorter (N bytes) while it was being read").
// - Owns the descriptor (closed on every path out); never allocates. Not copyable. Thread: one
//   at a time.
//
// Example:
//   detail::ReadOnlyFile file(path, "cannot read NRRD 'a.nrrd': ", "the file");
//   file.readExactly(headerBytes, buffer.data(), buffer.size());
#pragma once

#include "core/input_file.h"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>

namespace isoview::io::detail {

class ReadOnlyFile {
public:
    ReadOnlyFile(const std::filesystem::path& path, const std::string& prefix,
                 const std::string& label);
    ReadOnlyFile(const ReadOnlyFile&) = delete;
    ReadOnlyFile& operator=(const ReadOnlyFile&) = delete;

    std::uint64_t size() const { return m_file.size(); }
    const std::string& prefix() const { return m_prefix; }
    const std::string& label() const { return m_label; }

    // Reads exactly n bytes at offset; the file getting shorter meanwhile is an IoError.
    void readExactly(std::uint64_t offset, void* destination, std::size_t n);

    // Reads up to n bytes at offset; returns how many (0 at the end).
    std::size_t readSome(std::uint64_t offset, void* destination, std::size_t n);

private:
    [[noreturn]] void fail(int error) const;

    std::string m_prefix;
    std::string m_label;
    InputFile m_file;
};

} // namespace isoview::io::detail
