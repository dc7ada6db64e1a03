#include "io/raw_slice_folder_reader.h"

#include "core/error.h"
#include "core/log.h"
#include "io/volume_size_check.h"
#include "io/voxel_data_reader.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <map>
#include <system_error>
#include <utility>

namespace isoview::io {
namespace {

namespace fs = std::filesystem;
using detail::quotedPath;

struct SliceName {
    std::string prefix;
    std::uint64_t number = 0;
};

// "CThead.113" -> {"CThead", 113}; nullopt for names without a numeric suffix.
std::optional<SliceName> parseSliceName(const std::string& name)
{
    const std::size_t dot = name.rfind('.');
    if (dot == std::string::npos || dot == 0 || dot + 1 == name.size()) return std::nullopt;
    const std::string digits = name.substr(dot + 1);
    if (digits.size() > 19 ||
        !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) {
        return std::nullopt;
    }
    return SliceName{name.substr(0, dot), std::stoull(digits)};
}

std::string joinNames(const std::vector<std::string>& names, std::size_t shown)
{
    std::string text;
    for (std::size_t i = 0; i < names.size() && i < shown; ++i) {
        if (i > 0) text += ", ";
        text += names[i];
    }
    if (names.size() > shown) text += ", ...";
    return text;
}

} // namespace

std::optional<RawSliceSeries> findRawSliceSeries(const std::filesystem::path& folder)
{
    std::error_code error;
    fs::directory_iterator it(folder, error);
    if (error) {
        throw IoError("cannot list slice folder " + quotedPath(folder) + ": " + error.message());
    }
    std::map<std::string, std::vector<std::pair<std::uint64_t, fs::path>>> groups;
    std::map<std::string, std::vector<std::string>> notFiles; // by prefix
    std::vector<std::string> others;
    for (; it != fs::directory_iterator(); it.increment(error)) {
        if (error) break;
        const std::string name = it->path().filename().string();
        if (name.empty() || name.front() == '.') continue;
        std::error_code statusError;
        const fs::file_status status = it->status(statusError);
        if (!fs::is_regular_file(status)) {
            // Said by name if it holds a slice's place, rather than called missing.
            if (const std::optional<SliceName> slice = parseSliceName(name)) {
                const char* kind = fs::is_directory(status) ? "a folder"
                                   : fs::is_fifo(status)    ? "a FIFO (named pipe)"
                                   : fs::is_socket(status)  ? "a socket"
                                   : fs::is_block_file(status) || fs::is_character_file(status)
                                       ? "a device"
                                       : "not a readable file (a dangling link?)";
                notFiles[slice->prefix].push_back("'" + name + "' is " + kind);
            }
            continue;
        }
        if (const std::optional<SliceName> slice = parseSliceName(name)) {
            groups[slice->prefix].emplace_back(slice->number, it->path());
        } else {
            others.push_back(name);
        }
    }
    if (error) {
        throw IoError("cannot list slice folder " + quotedPath(folder) + ": " + error.message());
    }
    if (groups.empty()) return std::nullopt;

    // The largest group is the series; a tie cannot be decided.
    auto largest = groups.begin();
    for (auto group = groups.begin(); group != groups.end(); ++group) {
        if (group->second.size() > largest->second.size()) largest = group;
    }
    for (auto group = groups.begin(); group != groups.end(); ++group) {
        if (group == largest) continue;
        if (group->second.size() == largest->second.size()) {
            throw IoError("slice folder " + quotedPath(folder) + " holds as many '" + group->first +
                          ".<number>' as '" + largest->first + ".<number>' files (" +
                          std::to_string(group->second.size()) +
                          "); put each series in its own folder");
        }
        for (const auto& [number, path] : group->second) {
            others.push_back(path.filename().string());
        }
    }

    RawSliceSeries series;
    series.prefix = largest->first;
    std::vector<std::pair<std::uint64_t, fs::path>>& slices = largest->second;
    std::sort(slices.begin(), slices.end());
    for (auto& [number, path] : slices) {
        series.numbers.push_back(number);
        series.files.push_back(std::move(path));
    }
    std::sort(others.begin(), others.end());
    series.ignored = std::move(others);
    series.notFiles = std::move(notFiles[series.prefix]);
    std::sort(series.notFiles.begin(), series.notFiles.end());
    return series;
}

bool looksLikeRawSliceFolder(const std::filesystem::path& folder)
{
    try {
        const std::optional<RawSliceSeries> series = findRawSliceSeries(folder);
        if (!series || series->files.size() < 2 || series->files.size() <= series->ignored.size()) {
            return false;
        }
        std::error_code error;
        const std::uintmax_t size = fs::file_size(series->files.front(), error);
        if (error || size == 0) return false;
        for (const fs::path& file : series->files) {
            if (fs::file_size(file, error) != size || error) return false;
        }
        // DICOM files named like slices (IM.1, IM.2) start with a 128-byte preamble + "DICM".
        std::ifstream first(series->files.front(), std::ios::binary);
        char magic[132] = {};
        if (first.read(magic, sizeof magic) && std::string_view(magic + 128, 4) == "DICM") {
            return false;
        }
        return true;
    } catch (const std::exception&) {
        return false;
    }
}

std::optional<RawVolumeParameters> guessRawSliceLayout(std::uint64_t fileBytes,
                                                       std::size_t fileCount)
{
    if (fileBytes == 0 || fileCount == 0 || fileCount > std::numeric_limits<glm::uint>::max()) {
        return std::nullopt;
    }
    const auto guess = [&](std::uint64_t width, std::uint64_t height, ScalarType type) {
        RawVolumeParameters p;
        p.dims = glm::uvec3(glm::uint(width), glm::uint(height), glm::uint(fileCount));
        p.type = type;
        return p;
    };
    constexpr std::uint64_t kMaxSide = 1 << 20;
    for (ScalarType type : {ScalarType::Int16, ScalarType::UInt8, ScalarType::Float32}) {
        const std::uint64_t size = scalarSize(type);
        if (fileBytes % size != 0) continue;
        const std::uint64_t voxels = fileBytes / size;
        const auto side = std::uint64_t(std::llround(std::sqrt(double(voxels))));
        if (side > 0 && side <= kMaxSide && side * side == voxels) return guess(side, side, type);
    }
    for (std::uint64_t width : {512u, 256u, 128u, 64u}) {
        for (ScalarType type : {ScalarType::Int16, ScalarType::UInt8}) {
            const std::uint64_t size = scalarSize(type);
            if (fileBytes % (width * size) != 0) continue;
            const std::uint64_t height = fileBytes / (width * size);
            if (height <= kMaxSide) return guess(width, height, type);
        }
    }
    return std::nullopt;
}

std::optional<bool> guessSliceIsBigEndian(const std::filesystem::path& file,
                                          const RawVolumeParameters& parameters)
{
    if (scalarSize(parameters.type) < 2) return std::nullopt;
    // Mean difference between horizontal neighbours over the slice's range; +inf for values
    // that are not finite (floats read in the wrong order).
    const auto roughness = [&](bool bigEndian) {
        RawVolumeParameters p = parameters;
        p.dims.z = 1;
        p.bigEndian = bigEndian;
        const Volume slice = readRawSlice(file, p, 0);
        const ValueRange range = slice.storedRange();
        double sum = 0.0;
        for (std::uint32_t y = 0; y < p.dims.y; ++y) {
            for (std::uint32_t x = 0; x < p.dims.x; ++x) {
                const float v = slice.valueAt(x, y, 0);
                if (!std::isfinite(v)) return std::numeric_limits<double>::infinity();
                if (x > 0) sum += std::abs(double(v) - double(slice.valueAt(x - 1, y, 0)));
            }
        }
        return range.max > range.min ? sum / (range.max - range.min)
                                     : std::numeric_limits<double>::infinity();
    };
    try {
        const double big = roughness(true);
        const double little = roughness(false);
        if (big == little) return std::nullopt; // both constant or both non-finite
        return big < little;
    } catch (const Error&) {
        return std::nullopt;
    }
}

Volume readRawSliceFolder(const std::filesystem::path& folder,
                          const RawVolumeParameters& sliceParameters, LoadMonitor* monitor)
{
    const std::string what = "raw slice folder " + quotedPath(folder);
    const std::string prefix = "cannot read " + what + ": ";
    const ScalarType type = sliceParameters.type;
    const glm::uvec3 sliceDims{sliceParameters.dims.x, sliceParameters.dims.y, 1};
    if (sliceDims.x == 0 || sliceDims.y == 0) {
        throw InvalidInputError(prefix + "the slice size " + std::to_string(sliceDims.x) + "x" +
                                std::to_string(sliceDims.y) + " contains a zero");
    }
    for (int axis = 0; axis < 3; ++axis) {
        const double spacing = sliceParameters.spacing[axis];
        if (!std::isfinite(spacing) || spacing <= 0.0) {
            throw InvalidInputError(prefix + "voxel spacing must be positive, got " +
                                    std::to_string(spacing) + " on axis " + std::to_string(axis));
        }
    }

    reportProgress(monitor, "scanning files", 0, 0);
    const std::optional<RawSliceSeries> series = findRawSliceSeries(folder);
    if (!series) {
        throw IoError(prefix + "it holds no slice files named <prefix>.<number> (such as "
                               "CThead.1, CThead.2, ...)");
    }
    const std::string& name = series->prefix;
    const std::vector<std::uint64_t>& numbers = series->numbers;
    if (!series->notFiles.empty()) {
        throw IoError(prefix + series->notFiles.front() +
                      ", not a file: every slice must be a regular file" +
                      (series->notFiles.size() > 1
                           ? " (and " + std::to_string(series->notFiles.size() - 1) + " more)"
                           : std::string()));
    }

    for (std::size_t i = 1; i < numbers.size(); ++i) {
        if (numbers[i] == numbers[i - 1]) {
            throw IoError(prefix + "both " + quotedPath(series->files[i - 1].filename()) + " and " +
                          quotedPath(series->files[i].filename()) + " are slice " +
                          std::to_string(numbers[i]));
        }
    }
    const std::uint64_t span = numbers.back() - numbers.front(); // + 1 may overflow
    if (span != numbers.size() - 1) {
        std::vector<std::string> missing;
        for (std::size_t i = 1; i < numbers.size() && missing.size() < 5; ++i) {
            for (std::uint64_t n = numbers[i - 1] + 1; n < numbers[i] && missing.size() < 5; ++n) {
                missing.push_back(name + "." + std::to_string(n));
            }
        }
        const std::uint64_t missingCount = span - (numbers.size() - 1);
        throw IoError(prefix + "slice file " + joinNames(missing, 5) + " is missing: the " +
                      std::to_string(numbers.size()) + " files are numbered from " +
                      std::to_string(numbers.front()) + " to " + std::to_string(numbers.back()) +
                      " with " + std::to_string(missingCount) + " number" +
                      (missingCount == 1 ? "" : "s") +
                      " missing; slices must be numbered "
                      "without gaps");
    }

    const std::size_t count = series->files.size();
    if (sliceParameters.dims.z != 0 && sliceParameters.dims.z != count) {
        throw InvalidInputError(
            prefix + "the parameters ask for " + std::to_string(sliceParameters.dims.z) +
            " slices, but the "
            "folder holds " +
            std::to_string(count) + " (" + name + "." + std::to_string(numbers.front()) + " to " +
            name + "." + std::to_string(numbers.back()) + ")");
    }
    if (count > std::numeric_limits<glm::uint>::max()) {
        throw InvalidInputError(prefix + "too many slice files (" + std::to_string(count) + ")");
    }
    const glm::uvec3 dims{sliceDims.x, sliceDims.y, glm::uint(count)};
    const std::optional<std::uint64_t> sliceBytes = detail::voxelByteCount(sliceDims, type);
    const std::optional<std::uint64_t> total = detail::voxelByteCount(dims, type);
    const std::uint64_t maxBytes = std::numeric_limits<std::uint64_t>::max();
    if (!sliceBytes || !total || *sliceBytes > maxBytes - sliceParameters.headerOffset) {
        throw InvalidInputError(prefix + detail::dimsText(dims, type) +
                                " needs more than 2^64 bytes");
    }
    detail::requireLoadable(monitor, what, dims, type, *total);

    // Every file is checked before anything is allocated or read.
    const std::uint64_t expected = *sliceBytes + sliceParameters.headerOffset;
    for (const fs::path& file : series->files) {
        std::error_code error;
        const std::uintmax_t size = fs::file_size(file, error);
        if (error) {
            throw IoError(prefix + "cannot read slice file " + quotedPath(file) + ": " +
                          error.message());
        }
        if (size != expected) {
            throw IoError(prefix + "slice file " + quotedPath(file) + " holds " +
                          std::to_string(size) + " bytes, but a " + std::to_string(sliceDims.x) +
                          "x" + std::to_string(sliceDims.y) + " " +
                          std::string(scalarTypeName(type)) + " slice needs exactly " +
                          std::to_string(expected) + " bytes" +
                          (sliceParameters.headerOffset > 0
                               ? " (including its " + std::to_string(sliceParameters.headerOffset) +
                                     "-byte header)"
                               : std::string()) +
                          "; check the slice size and voxel type");
        }
    }

    detail::VoxelDataRequest request;
    request.what = what;
    request.encoding = detail::VoxelEncoding::Raw;
    request.dims = dims;
    request.type = type;
    request.bigEndian = sliceParameters.bigEndian;
    request.exactRawSize = true;
    for (const fs::path& file : series->files) {
        detail::VoxelDataFile data;
        data.path = file;
        data.offset = sliceParameters.headerOffset;
        request.files.push_back(std::move(data));
    }
    std::vector<std::string> warnings;
    if (!series->ignored.empty()) {
        warnings.push_back("ignored " + std::to_string(series->ignored.size()) + " file" +
                           (series->ignored.size() == 1 ? "" : "s") + " not named " + name +
                           ".<number>: " + joinNames(series->ignored, 10));
    }
    std::vector<std::byte> voxels = detail::readVoxelData(request, monitor, warnings);

    VolumeGeometry geometry;
    geometry.spacing = sliceParameters.spacing;
    Volume volume(dims, type, std::move(voxels), geometry);
    VolumeMetadata metadata;
    metadata.sourceFormat = "raw";
    metadata.warnings = std::move(warnings);
    for (const std::string& warning : metadata.warnings) {
        log::get("io")->warn("{}: {}", what, warning);
    }
    volume.setMetadata(std::move(metadata));
    log::get("io")->info("read {} ({} files {}.{}..{}, {}, {}-endian)", what, count, name,
                         numbers.front(), numbers.back(), detail::dimsText(dims, type),
                         sliceParameters.bigEndian ? "big" : "little");
    return volume;
}

} // namespace isoview::io
