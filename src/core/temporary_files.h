// Temporary files removed even when the process is told to stop. AtomicFileWriter writes into
// ".<name>.tmp-XXXXXX" beside its destination; a SIGINT (Ctrl+C), SIGTERM or SIGHUP during an
// export would otherwise leave that file behind, since destructors do not run then.
//
// Contract:
// - TemporaryFileSlot reserves a slot for one path in a fixed table of kMaxLiveTemporaryFiles
//   (the writer fills it with mkstemp). While the slot is armed, the handlers unlink it.
// - The handlers are installed on the first slot, for SIGINT, SIGTERM and SIGHUP, and only
//   where the signal still has its default action (a program's own handler is left alone; it
//   may call removeTemporaryFilesNow()). After unlinking, a handler restores the default
//   action and raises the signal again, so the process ends as it would have.
// - removeTemporaryFilesNow() is async-signal-safe: it only reads atomics and calls unlink.
// - More live temporary files than slots: the extra ones are not cleaned on a signal (the
//   writers still remove them on every normal path).
#pragma once

#include <cstddef>

namespace isoview {

inline constexpr std::size_t kMaxLiveTemporaryFiles = 64;
inline constexpr std::size_t kMaxTemporaryPathBytes = 4096;

class TemporaryFileSlot {
public:
    TemporaryFileSlot(); // reserves a slot, if one is free
    ~TemporaryFileSlot();
    TemporaryFileSlot(const TemporaryFileSlot&) = delete;
    TemporaryFileSlot& operator=(const TemporaryFileSlot&) = delete;

    // Puts path in the slot and arms it. Paths too long for a slot are not armed.
    void arm(const char* path);
    // The file is gone or committed: the handlers leave the path alone.
    void disarm();

private:
    int m_index = -1;
};

// Unlinks every armed temporary file. Async-signal-safe.
void removeTemporaryFilesNow();

} // namespace isoview
