#include "io/voxel_data_reader.h"

#include "core/error.h"
#include "io/gzip_stream.h"
#include "io/header_text.h"
#include "io/read_only_file.h"
#include "io/volume_size_check.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <span>

namespace isoview::io::detail {
namespace {

namespace fs = std::filesystem;

constexpr std::uint64_t kProgressBytes = 1 << 20; // read and report in pieces of this size
constexpr std::size_t kScratchBytes = 64 * 1024;  // lines skipped, decoded bytes not kept

std::string plural(std::uint64_t count, std::string_view noun)
{
    return std::to_string(count) + " " + std::string(noun) + (count == 1 ? "" : "s");
}

// Progress in decoded voxel bytes, reported about every MiB.
class Progress {
public:
    Progress(LoadMonitor* monitor, std::string_view stage, std::uint64_t total)
        : m_monitor(monitor), m_stage(stage), m_total(total)
    {
        reportProgress(m_monitor, m_stage, 0, m_total);
    }
    void advance(std::uint64_t bytes)
    {
        m_done += bytes;
        if (m_done - m_reported >= kProgressBytes || m_done == m_total) {
            m_reported = m_done;
            reportProgress(m_monitor, m_stage, m_done, m_total);
        }
    }

private:
    LoadMonitor* m_monitor;
    std::string_view m_stage;
    std::uint64_t m_total;
    std::uint64_t m_done = 0;
    std::uint64_t m_reported = 0;
};

// The position just past `lines` newline characters counted from pos.
std::uint64_t skipLines(ReadOnlyFile& file, std::uint64_t pos, std::uint64_t lines,
                        const std::string& prefix)
{
    std::vector<char> buffer(kScratchBytes);
    std::uint64_t left = lines;
    while (left > 0) {
        const std::size_t got = file.readSome(pos, buffer.data(), buffer.size());
        if (got == 0) {
            throw IoError(prefix + file.label() + " ends before the " + plural(lines, "line") +
                          " to skip (line skip) have passed");
        }
        for (std::size_t i = 0; i < got; ++i) {
            if (buffer[i] == '\n' && --left == 0) return pos + i + 1;
        }
        pos += got;
    }
    return pos;
}

// Where a file's share starts, and for compressed data how many stream bytes it has.
struct Segment {
    std::uint64_t start = 0;
    std::uint64_t length = 0;
    std::optional<std::uint64_t> announced; // compressed: the header's stream size, if any
};

Segment locateShare(ReadOnlyFile& file, const VoxelDataFile& spec, const VoxelDataRequest& request,
                    std::uint64_t share, const std::string& prefix,
                    std::vector<std::string>& warnings)
{
    const std::uint64_t size = file.size();
    const std::string needs =
        std::to_string(share) + " bytes of " + dimsText(request.dims, request.type) +
        (request.files.size() > 1
             ? " voxels (its share of " + plural(request.files.size(), "file") + ")"
             : " voxels");
    const std::string advice =
        "; the file is truncated, or the header's sizes, type or encoding are wrong";

    std::uint64_t pos = spec.offset;
    if (pos > size) {
        throw IoError(prefix + file.label() + " holds " + std::to_string(size) +
                      " bytes, less than its " + std::to_string(pos) + "-byte header");
    }
    if (spec.skipLines > 0) pos = skipLines(file, pos, spec.skipLines, prefix);
    if (spec.skipBytes > size - pos) {
        throw IoError(prefix + file.label() + " holds " + std::to_string(size) +
                      " bytes, too few to skip " + std::to_string(spec.skipBytes) +
                      " bytes after its " + std::to_string(pos) + "-byte header");
    }
    pos += spec.skipBytes;
    const std::uint64_t available = size - pos;
    const std::string after = pos > 0 ? " after its first " + std::to_string(pos) + " bytes" : "";

    if (request.encoding == VoxelEncoding::Raw) {
        if (available < share) {
            throw IoError(prefix + file.label() + " holds " + std::to_string(available) + " bytes" +
                          after + ", but " + needs + " need exactly " + std::to_string(share) +
                          advice);
        }
        if (spec.atEnd) return {size - share, share, std::nullopt};
        if (available > share) {
            const std::string extra = std::to_string(available - share) + " bytes after the " +
                                      std::to_string(share) + " bytes of voxels in " + file.label();
            if (request.exactRawSize) {
                throw IoError(prefix + file.label() + " holds " + std::to_string(available) +
                              " bytes" + after + ", but " + needs + " need exactly " +
                              std::to_string(share) + "; check the dimensions and type");
            }
            warnings.push_back("ignored " + extra);
        }
        return {pos, share, std::nullopt};
    }

    // A stated stream size is not trusted: writers have put sizes smaller than the stream in
    // headers (a MetaImage in VTK's own test data), so the stream is decoded to its own end,
    // which zlib finds, and a size that disagrees is reported by inflateShare.
    const std::uint64_t length = available;
    const std::uint64_t decoded = spec.skipDecoded + share; // cannot overflow: both <= 2^63
    if (length == 0 || decoded / kMaxDeflateRatio > length) {
        throw IoError(prefix + file.label() + " holds only " + std::to_string(length) +
                      " bytes of compressed data" + after + ", which cannot decompress to the " +
                      std::to_string(decoded) + " bytes " + dimsText(request.dims, request.type) +
                      " needs" + advice);
    }
    return {pos, length, spec.compressedBytes};
}

void readRawShare(ReadOnlyFile& file, Segment segment, std::span<std::byte> destination,
                  Progress& progress)
{
    std::uint64_t done = 0;
    while (done < destination.size()) {
        const std::size_t n =
            std::size_t(std::min<std::uint64_t>(kProgressBytes, destination.size() - done));
        file.readExactly(segment.start + done, destination.data() + done, n);
        done += n;
        progress.advance(n);
    }
}

// Decompresses a file's share. With voxels, the share is appended to it, which grows only as
// bytes arrive (its capacity is reserved by the caller): a stream that ends early has touched
// no memory beyond what it filled. Without, the stream is only decoded and counted.
void inflateShare(ReadOnlyFile& file, Segment segment, std::uint64_t skipDecoded,
                  std::uint64_t share, std::vector<std::byte>* voxels, Progress* progress,
                  std::vector<std::string>& warnings)
{
    GzipStream stream(file, segment.start, segment.length);
    std::vector<std::byte> scratch(kScratchBytes);
    const std::uint64_t needed = skipDecoded + share;
    while (stream.position() < needed && stream.state() == GzipStream::State::Decoding) {
        const std::uint64_t at = stream.position();
        if (at >= skipDecoded && voxels != nullptr) {
            const std::size_t n = std::size_t(std::min<std::uint64_t>(needed - at, kProgressBytes));
            const std::size_t size = voxels->size();
            voxels->resize(size + n); // within the reserved capacity
            const std::size_t got = stream.read(voxels->data() + size, n);
            voxels->resize(size + got);
            if (progress != nullptr) progress->advance(got);
        } else { // skipped, or only counted
            const std::uint64_t end = at < skipDecoded ? skipDecoded : needed;
            stream.read(scratch.data(),
                        std::size_t(std::min<std::uint64_t>(end - at, kScratchBytes)));
        }
    }
    stream.throwIfCorrupt();
    // One byte past the share is one too many, even where the data after it are damaged.
    std::byte extra{};
    if (stream.position() == needed && stream.read(&extra, 1) > 0) {
        throw IoError(file.prefix() + "the compressed data in " + file.label() +
                      " decompress to more than the " + std::to_string(needed) +
                      " bytes the header describes; its sizes or type are wrong");
    }
    stream.throwIfCorrupt();

    const std::uint64_t produced = stream.position();
    const std::string announced =
        segment.announced && *segment.announced > segment.length
            ? " (the header announces " + std::to_string(*segment.announced) +
                  " compressed bytes, the file holds " + std::to_string(segment.length) + ")"
            : "";
    const std::string truncated = file.prefix() + "the compressed data in " + file.label() +
                                  " end early" + announced + ": they decompress to " +
                                  std::to_string(produced) + " of the " + std::to_string(needed) +
                                  " bytes the header describes";
    if (stream.state() == GzipStream::State::Truncated) {
        throw IoError(truncated + ", and the compressed stream is incomplete (the file is "
                                  "truncated)");
    }
    if (produced < needed) throw IoError(truncated);

    const std::uint64_t trailing = stream.trailingBytes();
    const std::uint64_t streamBytes = segment.length - trailing;
    if (segment.announced && *segment.announced != streamBytes) {
        warnings.push_back(
            "header says CompressedDataSize = " + std::to_string(*segment.announced) +
            " but the zlib stream in " + file.label() + " is " + std::to_string(streamBytes) +
            " bytes long; read the whole stream");
    }
    if (trailing > 0) {
        warnings.push_back("ignored " + std::to_string(trailing) +
                           " bytes after the compressed data in " + file.label());
    }
}

// A gzip stream ends with the size it decompresses to, modulo 2^32 (RFC 1952, ISIZE). A
// stream cut short ends in other bytes, so a mismatch is checked by decoding the stream once
// without storing it: a truncated file then fails before the voxel buffer is allocated. (A
// complete stream may mismatch too: several members, or bytes after the stream.) zlib streams
// carry no size and are only caught while they are read.
void checkGzipEnd(ReadOnlyFile& file, Segment segment, std::uint64_t skipDecoded,
                  std::uint64_t share)
{
    if (segment.length < 18) return; // not even a gzip header and trailer
    unsigned char magic[2];
    file.readExactly(segment.start, magic, 2);
    if (magic[0] != 0x1f || magic[1] != 0x8b) return;
    unsigned char end[4];
    file.readExactly(segment.start + segment.length - 4, end, 4);
    const std::uint32_t stated = std::uint32_t(end[0]) | std::uint32_t(end[1]) << 8 |
                                 std::uint32_t(end[2]) << 16 | std::uint32_t(end[3]) << 24;
    if (stated == std::uint32_t(skipDecoded + share)) return;
    std::vector<std::string> ignored; // the real pass reports them
    inflateShare(file, segment, skipDecoded, share, nullptr, nullptr, ignored);
}

std::string labelFor(const VoxelDataRequest& request, const fs::path& path)
{
    // An attached header's data live in the file the request is named after.
    if (request.what.find(quotedPath(path)) != std::string::npos) return "the file";
    return "data file " + quotedPath(path);
}

} // namespace

std::vector<std::byte> readVoxelData(const VoxelDataRequest& request, LoadMonitor* monitor,
                                     std::vector<std::string>& warnings)
{
    const std::string prefix = "cannot read " + request.what + ": ";
    if (request.files.empty()) throw InvalidInputError(prefix + "no data file is named");
    const std::optional<std::uint64_t> total = voxelByteCount(request.dims, request.type);
    if (!total) {
        throw InvalidInputError(prefix + dimsText(request.dims, request.type) +
                                " needs more than 2^64 bytes");
    }
    if (*total % request.files.size() != 0) {
        throw InvalidInputError(prefix + "the " + std::to_string(*total) + " bytes of " +
                                dimsText(request.dims, request.type) +
                                " cannot be split "
                                "evenly over " +
                                plural(request.files.size(), "data file"));
    }
    requireLoadable(monitor, request.what, request.dims, request.type, *total);
    const std::uint64_t share = *total / request.files.size();

    // Every file is checked before the buffer is allocated.
    const bool raw = request.encoding == VoxelEncoding::Raw;
    std::vector<Segment> segments;
    segments.reserve(request.files.size());
    for (const VoxelDataFile& spec : request.files) {
        ReadOnlyFile file(spec.path, prefix, labelFor(request, spec.path));
        segments.push_back(locateShare(file, spec, request, share, prefix, warnings));
        if (!raw) checkGzipEnd(file, segments.back(), spec.skipDecoded, share);
    }

    std::vector<std::byte> voxels;
    if (raw) {
        voxels.resize(static_cast<std::size_t>(*total));
    } else {
        voxels.reserve(static_cast<std::size_t>(*total)); // untouched until decoded into
    }
    Progress progress(monitor, raw ? "reading voxels" : "decompressing voxels", *total);
    for (std::size_t i = 0; i < request.files.size(); ++i) {
        const VoxelDataFile& spec = request.files[i];
        ReadOnlyFile file(spec.path, prefix, labelFor(request, spec.path));
        if (raw) {
            const std::span<std::byte> destination(voxels.data() + i * share, std::size_t(share));
            readRawShare(file, segments[i], destination, progress);
        } else {
            inflateShare(file, segments[i], spec.skipDecoded, share, &voxels, &progress, warnings);
        }
    }

    const bool hostBigEndian = std::endian::native == std::endian::big;
    if (request.bigEndian != hostBigEndian) swapByteOrder(voxels, scalarSize(request.type));
    return voxels;
}

FileHead readFileHead(const std::filesystem::path& path, std::size_t maxBytes,
                      const std::string& what)
{
    ReadOnlyFile file(path, "", what);
    FileHead head;
    head.fileSize = file.size();
    head.bytes.resize(std::size_t(std::min<std::uint64_t>(head.fileSize, maxBytes)));
    file.readExactly(0, head.bytes.data(), head.bytes.size());
    return head;
}

std::vector<std::string> expandFileNamePattern(std::string_view field, std::string_view pattern,
                                               std::int64_t first, std::int64_t last,
                                               std::int64_t step)
{
    const std::string prefix = std::string(field) + " pattern '" + printable(pattern) + "' ";
    // Split the pattern around its one conversion.
    std::string before;
    std::string after;
    bool converted = false;
    bool zeroPad = false;
    std::size_t width = 0;
    for (std::size_t i = 0; i < pattern.size(); ++i) {
        std::string& text = converted ? after : before;
        if (pattern[i] != '%') {
            text += pattern[i];
            continue;
        }
        if (i + 1 < pattern.size() && pattern[i + 1] == '%') {
            text += '%';
            ++i;
            continue;
        }
        if (converted) {
            throw InvalidInputError(prefix + "has more than one % conversion; it needs exactly "
                                             "one integer conversion such as %03d");
        }
        std::size_t j = i + 1;
        if (j < pattern.size() && pattern[j] == '0') {
            zeroPad = true;
            ++j;
        }
        const std::size_t widthStart = j;
        while (j < pattern.size() && pattern[j] >= '0' && pattern[j] <= '9' && j - widthStart < 3) {
            width = width * 10 + std::size_t(pattern[j] - '0');
            ++j;
        }
        if (j >= pattern.size() || (pattern[j] != 'd' && pattern[j] != 'i' && pattern[j] != 'u') ||
            width > 20) {
            throw InvalidInputError(prefix + "has a % conversion other than %d, %i or %u with "
                                             "an optional 0 flag and a width up to 20");
        }
        converted = true;
        i = j;
    }
    if (!converted) {
        throw InvalidInputError(prefix + "has no integer conversion such as %03d");
    }
    if (step == 0) throw InvalidInputError(prefix + "has a step of 0");
    if ((step > 0 && last < first) || (step < 0 && last > first)) {
        throw InvalidInputError(prefix + "counts from " + std::to_string(first) + " by " +
                                std::to_string(step) + " and never reaches " +
                                std::to_string(last));
    }
    const std::uint64_t distance = step > 0 ? std::uint64_t(last) - std::uint64_t(first)
                                            : std::uint64_t(first) - std::uint64_t(last);
    const std::uint64_t stride = step > 0 ? std::uint64_t(step) : std::uint64_t(-(step + 1)) + 1;
    const std::uint64_t count = distance / stride + 1;
    if (count > kMaxDataFiles) {
        throw InvalidInputError(prefix + "names " + std::to_string(count) +
                                " files; isoview reads at most " + std::to_string(kMaxDataFiles));
    }

    std::vector<std::string> names;
    names.reserve(std::size_t(count));
    for (std::uint64_t n = 0; n < count; ++n) {
        // first + n * step stays between first and last, so it fits in 64 bits.
        const std::int64_t value = step > 0 ? std::int64_t(std::uint64_t(first) + n * stride)
                                            : std::int64_t(std::uint64_t(first) - n * stride);
        char digits[24];
        const auto result = std::to_chars(digits, digits + sizeof digits, value);
        std::string number(digits, result.ptr);
        const bool negative = value < 0;
        if (number.size() < width) {
            const std::size_t pad = width - number.size();
            if (zeroPad) {
                number.insert(negative ? 1 : 0, pad, '0');
            } else {
                number.insert(0, pad, ' ');
            }
        }
        names.push_back(before + number + after);
    }
    return names;
}

bool isFileNamePattern(const std::vector<std::string_view>& words)
{
    return words.size() >= 4 && words.size() <= 5 && words[0].find('%') != std::string_view::npos &&
           parseInteger(words[1]) && parseInteger(words[2]) && parseInteger(words[3]);
}

std::vector<std::string> expandFileNamePattern(std::string_view field,
                                               const std::vector<std::string_view>& words)
{
    return expandFileNamePattern(field, words[0], *parseInteger(words[1]), *parseInteger(words[2]),
                                 *parseInteger(words[3]));
}

std::size_t parseDataFileAxes(std::string_view text, std::size_t maxAxes, const std::string& prefix)
{
    const std::optional<std::uint64_t> axes = parseUnsigned(text);
    if (!axes || *axes == 0 || *axes > maxAxes) {
        throw InvalidInputError(prefix + "'" + printable(text) +
                                "' is not a number of axes from 1 to " + std::to_string(maxAxes));
    }
    return std::size_t(*axes);
}

} // namespace isoview::io::detail
