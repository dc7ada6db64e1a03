#include "io/raw_volume_reader.h"

#include "core/error.h"
#include "core/input_file.h"
#include "core/log.h"
#include "io/volume_size_check.h"

#include <algorithm>
#include <bit>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <fcntl.h>
#include <limits>
#include <string>
#include <sys/stat.h>
#include <system_error>
#include <unistd.h>
#include <utility>
#include <vector>

namespace isoview::io {
namespace {

constexpr std::string_view kConvention =
    "name raw files <name>_<X>x<Y>x<Z>_<type>.raw, e.g. head_256x256x113_int16.raw (X varies "
    "fastest, little-endian unless the type is followed by _be, no header; type is uint8, "
    "int8, uint16, int16, uint32, int32, float32 or float64), or give the size and type "
    "explicitly";

using detail::dimsText;

std::string quoted(const std::filesystem::path& path)
{
    return detail::quotedPath(path);
}

std::string reason(int error)
{
    return detail::systemReason(error);
}

// dims.x * dims.y * dims.z * typeSize, or nullopt when that overflows 64 bits.
std::optional<std::uint64_t> byteCount(glm::uvec3 dims, ScalarType type)
{
    return detail::voxelByteCount(dims, type);
}

std::optional<ScalarType> typeFromName(std::string_view name)
{
    constexpr ScalarType all[] = {ScalarType::UInt8,   ScalarType::Int8,   ScalarType::UInt16,
                                  ScalarType::Int16,   ScalarType::UInt32, ScalarType::Int32,
                                  ScalarType::Float32, ScalarType::Float64};
    for (ScalarType type : all) {
        if (scalarTypeName(type) == name) return type;
    }
    return std::nullopt;
}

std::optional<std::uint32_t> parseDimension(std::string_view text)
{
    if (text.empty() ||
        !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; })) {
        return std::nullopt;
    }
    std::uint64_t value = 0;
    const auto result = std::from_chars(text.data(), text.data() + text.size(), value);
    if (result.ec != std::errc() || result.ptr != text.data() + text.size()) return std::nullopt;
    if (value > std::numeric_limits<std::uint32_t>::max()) return std::nullopt;
    return std::uint32_t(value);
}

std::string lowerText(std::string_view text);

// The parser behind parseRawFileName, saying why a name does not match.
std::optional<RawVolumeParameters> parseName(std::string_view name, std::string& whyNot)
{
    constexpr std::string_view extension = ".raw";
    const bool hasExtension =
        name.size() > extension.size() &&
        std::equal(extension.begin(), extension.end(), name.end() - extension.size(),
                   [](char a, char b) { return a == std::tolower(static_cast<unsigned char>(b)); });
    if (!hasExtension) {
        whyNot = "the name does not end in .raw";
        return std::nullopt;
    }
    std::string_view stem = name.substr(0, name.size() - extension.size());
    // An optional byte order after the type: _be (big-endian) or _le, as the layouts in names
    // that isoview proposes elsewhere write it (parseRawLayoutInName).
    bool bigEndian = false;
    if (stem.size() > 3 && stem[stem.size() - 3] == '_') {
        const std::string order = lowerText(stem.substr(stem.size() - 2));
        if (order == "be" || order == "le") {
            bigEndian = order == "be";
            stem.remove_suffix(3);
        }
    }

    const std::size_t typeSeparator = stem.rfind('_');
    if (typeSeparator == std::string_view::npos) {
        whyNot = "the name has no _<X>x<Y>x<Z>_<type> part";
        return std::nullopt;
    }
    const std::string_view typeText = stem.substr(typeSeparator + 1);
    const std::optional<ScalarType> type = typeFromName(typeText);
    if (!type) {
        whyNot = "'" + std::string(typeText) + "' is not a voxel type";
        return std::nullopt;
    }

    const std::string_view rest = stem.substr(0, typeSeparator);
    const std::size_t dimsSeparator = rest.rfind('_');
    const std::string_view dimsText =
        dimsSeparator == std::string_view::npos ? rest : rest.substr(dimsSeparator + 1);

    glm::uvec3 dims{0, 0, 0};
    std::string_view remaining = dimsText;
    for (int axis = 0; axis < 3; ++axis) {
        const std::size_t x = remaining.find('x');
        const bool last = axis == 2;
        if (last != (x == std::string_view::npos)) {
            whyNot = "'" + std::string(dimsText) + "' is not <X>x<Y>x<Z>";
            return std::nullopt;
        }
        const std::optional<std::uint32_t> value = parseDimension(remaining.substr(0, x));
        if (!value) {
            whyNot = "'" + std::string(dimsText) +
                     "' is not <X>x<Y>x<Z> with whole numbers below 4294967296";
            return std::nullopt;
        }
        if (*value == 0) {
            whyNot = "the dimensions '" + std::string(dimsText) + "' contain a zero";
            return std::nullopt;
        }
        dims[axis] = *value;
        if (!last) remaining = remaining.substr(x + 1);
    }
    if (!byteCount(dims, *type)) {
        whyNot = "the dimensions '" + std::string(dimsText) + "' of " + std::string(typeText) +
                 " voxels need more than 2^64 bytes";
        return std::nullopt;
    }

    RawVolumeParameters parameters;
    parameters.dims = dims;
    parameters.type = *type;
    parameters.bigEndian = bigEndian;
    return parameters;
}

