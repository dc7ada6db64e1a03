#include "core/protected_inputs.h"

#include <algorithm>
#include <map>
#include <mutex>
#include <utility>

namespace isoview {
namespace {

using Identity = std::pair<dev_t, ino_t>;

struct Registry {
    std::mutex mutex;
    // Identity -> (registrations, the path first registered, for messages).
    std::map<Identity, std::pair<int, std::string>> files;
};

Registry& registry()
{
    static Registry instance; // never destroyed before the writers that ask it
    return instance;
}

thread_local InputFileRecorder* t_recorder = nullptr;

} // namespace

InputProtection::InputProtection(const std::vector<std::filesystem::path>& files)
{
    Registry& r = registry();
    const std::lock_guard lock(r.mutex);
    for (const std::filesystem::path& path : files) {
        struct stat info {};
        if (::stat(path.c_str(), &info) != 0) continue;
        const Identity id{info.st_dev, info.st_ino};
        const bool seen = std::any_of(m_keys.begin(), m_keys.end(), [&](const Key& k) {
            return k.device == id.first && k.inode == id.second;
        });
        if (seen) continue;
        auto [entry, inserted] = r.files.try_emplace(id, 0, path.string());
        ++entry->second.first;
        m_keys.push_back({id.first, id.second});
    }
}

InputProtection::~InputProtection()
{
    Registry& r = registry();
    const std::lock_guard lock(r.mutex);
    for (const Key& key : m_keys) {
        const auto entry = r.files.find({key.device, key.inode});
        if (entry != r.files.end() && --entry->second.first == 0) r.files.erase(entry);
    }
}

std::optional<std::string> protectedInputAt(const struct stat& info)
{
    Registry& r = registry();
    const std::lock_guard lock(r.mutex);
    const auto entry = r.files.find({info.st_dev, info.st_ino});
    if (entry == r.files.end()) return std::nullopt;
    return entry->second.second;
}

InputFileRecorder::InputFileRecorder() : m_outer(std::exchange(t_recorder, this)) {}

InputFileRecorder::~InputFileRecorder()
{
    t_recorder = m_outer;
}

void recordInputFile(const std::filesystem::path& path)
{
    if (t_recorder != nullptr) t_recorder->m_files.push_back(path);
}

} // namespace isoview
