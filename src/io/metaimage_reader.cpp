#include "io/metaimage_reader.h"

#include "core/error.h"
#include "io/header_text.h"
#include "io/headered_volume_reader.h"
#include "io/volume_size_check.h"
#include "io/voxel_data_reader.h"

#include <cmath>
#include <limits>
#include <map>
#include <utility>

namespace isoview::io {
namespace {

using detail::printable;

constexpr std::size_t kMaxHeaderBytes = 4 << 20;

[[noreturn]] void fail(const std::string& message)
{
    throw InvalidInputError(message);
}

// Keys isoview reads, and keys it knows it may ignore (all lower case).
bool isKnownKey(const std::string& key)
{
    static const char* const known[] = {"objecttype",
                                        "objectsubtype",
                                        "ndims",
                                        "dimsize",
                                        "elementtype",
                                        "elementnumberofchannels",
                                        "elementspacing",
                                        "elementsize",
                                        "offset",
                                        "position",
                                        "origin",
                                        "transformmatrix",
                                        "rotation",
                                        "orientation",
                                        "centerofrotation",
                                        "anatomicalorientation",
                                        "elementbyteordermsb",
                                        "binarydatabyteordermsb",
                                        "binarydata",
                                        "compresseddata",
                                        "compresseddatasize",
                                        "headersize",
                                        "headersizes",
                                        "modality",
                                        "elementdatafile",
                                        "comment",
                                        "name",
                                        "id",
                                        "parentid",
                                        "color",
                                        "elementmin",
                                        "elementmax",
                                        "acquisitiondate",
                                        "transformtype",
                                        "sequenceid",
                                        "distanceunits",
                                        "elementorigin",
                                        "elementtoimagetransformmatrix",
                                        "patientposition"};
    for (const char* name : known) {
        if (key == name) return true;
    }
    return false;
}

struct Entry {
    std::string key; // as written
    std::string value;
    std::size_t line = 0;
};

struct RawKeys {
    std::map<std::string, Entry> keys; // by lower-case key
    std::vector<std::string> listedFiles;
};

const Entry* find(const RawKeys& raw, const char* key)
{
    const auto it = raw.keys.find(key);
    return it == raw.keys.end() ? nullptr : &it->second;
}

const Entry& require(const RawKeys& raw, const char* key, const char* spelling)
{
    const Entry* entry = find(raw, key);
    if (entry == nullptr) fail(std::string("the required key '") + spelling + "' is missing");
    return *entry;
}

std::string label(const Entry& entry)
{
    return entry.key + " (line " + std::to_string(entry.line) + ")";
}

bool parseBool(const Entry& entry)
{
    const std::string value = detail::lowerCase(entry.value);
    if (value == "true" || value == "1") return true;
    if (value == "false" || value == "0") return false;
    fail(label(entry) + ": '" + printable(entry.value) + "' is neither True nor False");
}

std::vector<double> parseNumbers(const Entry& entry, std::size_t count)
{
    const std::vector<std::string_view> pieces = detail::splitWhitespace(entry.value);
    if (pieces.size() != count) {
        fail(label(entry) + ": '" + printable(entry.value) + "' has " +
             std::to_string(pieces.size()) + " values, expected " + std::to_string(count));
    }
    std::vector<double> numbers;
    for (std::string_view piece : pieces) {
        const std::optional<double> value = detail::parseDouble(piece);
        if (!value || !std::isfinite(*value)) {
            fail(label(entry) + ": '" + printable(piece) + "' is not a finite number");
        }
        numbers.push_back(*value);
    }
    return numbers;
}

RawKeys readKeys(std::string_view text, MetaImageHeader& header)
{
    detail::LineReader lines(text);
    RawKeys raw;
    bool sawDataFile = false;
    while (const std::optional<detail::HeaderLine> line = lines.next()) {
        if (sawDataFile) { // after "ElementDataFile = LIST": one file name per line
            const std::string_view name = detail::trim(line->text);
            if (!name.empty()) raw.listedFiles.emplace_back(name);
            if (raw.listedFiles.size() > detail::kMaxDataFiles) {
                fail("the ElementDataFile LIST names more than " +
                     std::to_string(detail::kMaxDataFiles) + " files");
            }
            continue;
        }
        if (detail::trim(line->text).empty()) continue;
        const std::size_t equals = line->text.find('=');
        if (equals == std::string_view::npos) {
            fail("line " + std::to_string(line->number) + " '" + printable(line->text, 40) +
                 "' is not 'Key = Value'" +
                 (raw.keys.empty() ? "; this is not a MetaImage header" : ""));
        }
        Entry entry{std::string(detail::trim(line->text.substr(0, equals))),
                    std::string(detail::trim(line->text.substr(equals + 1))), line->number};
        const std::string key = detail::lowerCase(entry.key);
        if (key.empty()) fail("line " + std::to_string(line->number) + " has no key before '='");
        if (!isKnownKey(key) && header.warnings.size() < 32) {
            header.warnings.push_back("ignored unknown MetaImage key '" + printable(entry.key) +
                                      "' on line " + std::to_string(line->number));
        }
        if (raw.keys.count(key) != 0) {
            fail("the key '" + printable(entry.key) + "' appears twice (lines " +
                 std::to_string(raw.keys[key].line) + " and " + std::to_string(line->number) + ")");
        }
        raw.keys[key] = entry;
        if (key == "elementdatafile") {
            header.headerBytes = lines.offset();
            const std::vector<std::string_view> words = detail::splitWhitespace(entry.value);
            const bool list = !words.empty() && detail::lowerCase(words[0]) == "list";
            if (!list) break; // the data (LOCAL) or nothing follows
            sawDataFile = true;
        }
    }
    if (find(raw, "elementdatafile") == nullptr) {
        fail(raw.keys.empty() ? "not a MetaImage header: it has no 'Key = Value' lines"
                              : "the key 'ElementDataFile' is missing (it must be the last key)");
    }
    return raw;
}

ScalarType parseElementType(const Entry& entry)
{
    static const std::pair<const char*, ScalarType> types[] = {
        {"MET_UCHAR", ScalarType::UInt8},   {"MET_CHAR", ScalarType::Int8},
        {"MET_USHORT", ScalarType::UInt16}, {"MET_SHORT", ScalarType::Int16},
        {"MET_UINT", ScalarType::UInt32},   {"MET_INT", ScalarType::Int32},
        {"MET_FLOAT", ScalarType::Float32}, {"MET_DOUBLE", ScalarType::Float64},
    };
    for (const auto& [name, type] : types) {
        if (entry.value == name) return type;
    }
    if (entry.value.rfind("MET_", 0) == 0) {
        fail(label(entry) + ": '" + printable(entry.value) +
             "' is not supported (isoview reads "
             "MET_UCHAR, MET_CHAR, MET_USHORT, MET_SHORT, MET_UINT, MET_INT, MET_FLOAT and "
             "MET_DOUBLE)");
    }
    fail(label(entry) + ": unknown element type '" + printable(entry.value) + "'");
}

void readLayout(const RawKeys& raw, MetaImageHeader& header)
{
    if (const Entry* object = find(raw, "objecttype")) {
        if (detail::lowerCase(object->value) != "image") {
            fail(label(*object) + ": '" + printable(object->value) + "'; isoview reads Image");
        }
    }
    const Entry& ndims = require(raw, "ndims", "NDims");
    if (detail::parseUnsigned(ndims.value) != std::uint64_t(3)) {
        fail(label(ndims) + ": '" + printable(ndims.value) +
             "'; isoview reads 3-D images "
             "(NDims = 3)");
    }
    const Entry& dimSize = require(raw, "dimsize", "DimSize");
    const std::vector<std::string_view> sizes = detail::splitWhitespace(dimSize.value);
    if (sizes.size() != 3) {
        fail(label(dimSize) + ": '" + printable(dimSize.value) + "' has " +
             std::to_string(sizes.size()) + " values, expected 3");
    }
    for (int axis = 0; axis < 3; ++axis) {
        const std::optional<std::uint64_t> size = detail::parseUnsigned(sizes[std::size_t(axis)]);
        if (!size || *size == 0 || *size > std::numeric_limits<std::uint32_t>::max()) {
            fail(label(dimSize) + ": '" + printable(sizes[std::size_t(axis)]) +
                 "' is not a whole number from 1 to 4294967295");
        }
        header.dims[axis] = glm::uint(*size);
    }
    header.type = parseElementType(require(raw, "elementtype", "ElementType"));
    if (!detail::voxelByteCount(header.dims, header.type)) {
        fail(label(dimSize) + ": " + detail::dimsText(header.dims, header.type) +
             " needs more than 2^64 bytes");
    }
    if (const Entry* channels = find(raw, "elementnumberofchannels")) {
        if (detail::parseUnsigned(channels->value) != std::uint64_t(1)) {
            fail(label(*channels) + ": '" + printable(channels->value) +
                 "'; isoview reads one "
                 "value per voxel");
        }
    }

    const Entry* msb = find(raw, "elementbyteordermsb");
    const Entry* binaryMsb = find(raw, "binarydatabyteordermsb");
    if (msb != nullptr && binaryMsb != nullptr && parseBool(*msb) != parseBool(*binaryMsb)) {
        fail(label(*msb) + " and " + label(*binaryMsb) + " contradict each other");
    }
    if (msb != nullptr) header.bigEndian = parseBool(*msb);
    if (binaryMsb != nullptr) header.bigEndian = parseBool(*binaryMsb);

    if (const Entry* binary = find(raw, "binarydata")) {
        if (!parseBool(*binary)) {
            fail(label(*binary) + ": False (ASCII voxel values) is not supported");
        }
    }
    if (const Entry* compressed = find(raw, "compresseddata")) {
        header.compressed = parseBool(*compressed);
    }
    if (const Entry* size = find(raw, "compresseddatasize")) {
        const std::optional<std::uint64_t> bytes = detail::parseUnsigned(size->value);
        if (!bytes) fail(label(*size) + ": '" + printable(size->value) + "' is not a byte count");
        if (header.compressed) header.compressedDataSize = bytes;
    }
    if (const Entry* skip = find(raw, "headersize")) {
        const std::optional<std::int64_t> bytes = detail::parseInteger(skip->value);
        if (!bytes || *bytes < -1) {
            fail(label(*skip) + ": '" + printable(skip->value) + "' is not -1 or a byte count");
        }
        if (*bytes == -1 && header.compressed) {
            fail(label(*skip) + ": -1 (data at the end of the file) works only for "
                                "uncompressed data");
        }
        header.headerSize = *bytes;
    }
    if (const Entry* modality = find(raw, "modality")) {
        static const std::pair<const char*, const char*> names[] = {
            {"MET_MOD_CT", "CT"}, {"MET_MOD_MR", "MR"}, {"MET_MOD_NM", "NM"}, {"MET_MOD_US", "US"}};
        for (const auto& [name, short_name] : names) {
            if (modality->value == name) header.modality = short_name;
        }
    }
}

// The first of several synonymous keys present; a warning when the others disagree.
const Entry* firstOf(const RawKeys& raw, std::initializer_list<const char*> keys,
                     MetaImageHeader& header)
{
    const Entry* chosen = nullptr;
    for (const char* key : keys) {
        const Entry* entry = find(raw, key);
        if (entry == nullptr) continue;
        if (chosen == nullptr) {
            chosen = entry;
        } else if (detail::splitWhitespace(entry->value) !=
                   detail::splitWhitespace(chosen->value)) {
            header.warnings.push_back("used " + chosen->key + " and ignored " + entry->key +
                                      ", which differs from it");
        }
    }
    return chosen;
}

void readGeometry(const RawKeys& raw, MetaImageHeader& header)
{
    VolumeGeometry& geometry = header.geometry;
    glm::dvec3 sign{1.0, 1.0, 1.0}; // a negative spacing flips its axis
    if (const Entry* spacing = firstOf(raw, {"elementspacing", "elementsize"}, header)) {
        const std::vector<double> values = parseNumbers(*spacing, 3);
        for (int a = 0; a < 3; ++a) {
            if (values[std::size_t(a)] == 0.0) {
                fail(label(*spacing) + ": axis " + std::to_string(a) + " has spacing 0");
            }
            geometry.spacing[a] = std::abs(values[std::size_t(a)]);
            if (values[std::size_t(a)] < 0.0) sign[a] = -1.0;
        }
    }
    if (const Entry* matrix =
            firstOf(raw, {"transformmatrix", "rotation", "orientation"}, header)) {
        const std::vector<double> values = parseNumbers(*matrix, 9);
        for (int a = 0; a < 3; ++a) {
            const std::size_t at = 3 * std::size_t(a);
            const glm::dvec3 column(values[at], values[at + 1], values[at + 2]);
            const double length = glm::length(column);
            if (!std::isfinite(length) || !(length > 0.0)) {
                fail(label(*matrix) + ": the direction of axis " + std::to_string(a) + " (values " +
                     std::to_string(at + 1) + " to " + std::to_string(at + 3) +
                     ") has no usable length");
            }
            // Unit columns are kept bit for bit; others are normalized.
            const glm::dvec3 unit = std::abs(length - 1.0) <= 1e-12 ? column : column / length;
            geometry.direction[a] = unit;
        }
        if (!(std::abs(glm::determinant(geometry.direction)) > 1e-6)) {
            fail(label(*matrix) + ": the axis directions are (nearly) parallel");
        }
    }
    for (int a = 0; a < 3; ++a)
        geometry.direction[a] *= sign[a];
    if (const Entry* origin = firstOf(raw, {"offset", "origin", "position"}, header)) {
        const std::vector<double> values = parseNumbers(*origin, 3);
        geometry.origin = glm::dvec3(values[0], values[1], values[2]);
    }
}

void readDataFiles(const RawKeys& raw, MetaImageHeader& header)
{
    const Entry& entry = *find(raw, "elementdatafile");
    const std::vector<std::string_view> words = detail::splitWhitespace(entry.value);
    if (words.empty()) fail(label(entry) + ": no file name given");
    const std::string first = detail::lowerCase(words[0]);

    const auto readAxes = [&](std::string_view text) {
        return detail::parseDataFileAxes(text, 3, label(entry) + ": ");
    };

    if (first == "local") {
        if (words.size() != 1) fail(label(entry) + ": LOCAL takes nothing after it");
        header.local = true;
        return;
    }
    header.dataFileAxes = 2;
    if (first == "list") {
        if (words.size() > 2) fail(label(entry) + ": LIST takes at most a number of axes");
        if (words.size() == 2) header.dataFileAxes = readAxes(words[1]);
        header.dataFiles = raw.listedFiles;
    } else if (detail::isFileNamePattern(words)) {
        if (words.size() == 5) header.dataFileAxes = readAxes(words[4]);
        header.dataFiles = detail::expandFileNamePattern("ElementDataFile", words);
    } else {
        header.dataFileAxes = 3;
        header.dataFiles = {entry.value};
    }
    std::uint64_t files = 1;
    for (std::size_t axis = header.dataFileAxes; axis < 3; ++axis)
        files *= header.dims[int(axis)];
    if (files != header.dataFiles.size()) {
        fail(label(entry) + ": " + std::to_string(header.dataFiles.size()) +
             " file(s) named, "
             "but DimSize split into files of " +
             std::to_string(header.dataFileAxes) + " axes needs " + std::to_string(files));
    }
}

} // namespace

MetaImageHeader parseMetaImageHeader(std::string_view text)
{
    MetaImageHeader header;
    const RawKeys raw = readKeys(text, header);
    readLayout(raw, header);
    readGeometry(raw, header);
    readDataFiles(raw, header);
    return header;
}

Volume readMetaImage(const std::filesystem::path& path, LoadMonitor* monitor)
{
    const std::string what = "MetaImage " + detail::quotedPath(path);
    MetaImageHeader header =
        detail::readHeader(path, kMaxHeaderBytes, what, monitor, parseMetaImageHeader).header;

    detail::HeaderedVolume volume;
    volume.request.what = what;
    volume.request.encoding =
        header.compressed ? detail::VoxelEncoding::Deflate : detail::VoxelEncoding::Raw;
    volume.request.dims = header.dims;
    volume.request.type = header.type;
    volume.request.bigEndian = header.bigEndian;
    volume.layout.atEnd = header.headerSize == -1;
    volume.layout.skipBytes = header.headerSize > 0 ? std::uint64_t(header.headerSize) : 0;
    // The stated stream size belongs to the one data file, when there is one.
    if (header.local || header.dataFiles.size() == 1) {
        volume.layout.compressedBytes = header.compressedDataSize;
    }
    volume.headerPath = path;
    if (header.local) volume.attachedAt = header.headerBytes;
    volume.dataFiles = std::move(header.dataFiles);
    volume.geometry = header.geometry;
    volume.metadata.sourceFormat = "MetaImage";
    volume.metadata.modality = header.modality;
    volume.metadata.warnings = std::move(header.warnings);
    volume.encodingName = header.compressed ? "compressed" : "raw";
    return detail::readHeaderedVolume(std::move(volume), monitor);
}

} // namespace isoview::io
