#include "io/volume_size_check.h"

#include "core/error.h"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <limits>
#include <system_error>
#include <unistd.h>
#include <vector>

namespace isoview::io::detail {

std::string quotedPath(const std::filesystem::path& path)
{
    return "'" + path.string() + "'";
}

std::string systemReason(int error)
{
    return std::error_code(error, std::generic_category()).message();
}

std::string dimsText(glm::uvec3 dims, ScalarType type)
{
    return std::to_string(dims.x) + "x" + std::to_string(dims.y) + "x" + std::to_string(dims.z) +
           " " + std::string(scalarTypeName(type));
}

std::string humanBytes(std::uint64_t bytes)
{
    constexpr const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    double value = double(bytes);
    int unit = 0;
    while (value >= 1024.0 && unit < 6) {
        value /= 1024.0;
        ++unit;
    }
    char text[32];
    const auto result = std::to_chars(text, text + sizeof text, value, std::chars_format::fixed, 1);
    return std::string(text, result.ptr) + " " + units[unit];
}

std::optional<std::uint64_t> checkedMultiply(std::uint64_t a, std::uint64_t b)
{
    if (a != 0 && b > std::numeric_limits<std::uint64_t>::max() / a) return std::nullopt;
    return a * b;
}

std::optional<std::uint64_t> voxelByteCount(glm::uvec3 dims, ScalarType type)
{
    std::optional<std::uint64_t> total = scalarSize(type);
    for (int axis = 0; axis < 3 && total; ++axis)
        total = checkedMultiply(*total, dims[axis]);
    return total;
}

std::uint64_t physicalMemoryBytes()
{
    const long pages = ::sysconf(_SC_PHYS_PAGES);
    const long pageSize = ::sysconf(_SC_PAGE_SIZE);
    if (pages <= 0 || pageSize <= 0) return std::numeric_limits<std::uint64_t>::max();
    return checkedMultiply(std::uint64_t(pages), std::uint64_t(pageSize))
        .value_or(std::numeric_limits<std::uint64_t>::max());
}

std::uint64_t availableMemoryBytes()
{
    const std::uint64_t physical = physicalMemoryBytes();
    std::ifstream meminfo("/proc/meminfo");
    std::string key;
    std::uint64_t kib = 0;
    std::string unit;
    while (meminfo >> key >> kib >> unit) {
        if (key == "MemAvailable:") {
            return std::min(physical, checkedMultiply(kib, 1024).value_or(physical));
        }
    }
    return physical;
}

void requireFitsInMemory(std::string_view subject, glm::uvec3 dims, ScalarType type,
                         std::uint64_t bytes)
{
    const std::uint64_t available = availableMemoryBytes();
    if (bytes > available || bytes > std::vector<std::byte>().max_size()) {
        throw InvalidInputError(
            std::string(subject) + " (" + dimsText(dims, type) + ") needs " + humanBytes(bytes) +
            " (" + std::to_string(bytes) + " bytes), more than the " + humanBytes(available) +
            " of memory available now (" + humanBytes(physicalMemoryBytes()) +
            " in this machine); close other programs, or open a cropped or downsampled copy");
    }
}

void requireLoadable(LoadMonitor* monitor, std::string_view subject, glm::uvec3 dims,
                     ScalarType type, std::uint64_t bytes)
{
    requireFitsInMemory(subject, dims, type, bytes);
    if (monitor) monitor->admitVolume(dims, type);
}

std::string claimText(const HeaderClaim& claim)
{
    const std::optional<std::uint64_t> total = checkedMultiply(claim.count, claim.itemBytes);
    return std::to_string(claim.count) + " " + claim.itemName + (claim.count == 1 ? "" : "s") +
           " of " + claim.itemText + " (" +
           (total ? humanBytes(*total) : std::string("more than 16 EiB")) + ")";
}

std::uint64_t itemsInFile(const HeaderClaim& claim, ClaimShortfall shortfall)
{
    // Refuse: items that start inside the file (one cut short is its reader's to name). Count:
    // whole items only, so a listing never offers a volume the file cannot hold.
    const std::uint64_t stored = std::max<std::uint64_t>(claim.minStoredItemBytes, 1);
    const bool cutShortCounts = shortfall == ClaimShortfall::Refuse;
    const std::uint64_t room =
        claim.fileBytes / stored + (cutShortCounts && claim.fileBytes % stored != 0 ? 1 : 0);
    const std::uint64_t held = std::min(claim.count, room);
    if (held == claim.count || (held > 0 && shortfall == ClaimShortfall::Count)) return held;
    const std::string plural = claim.itemName + "s";
    throw IoError(claim.subject + ": the header claims " + claimText(claim) +
                  ", but the file holds " + humanBytes(claim.fileBytes) + " (" +
                  std::to_string(claim.fileBytes) + " bytes) there, room for " +
                  (held == 0 ? "none of them"
                             : "at most " + std::to_string(held) + " " +
                                   (held == 1 ? claim.itemName : plural)) +
                  "; the header is wrong or the file is truncated");
}

namespace {

template <std::size_t N> void reverseEachElement(std::span<std::byte> bytes)
{
    for (std::size_t i = 0; i + N <= bytes.size(); i += N) {
        std::reverse(bytes.begin() + std::ptrdiff_t(i), bytes.begin() + std::ptrdiff_t(i + N));
    }
}

} // namespace

void swapByteOrder(std::span<std::byte> bytes, std::size_t elementSize)
{
    switch (elementSize) {
    case 2: reverseEachElement<2>(bytes); break;
    case 4: reverseEachElement<4>(bytes); break;
    case 8: reverseEachElement<8>(bytes); break;
    default: break; // single bytes have no order
    }
}

std::string printable(std::string_view text, std::size_t maxChars)
{
    std::string out;
    std::size_t shown = 0;
    for (char c : text) {
        if (shown == maxChars) {
            out += "...";
            break;
        }
        const auto byte = static_cast<unsigned char>(c);
        if (byte >= 0x20 && byte < 0x7f) {
            out += c;
        } else {
            constexpr char hex[] = "0123456789abcdef";
            out += "\\x";
            out += hex[byte >> 4];
            out += hex[byte & 0xf];
        }
        ++shown;
    }
    return out;
}

} // namespace isoview::io::detail
