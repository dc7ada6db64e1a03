// Writes a file so that readers see either the old file or the complete new one, never a
// truncated mix: bytes go to an unnamed file in the destination folder (O_TMPFILE), which
// commit() flushes, fsyncs, names ".<name>.tmp-XXXXXX" and renames over the destination in one
// step. A process killed while writing (SIGKILL, SIGXFSZ, a crash) leaves nothing behind. On
// file systems without O_TMPFILE the temporary file is named from the start.
//
// Contract:
// - Every failure (cannot create the temporary file, write error such as "No space left on
//   device" or "File too large", fsync, rename) throws IoError naming the destination path
//   and the system's reason. After a failure the temporary file is already removed, the
//   destination is untouched, and the writer is closed (further write()/commit() throw).
// - Destroying a writer that was not committed removes its temporary file; the destination
//   is untouched. Nothing is ever written to the destination path itself.
// - The new file gets the permissions of the file it replaces, or 0666 minus the umask.
// - A symbolic link at the destination is written through, never replaced: the file it resolves
//   to (writtenPathFor) gets the new bytes and the link stays, so `-o /dev/stdout` with stdout
//   redirected to a file fills that file and leaves /dev/stdout a link. A dangling link makes
//   the file it names.
// - Only regular files are ever replaced: a FIFO, device, socket or folder at the destination
//   (or a link to one) is refused with IoError, and so is any file an open volume was read
//   from (core/protected_inputs.h). Both are checked when the writer is made and again just
//   before the rename.
// - A named temporary file is also removed when SIGINT, SIGTERM or SIGHUP stop the process
//   (core/temporary_files.h).
// - The path "-" is standard output (kStandardOutput): the bytes stream to it as they come, with
//   no temporary file and no rename (a pipe can be neither), and commit() flushes. A failure
//   part-way leaves what was already sent; `isoview-cli -o -` is the one user. A file named "-"
//   is written as "./-".
// - seek() moves where the next bytes land (a muxer that goes back to fill in an index, such as
//   MP4's moov atom); standard output cannot seek and throws IoError.
// - Move-only; one writer is used by one thread at a time.
// - POSIX only (mkstemp, fsync, rename).
//
// Example:
//   AtomicFileWriter out("mesh.ply");
//   out.write(header.data(), header.size());
//   out.commit(); // mesh.ply now holds exactly the bytes written
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace isoview {

class TemporaryFileSlot;

// The path that names standard output (see the contract).
inline constexpr const char* kStandardOutput = "-";
// Where writes to kStandardOutput go: file descriptor 1 unless a program moved its standard
// output (isoview-cli -o - sends its own report to stderr and the mesh to the original fd 1).
void setStandardOutputDescriptor(int fd);

// Throws IoError when path holds something a writer must not replace (see the contract), or
// when nothing is there and its folder does not exist; kStandardOutput may always be written.
void requireReplaceableDestination(const std::filesystem::path& path);

// The file a write to path lands in: path with every symbolic link along its last component
// followed. Throws IoError on a link loop or an unreadable link.
std::filesystem::path writtenPathFor(const std::filesystem::path& path);

class AtomicFileWriter {
public:
    // Opens the file to write in finalPath's folder. Throws IoError when the folder does not
    // exist or is not writable, or when the destination may not be replaced.
    explicit AtomicFileWriter(std::filesystem::path finalPath);
    ~AtomicFileWriter();

    AtomicFileWriter(AtomicFileWriter&& other) noexcept;
    AtomicFileWriter& operator=(AtomicFileWriter&& other) noexcept;
    AtomicFileWriter(const AtomicFileWriter&) = delete;
    AtomicFileWriter& operator=(const AtomicFileWriter&) = delete;

    // Appends n bytes (buffered: an error may only surface on a later write() or commit()).
    // Throws IoError.
    void write(const void* data, std::size_t n);
    void write(std::span<const std::byte> bytes) { write(bytes.data(), bytes.size()); }

    // Makes the next write() land at offset bytes from the start of the file: flushes the
    // buffer, then moves the file offset (past the end leaves a hole of zeros). Throws IoError
    // for standard output (a pipe cannot go back; the writer stays usable) and, closing the
    // writer as any failure does, when the buffer cannot be written or the offset is too large.
    void seek(std::uint64_t offset);

    // Flushes, fsyncs, closes and renames the temporary file over the destination. Throws
    // IoError; may be called once.
    void commit();

    const std::filesystem::path& finalPath() const { return m_finalPath; }
    // The named temporary file while the writer is open, where the file system has no
    // O_TMPFILE; empty otherwise, and after commit() or a failure.
    const std::filesystem::path& tempPath() const { return m_tempPath; }

private:
    void flushBuffer();
    void writeAll(const std::byte* data, std::size_t n);
    [[noreturn]] void fail(const std::string& what, int error);
    void discard() noexcept;
    void nameUnnamedFile();

    std::filesystem::path m_finalPath;   // as the caller named it (messages)
    std::filesystem::path m_writtenPath; // where the bytes land: links followed
    std::string m_tempPattern;           // "<folder>/.<name>.tmp-XXXXXX"
    std::filesystem::path m_tempPath;
    int m_fd = -1;
    bool m_streaming = false; // standard output: no temporary file, no rename
    std::vector<std::byte> m_buffer;
    std::unique_ptr<TemporaryFileSlot> m_signalCleanup;
};

// Writes bytes to path through an AtomicFileWriter. Throws IoError.
void writeFileAtomically(const std::filesystem::path& path, std::span<const std::byte> bytes);

} // namespace isoview
