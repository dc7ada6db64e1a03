// Naming isoview-cli's output files, for surfaces (--iso) and labels (--labels) alike: a
// pattern's placeholders replaced, two spellings of one path told to be the same file, and the
// format read from the extension (never guessed).
#pragma once

#include "mesh_export/mesh_export.h"

#include <filesystem>
#include <iostream>
#include <optional>
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

// Whether -o's extension names a format exportMesh writes (and 3MF is not asked for voxel
// indices, which it cannot hold); says why on stderr otherwise. Checked before the volume is
// loaded, so a typo costs no work.
inline bool checkOutputFormat(const std::string& output, bool voxelSpace)
{
    const std::optional<MeshFormat> format = meshFormatForPath(output);
    if (!format) {
        std::cerr << "isoview-cli: cannot tell the mesh format of '" << output
                  << "' from its extension; -o takes one of " << meshFormatList() << "\n";
        return false;
    }
    if (*format == MeshFormat::ThreeMf && voxelSpace) {
        std::cerr << "isoview-cli: 3MF holds millimetres, not voxel indices: --voxel-space needs "
                     "a .ply, .stl or .obj output\n";
        return false;
    }
    return true;
}

} // namespace isoview::cli
