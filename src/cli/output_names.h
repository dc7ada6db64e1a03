// Naming isoview-cli's output files, for surfaces (--iso) and labels (--labels) alike: a
// pattern's placeholders replaced, and two spellings of one path told to be the same file.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <system_error>

namespace isoview::cli {

// Every `key` in `text` (e.g. "{iso}") replaced by `with`.
inline void replaceAll(std::string& text, std::string_view key, const std::string& with)
{
    for (std::size_t at = text.find(key); at != std::string::npos;
         at = text.find(key, at + with.size()))
        text.replace(at, key.size(), with);
}

// The same path however spelled (relative, "./", "a/../"); the files need not exist yet.
inline bool sameFile(const std::string& a, const std::string& b)
{
    std::error_code error;
    return std::filesystem::absolute(a, error).lexically_normal() ==
           std::filesystem::absolute(b, error).lexically_normal();
}

} // namespace isoview::cli
