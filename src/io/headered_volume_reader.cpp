#include "io/headered_volume_reader.h"

#include "core/log.h"
#include "io/volume_size_check.h"

#include <limits>
#include <utility>

namespace isoview::io::detail {

namespace fs = std::filesystem;

FileHead readHeaderHead(const fs::path& path, std::size_t maxBytes, const std::string& what,
                        LoadMonitor* monitor)
{
    reportProgress(monitor, "reading header", 0, 0);
    FileHead head = readFileHead(path, maxBytes, what);
    if (head.fileSize == 0) throw IoError("cannot read " + what + ": the file is empty");
    return head;
}

Volume readHeaderedVolume(HeaderedVolume described, LoadMonitor* monitor)
{
    VoxelDataRequest& request = described.request;
    VoxelDataFile& file = described.layout;
    if (described.attachedAt) {
        file.path = described.headerPath;
        file.offset = *described.attachedAt;
        request.files.push_back(file);
    } else {
        // Memory is checked before the names are turned into paths (readVoxelData repeats it).
        const std::optional<std::uint64_t> bytes = voxelByteCount(request.dims, request.type);
        requireLoadable(monitor, request.what, request.dims, request.type,
                        bytes.value_or(std::numeric_limits<std::uint64_t>::max()));
        for (const std::string& name : described.dataFiles) {
            file.path = fs::path(name).is_absolute() ? fs::path(name)
                                                     : described.headerPath.parent_path() / name;
            request.files.push_back(file);
        }
    }

    std::vector<std::string>& warnings = described.metadata.warnings;
    std::vector<std::byte> voxels = readVoxelData(request, monitor, warnings);
    Volume volume(request.dims, request.type, std::move(voxels), described.geometry,
                  described.rescale);
    for (const std::string& warning : warnings) {
        log::get("io")->warn("{}: {}", request.what, warning);
    }
    volume.setMetadata(std::move(described.metadata));
    const VolumeGeometry& g = described.geometry;
    log::get("io")->info("read {} ({}, {}, spacing {} x {} x {})", request.what,
                         dimsText(request.dims, request.type), described.encodingName, g.spacing.x,
                         g.spacing.y, g.spacing.z);
    return volume;
}

} // namespace isoview::io::detail