std::string lowerText(std::string_view text)
{
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    return out;
}

// "256x256x113" or "256x256" (z then 0); nullopt for anything else or a zero.
std::optional<glm::uvec3> parseDimsPart(std::string_view text)
{
    glm::uvec3 dims{0, 0, 0};
    int axis = 0;
    while (true) {
        const std::size_t x = text.find('x');
        const std::optional<std::uint32_t> value = parseDimension(text.substr(0, x));
        if (!value || *value == 0 || axis > 2) return std::nullopt;
        dims[axis++] = *value;
        if (x == std::string_view::npos) break;
        text = text.substr(x + 1);
    }
    if (axis < 2) return std::nullopt;
    return dims;
}

// Reads n bytes at offset of an open file; the file getting shorter meanwhile is an IoError.
void readAt(const InputFile& file, std::uint64_t offset, std::byte* out, std::size_t n,
            const std::filesystem::path& path)
{
    std::size_t done = 0;
    while (done < n) {
        const ssize_t got = ::pread(file.fd(), out + done, n - done, off_t(offset + done));
        if (got < 0) {
            if (errno == EINTR) continue;
            throw IoError("cannot read raw volume " + quoted(path) + ": " + reason(errno));
        }
        if (got == 0) {
            throw IoError("cannot read raw volume " + quoted(path) + ": the file became shorter (" +
                          std::to_string(offset + done) + " bytes) while it was being read");
        }
        done += std::size_t(got);
    }
}

} // namespace

std::optional<RawVolumeParameters> parseRawLayoutInName(std::string_view name)
{
    std::vector<std::string> parts;
    std::string part;
    for (const char c : lowerText(name)) {
        if (c == '_' || c == '.' || c == '-') {
            parts.push_back(std::move(part));
            part.clear();
        } else {
            part += c;
        }
    }
    parts.push_back(std::move(part));
    for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
        const std::optional<glm::uvec3> dims = parseDimsPart(parts[i]);
        const std::optional<ScalarType> type = typeFromName(parts[i + 1]);
        if (!dims || !type) continue;
        RawVolumeParameters parameters;
        parameters.dims = *dims;
        parameters.type = *type;
        if (i + 2 < parts.size()) {
            const std::string& order = parts[i + 2];
            parameters.bigEndian = order == "be" || order == "bigendian" || order == "msb";
        }
        if (!byteCount(glm::max(*dims, glm::uvec3(1)), *type)) continue;
        return parameters;
    }
    return std::nullopt;
}

Volume readRawSlice(const std::filesystem::path& path, const RawVolumeParameters& parameters,
                    std::uint32_t slice)
{
    const std::string what = "raw volume " + quoted(path);
    const glm::uvec3 sliceDims{parameters.dims.x, parameters.dims.y, 1};
    if (sliceDims.x == 0 || sliceDims.y == 0 || slice >= parameters.dims.z) {
        throw InvalidInputError("cannot read slice " + std::to_string(slice) + " of " + what +
                                ": the dimensions are " +
                                dimsText(parameters.dims, parameters.type));
    }
    const std::optional<std::uint64_t> sliceBytes = byteCount(sliceDims, parameters.type);
    const std::uint64_t maxBytes = std::numeric_limits<std::uint64_t>::max();
    if (!sliceBytes ||
        *sliceBytes > (maxBytes - parameters.headerOffset) / (std::uint64_t(slice) + 1)) {
        throw InvalidInputError("cannot read slice " + std::to_string(slice) + " of " + what +
                                ": " + dimsText(parameters.dims, parameters.type) +
                                " needs more than 2^64 bytes");
    }
    detail::requireFitsInMemory(what, sliceDims, parameters.type, *sliceBytes);
    const std::uint64_t offset = parameters.headerOffset + std::uint64_t(slice) * *sliceBytes;

    const InputFile file = InputFile::open(path, what);
    if (file.size() < offset + *sliceBytes) {
        throw IoError(what + " holds " + std::to_string(file.size()) +
                      " bytes, too few for slice " + std::to_string(slice) + " (bytes " +
                      std::to_string(offset) + " to " + std::to_string(offset + *sliceBytes) + ")");
    }
    std::vector<std::byte> voxels(static_cast<std::size_t>(*sliceBytes));
    readAt(file, offset, voxels.data(), voxels.size(), path);
    const bool hostBigEndian = std::endian::native == std::endian::big;
    if (parameters.bigEndian != hostBigEndian) {
        detail::swapByteOrder(voxels, scalarSize(parameters.type));
    }
    VolumeGeometry geometry;
    geometry.spacing = parameters.spacing;
    return Volume(sliceDims, parameters.type, std::move(voxels), geometry);
}

