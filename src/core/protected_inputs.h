// The files open volumes were read from, which no export or save may replace. A mesh written
// "over" its own volume (a slip of the file dialog, or -o naming the input) would destroy the
// scan, so AtomicFileWriter asks protectedInputAt() before it creates or renames anything.
//
// Contract:
// - Files are identified by device and inode (hard links and other spellings of a path match);
//   they stay protected while an InputProtection that lists them lives (copies of a Volume
//   share one).
// - InputFileRecorder collects, on its own thread, every path InputFile::open and
//   requireRegularFile saw while it lived; loadVolume uses it to protect exactly the files a
//   volume was read from, whatever the format.
// - Thread: any; the registry is guarded by a mutex; recorders are per thread.
//
// Example:
//   InputFileRecorder recorder;
//   Volume volume = readNrrd(path);                  // opens header and data file
//   auto protection = std::make_shared<InputProtection>(recorder.files());
//   AtomicFileWriter out(path);                      // throws IoError: it is an input
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <sys/stat.h>
#include <vector>

namespace isoview {

// Registers files while alive. Paths that cannot be stat'ed (already gone) are skipped.
class InputProtection {
public:
    explicit InputProtection(const std::vector<std::filesystem::path>& files);
    ~InputProtection();
    InputProtection(const InputProtection&) = delete;
    InputProtection& operator=(const InputProtection&) = delete;

    std::size_t fileCount() const { return m_keys.size(); }

private:
    struct Key {
        dev_t device;
        ino_t inode;
    };
    std::vector<Key> m_keys;
};

// The path under which the file with this stat was registered, when it is protected.
std::optional<std::string> protectedInputAt(const struct stat& info);

// Records the paths of the inputs opened on this thread while it lives (innermost wins).
class InputFileRecorder {
public:
    InputFileRecorder();
    ~InputFileRecorder();
    InputFileRecorder(const InputFileRecorder&) = delete;
    InputFileRecorder& operator=(const InputFileRecorder&) = delete;

    const std::vector<std::filesystem::path>& files() const { return m_files; }

private:
    friend void recordInputFile(const std::filesystem::path& path);
    std::vector<std::filesystem::path> m_files;
    InputFileRecorder* m_outer = nullptr;
};

// Adds path to this thread's innermost recorder, if any (called by the input checks).
void recordInputFile(const std::filesystem::path& path);

} // namespace isoview
