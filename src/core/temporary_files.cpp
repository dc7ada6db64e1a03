#include "core/temporary_files.h"

#include <array>
#include <atomic>
#include <csignal>
#include <cstring>
#include <mutex>
#include <unistd.h>

namespace isoview {
namespace {

enum SlotState : int { kFree = 0, kReserved = 1, kArmed = 2 };

struct Slot {
    std::atomic<int> state{kFree};
    char path[kMaxTemporaryPathBytes] = {};
};

// Static storage: a signal may arrive at any time, including during static destruction.
std::array<Slot, kMaxLiveTemporaryFiles> g_slots;
static_assert(std::atomic<int>::is_always_lock_free, "the signal handler reads these");

const int kSignals[] = {SIGINT, SIGTERM, SIGHUP};

extern "C" void removeAndReraise(int signal)
{
    removeTemporaryFilesNow();
    std::signal(signal, SIG_DFL);
    std::raise(signal);
}

void installHandlersOnce()
{
    static std::once_flag once;
    std::call_once(once, [] {
        for (const int signal : kSignals) {
            struct sigaction current {};
            if (::sigaction(signal, nullptr, &current) != 0) continue;
            if (current.sa_handler != SIG_DFL) continue; // someone else's, or ignored
            struct sigaction action {};
            action.sa_handler = removeAndReraise;
            sigemptyset(&action.sa_mask);
            ::sigaction(signal, &action, nullptr);
        }
    });
}

} // namespace

TemporaryFileSlot::TemporaryFileSlot()
{
    installHandlersOnce();
    for (std::size_t i = 0; i < g_slots.size(); ++i) {
        int expected = kFree;
        if (g_slots[i].state.compare_exchange_strong(expected, kReserved)) {
            m_index = int(i);
            return;
        }
    }
}

TemporaryFileSlot::~TemporaryFileSlot()
{
    if (m_index >= 0) g_slots[std::size_t(m_index)].state.store(kFree);
}

void TemporaryFileSlot::arm(const char* path)
{
    if (m_index < 0) return;
    Slot& slot = g_slots[std::size_t(m_index)];
    slot.state.store(kReserved); // never let the handler read a half-copied path
    const std::size_t n = std::strlen(path);
    if (n >= sizeof slot.path) return;
    std::memcpy(slot.path, path, n + 1);
    slot.state.store(kArmed);
}

void TemporaryFileSlot::disarm()
{
    if (m_index >= 0) g_slots[std::size_t(m_index)].state.store(kReserved);
}

void removeTemporaryFilesNow()
{
    for (Slot& slot : g_slots) {
        if (slot.state.load() == kArmed) ::unlink(slot.path);
    }
}

} // namespace isoview