std::optional<RawVolumeParameters> parseRawFileName(std::string_view fileName)
{
    std::string whyNot;
    return parseName(fileName, whyNot);
}

Volume readRawVolume(const std::filesystem::path& path, LoadMonitor* monitor)
{
    std::string whyNot;
    const std::optional<RawVolumeParameters> parameters =
        parseName(path.filename().string(), whyNot);
    if (!parameters) {
        throw InvalidInputError("cannot tell the size and voxel type of raw volume " +
                                quoted(path) + ": " + whyNot + ". Please " +
                                std::string(kConvention) + ".");
    }
    return readRawVolume(path, *parameters, monitor);
}

Volume readRawVolume(const std::filesystem::path& path, const RawVolumeParameters& parameters,
                     LoadMonitor* monitor)
{
    const glm::uvec3 dims = parameters.dims;
    const ScalarType type = parameters.type;
    if (dims.x == 0 || dims.y == 0 || dims.z == 0) {
        throw InvalidInputError("cannot read raw volume " + quoted(path) + ": dimensions " +
                                dimsText(dims, type) + " contain a zero");
    }
    const glm::dvec3 spacing = parameters.spacing;
    for (int axis = 0; axis < 3; ++axis) {
        if (!std::isfinite(spacing[axis]) || spacing[axis] <= 0.0) {
            throw InvalidInputError("cannot read raw volume " + quoted(path) +
                                    ": voxel spacing must be positive, got " +
                                    std::to_string(spacing[axis]) + " on axis " +
                                    std::to_string(axis));
        }
    }
    const std::optional<std::uint64_t> expected = byteCount(dims, type);
    if (!expected) {
        throw InvalidInputError("cannot read raw volume " + quoted(path) + ": " +
                                dimsText(dims, type) + " needs more than 2^64 bytes");
    }

    const InputFile file = InputFile::open(path, "raw volume " + quoted(path));

    // The size must match exactly: a mismatch almost always means wrong dims or type, and
    // reading it anyway would show a sheared or garbled volume.
    const std::uint64_t fileSize = file.size();
    const std::uint64_t offset = parameters.headerOffset;
    if (fileSize < offset || fileSize - offset != *expected) {
        std::string actual = std::to_string(fileSize) + " bytes";
        if (offset > 0) {
            actual += fileSize < offset
                          ? ", less than its " + std::to_string(offset) + "-byte header"
                          : " (" + std::to_string(fileSize - offset) + " after a " +
                                std::to_string(offset) + "-byte header)";
        }
        throw IoError("raw volume " + quoted(path) + " holds " + actual + ", but " +
                      dimsText(dims, type) + " needs exactly " + std::to_string(*expected) +
                      " bytes of voxels; check the dimensions, voxel type and header size");
    }

    detail::requireLoadable(monitor, "raw volume " + quoted(path), dims, type, *expected);

    // In chunks, so that a long read shows progress and can be cancelled.
    std::vector<std::byte> voxels(static_cast<std::size_t>(*expected));
    constexpr std::size_t kChunkBytes = std::size_t(64) << 20;
    for (std::size_t done = 0; done < voxels.size();) {
        reportProgress(monitor, "reading voxels", done, voxels.size());
        const std::size_t chunk = std::min(kChunkBytes, voxels.size() - done);
        readAt(file, offset + done, voxels.data() + done, chunk, path);
        done += chunk;
    }
    reportProgress(monitor, "reading voxels", voxels.size(), voxels.size());

    const bool hostBigEndian = std::endian::native == std::endian::big;
    if (parameters.bigEndian != hostBigEndian) detail::swapByteOrder(voxels, scalarSize(type));

    VolumeGeometry geometry;
    geometry.spacing = spacing;
    log::get("io")->info("read raw volume {} ({}, {}-endian, spacing {} x {} x {})", path.string(),
                         dimsText(dims, type), parameters.bigEndian ? "big" : "little", spacing.x,
                         spacing.y, spacing.z);
    return Volume(dims, type, std::move(voxels), geometry);
}

} // namespace isoview::io
