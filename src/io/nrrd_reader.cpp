#include "io/nrrd_reader.h"

#include "core/error.h"
#include "io/header_text.h"
#include "io/headered_volume_reader.h"
#include "io/volume_size_check.h"
#include "io/voxel_data_reader.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <utility>

namespace isoview::io {
namespace {

using detail::printable;

// Headers longer than this are not NRRD headers (a LIST of 100000 files fits easily).
constexpr std::size_t kMaxHeaderBytes = kMaxNrrdHeaderBytes;

[[noreturn]] void fail(const std::string& message)
{
    throw InvalidInputError(message);
}

// Known fields under their canonical names; teem's spellings without spaces map onto them.
// Fields isoview does not use are accepted and ignored.
std::optional<std::string> canonicalField(const std::string& name)
{
    static const std::map<std::string, std::string> aliases = {
        {"byteskip", "byte skip"},   {"lineskip", "line skip"}, {"datafile", "data file"},
        {"centerings", "centers"},   {"axismins", "axis mins"}, {"axismaxs", "axis maxs"},
        {"oldmin", "old min"},       {"oldmax", "old max"},     {"sampleunits", "sample units"},
        {"blocksize", "block size"},
    };
    static const char* const known[] = {"dimension",
                                        "type",
                                        "sizes",
                                        "endian",
                                        "encoding",
                                        "space",
                                        "space dimension",
                                        "space directions",
                                        "space origin",
                                        "spacings",
                                        "byte skip",
                                        "line skip",
                                        "data file",
                                        "content",
                                        "kinds",
                                        "centers",
                                        "labels",
                                        "units",
                                        "space units",
                                        "thicknesses",
                                        "axis mins",
                                        "axis maxs",
                                        "min",
                                        "max",
                                        "old min",
                                        "old max",
                                        "number",
                                        "sample units",
                                        "measurement frame",
                                        "block size"};
    const auto alias = aliases.find(name);
    const std::string canonical = alias != aliases.end() ? alias->second : name;
    for (const char* field : known) {
        if (canonical == field) return canonical;
    }
    return std::nullopt;
}

struct TypeName {
    const char* name;
    std::optional<ScalarType> type; // nullopt: a NRRD type isoview does not read
};

ScalarType parseType(std::string_view text)
{
    static const TypeName names[] = {
        {"signed char", ScalarType::Int8},
        {"int8", ScalarType::Int8},
        {"int8_t", ScalarType::Int8},
        {"uchar", ScalarType::UInt8},
        {"unsigned char", ScalarType::UInt8},
        {"uint8", ScalarType::UInt8},
        {"uint8_t", ScalarType::UInt8},
        {"short", ScalarType::Int16},
        {"short int", ScalarType::Int16},
        {"signed short", ScalarType::Int16},
        {"signed short int", ScalarType::Int16},
        {"int16", ScalarType::Int16},
        {"int16_t", ScalarType::Int16},
        {"ushort", ScalarType::UInt16},
        {"unsigned short", ScalarType::UInt16},
        {"unsigned short int", ScalarType::UInt16},
        {"uint16", ScalarType::UInt16},
        {"uint16_t", ScalarType::UInt16},
        {"int", ScalarType::Int32},
        {"signed int", ScalarType::Int32},
        {"int32", ScalarType::Int32},
        {"int32_t", ScalarType::Int32},
        {"uint", ScalarType::UInt32},
        {"unsigned int", ScalarType::UInt32},
        {"uint32", ScalarType::UInt32},
        {"uint32_t", ScalarType::UInt32},
        {"float", ScalarType::Float32},
        {"double", ScalarType::Float64},
        {"longlong", std::nullopt},
        {"long long", std::nullopt},
        {"long long int", std::nullopt},
        {"signed long long", std::nullopt},
        {"signed long long int", std::nullopt},
        {"int64", std::nullopt},
        {"int64_t", std::nullopt},
        {"ulonglong", std::nullopt},
        {"unsigned long long", std::nullopt},
        {"unsigned long long int", std::nullopt},
        {"uint64", std::nullopt},
        {"uint64_t", std::nullopt},
        {"block", std::nullopt},
    };
    // Case and runs of spaces do not matter: "Unsigned  Short" is "unsigned short".
    std::string normalized;
    for (std::string_view word : detail::splitWhitespace(text)) {
        if (!normalized.empty()) normalized += ' ';
        normalized += detail::lowerCase(word);
    }
    for (const TypeName& entry : names) {
        if (normalized != entry.name) continue;
        if (!entry.type) {
            fail("type '" + printable(text) +
                 "' is not supported: isoview reads 8-, 16- and "
                 "32-bit integers, float and double");
        }
        return *entry.type;
    }
    fail("unknown type '" + printable(text) +
         "' (expected signed char, uchar, short, ushort, "
         "int, uint, float, double or a synonym such as int16 or unsigned short)");
}

NrrdEncoding parseEncoding(std::string_view text)
{
    const std::string name = detail::lowerCase(text);
    if (name == "raw") return NrrdEncoding::Raw;
    if (name == "gzip" || name == "gz") return NrrdEncoding::Gzip;
    if (name == "txt" || name == "text" || name == "ascii" || name == "hex" || name == "bzip2" ||
        name == "bz2") {
        fail("encoding '" + printable(text) +
             "' is not supported: isoview reads raw and gzip "
             "NRRD data");
    }
    fail("unknown encoding '" + printable(text) + "' (expected raw or gzip)");
}

// "(1.5,0,-2)" -> its components; throws naming the field.
std::vector<double> parseVector(std::string_view field, std::string_view text)
{
    if (text.size() < 2 || text.front() != '(' || text.back() != ')') {
        fail(std::string(field) + ": '" + printable(text) + "' is not a vector like (1,0,0)");
    }
    std::vector<double> components;
    std::string_view inside = text.substr(1, text.size() - 2);
    while (true) {
        const std::size_t comma = inside.find(',');
        const std::string_view piece = detail::trim(inside.substr(0, comma));
        const std::optional<double> value = detail::parseDouble(piece);
        if (!value) {
            fail(std::string(field) + ": '" + printable(piece) + "' in '" + printable(text) +
                 "' is not a number");
        }
        components.push_back(*value);
        if (comma == std::string_view::npos) break;
        inside = inside.substr(comma + 1);
        if (components.size() > 16) fail(std::string(field) + ": vector with too many components");
    }
    return components;
}

// Splits "(1,0,0) (0,1,0) none" into its vectors; nullopt for "none".
std::vector<std::optional<std::vector<double>>> parseVectorList(std::string_view field,
                                                                std::string_view text)
{
    std::vector<std::optional<std::vector<double>>> vectors;
    std::size_t i = 0;
    while (true) {
        while (i < text.size() && (text[i] == ' ' || text[i] == '\t'))
            ++i;
        if (i >= text.size()) break;
        if (text[i] == '(') {
            const std::size_t close = text.find(')', i);
            const std::size_t nextOpen = text.find('(', i + 1);
            if (close == std::string_view::npos || nextOpen < close) {
                fail(std::string(field) + ": '" + printable(text.substr(i)) +
                     "' has no closing parenthesis");
            }
            vectors.emplace_back(parseVector(field, text.substr(i, close - i + 1)));
            i = close + 1;
        } else {
            std::size_t end = i;
            while (end < text.size() && text[end] != ' ' && text[end] != '\t')
                ++end;
            const std::string_view word = text.substr(i, end - i);
            if (detail::lowerCase(word) != "none") {
                fail(std::string(field) + ": '" + printable(word) +
                     "' is neither a vector like (1,0,0) nor none");
            }
            vectors.emplace_back(std::nullopt);
            i = end;
        }
        if (vectors.size() > 16) fail(std::string(field) + ": too many entries");
    }
    return vectors;
}

std::string countText(std::size_t count, const char* singular, const char* plural)
{
    return std::to_string(count) + " " + (count == 1 ? singular : plural);
}

// The fields of a header, in the order read, before they are interpreted.
struct RawFields {
    std::map<std::string, std::pair<std::string, std::size_t>> fields; // value, line number
    std::map<std::string, std::string> keyValues;
    std::vector<std::string> listedFiles;
};

std::optional<std::string> take(const RawFields& raw, const char* name)
{
    const auto it = raw.fields.find(name);
    if (it == raw.fields.end()) return std::nullopt;
    return it->second.first;
}

std::string require(const RawFields& raw, const char* name)
{
    std::optional<std::string> value = take(raw, name);
    if (!value) fail(std::string("the required field '") + name + ":' is missing");
    return *value;
}

void readMagic(std::string_view line, NrrdHeader& header)
{
    const std::size_t carriageReturn = line.find('\r');
    if (line.substr(0, 4) == "NRRD" && carriageReturn != std::string_view::npos &&
        carriageReturn + 1 < line.size()) {
        fail("the header's lines end in a carriage return alone (classic Mac OS text); NRRD "
             "needs line feeds (LF or CR LF): convert the header's line ends");
    }
    if (line.substr(0, 4) != "NRRD") {
        fail("not a NRRD file: it starts with '" + printable(line, 40) +
             "' instead of the NRRD000N magic");
    }
    if (line == "NRRD00.01") {
        header.version = 1;
        return;
    }
    if (line.size() == 8 && line.substr(0, 7) == "NRRD000" && line[7] >= '1' && line[7] <= '5') {
        header.version = line[7] - '0';
        return;
    }
    fail("unsupported NRRD magic '" + printable(line, 40) +
         "' (isoview reads NRRD0001 to "
         "NRRD0005)");
}

RawFields readFields(std::string_view text, NrrdHeader& header)
{
    detail::LineReader lines(text);
    const std::optional<detail::HeaderLine> magic = lines.next();
    if (!magic) fail("not a NRRD file: it is empty");
    readMagic(magic->text, header);

    RawFields raw;
    bool listing = false; // after "data file: LIST", lines name the data files
    header.headerBytes = text.size();
    while (const std::optional<detail::HeaderLine> line = lines.next()) {
        if (line->text.empty()) {
            if (line->terminated) {
                header.endsWithEmptyLine = true;
                header.headerBytes = lines.offset();
                break;
            }
            continue; // a lone '\r' at the very end of the text: nothing follows
        }
        const std::string where =
            "line " + std::to_string(line->number) + " '" + printable(line->text, 40) + "'";
        if (listing) {
            const std::string_view name = detail::trim(line->text);
            if (!name.empty()) raw.listedFiles.emplace_back(name);
            if (raw.listedFiles.size() > detail::kMaxDataFiles) {
                fail("the data file LIST names more than " + std::to_string(detail::kMaxDataFiles) +
                     " files");
            }
            continue;
        }
        if (line->text.front() == '#') continue;
        if (detail::trim(line->text).empty()) continue;
        const std::size_t colon = line->text.find(':');
        if (colon == std::string_view::npos) {
            fail(where + " is neither 'field: value' nor 'key:=value'");
        }
        if (colon + 1 < line->text.size() && line->text[colon + 1] == '=') {
            raw.keyValues[std::string(line->text.substr(0, colon))] =
                std::string(line->text.substr(colon + 2));
            continue;
        }
        const std::string name = detail::lowerCase(detail::trim(line->text.substr(0, colon)));
        const std::string value(detail::trim(line->text.substr(colon + 1)));
        const std::optional<std::string> field = canonicalField(name);
        if (!field) {
            if (header.warnings.size() < 32) {
                header.warnings.push_back("ignored unknown NRRD field on " + where);
            }
            continue;
        }
        if (raw.fields.count(*field) != 0) {
            fail("the field '" + *field + ":' appears twice (lines " +
                 std::to_string(raw.fields[*field].second) + " and " +
                 std::to_string(line->number) + ")");
        }
        raw.fields[*field] = {value, line->number};
        if (*field == "data file" && detail::lowerCase(value.substr(0, 4)) == "list" &&
            (value.size() == 4 || value[4] == ' ' || value[4] == '\t')) {
            listing = true;
        }
    }
    return raw;
}

// The axes of the sizes field that are spatial: the last three.
constexpr std::size_t kSpatialAxes = 3;

void readSizes(const RawFields& raw, NrrdHeader& header)
{
    const std::string dimensionText = require(raw, "dimension");
    const std::optional<std::uint64_t> dimension = detail::parseUnsigned(dimensionText);
    if (!dimension || *dimension == 0) {
        fail("dimension: '" + printable(dimensionText) + "' is not a positive whole number");
    }
    if (*dimension != 3 && *dimension != 4) {
        fail("dimension: " + std::to_string(*dimension) +
             "-D data; isoview reads 3-D volumes "
             "(or 4-D with a leading axis of size 1)");
    }
    const std::string sizesText = require(raw, "sizes");
    const std::vector<std::string_view> pieces = detail::splitWhitespace(sizesText);
    if (pieces.size() != *dimension) {
        fail("sizes: '" + printable(sizesText) + "' has " +
             countText(pieces.size(), "value", "values") + ", but dimension is " +
             std::to_string(*dimension));
    }
    for (std::string_view piece : pieces) {
        const std::optional<std::uint64_t> size = detail::parseUnsigned(piece);
        if (!size || *size == 0 || *size > std::numeric_limits<std::uint32_t>::max()) {
            fail("sizes: '" + printable(piece) + "' is not a whole number from 1 to 4294967295");
        }
        header.sizes.push_back(*size);
    }
    if (*dimension == 4 && header.sizes[0] != 1) {
        fail("4-D data with sizes '" + printable(sizesText) +
             "': isoview reads 4-D NRRD only "
             "when the first axis has size 1 (one value per voxel)");
    }
    const std::size_t first = header.sizes.size() - kSpatialAxes;
    header.dims = glm::uvec3(glm::uint(header.sizes[first]), glm::uint(header.sizes[first + 1]),
                             glm::uint(header.sizes[first + 2]));
    // The three volume axes must be space: an axis of colour or vector components ("kinds:
    // RGB-color domain domain", a 2-D colour image) would otherwise pass for a thin volume.
    if (const std::optional<std::string> kindsText = take(raw, "kinds")) {
        const std::vector<std::string_view> kinds = detail::splitWhitespace(*kindsText);
        if (kinds.size() != *dimension) {
            fail("kinds: '" + printable(*kindsText) + "' has " +
                 countText(kinds.size(), "value", "values") + ", but dimension is " +
                 std::to_string(*dimension));
        }
        for (std::size_t axis = first; axis < kinds.size(); ++axis) {
            const std::string_view kind = kinds[axis];
            if (kind != "domain" && kind != "space" && kind != "none" && kind != "???") {
                fail("kinds: axis " + std::to_string(axis) + " is '" + printable(kind) +
                     "', not space: the file holds " +
                     (kind.find("color") != std::string_view::npos ? "colour components"
                                                                   : "components per sample") +
                     ", and isoview reads scalar volumes");
            }
        }
    }
}

void readLayout(const RawFields& raw, NrrdHeader& header)
{
    header.type = parseType(require(raw, "type"));
    header.encoding = parseEncoding(require(raw, "encoding"));
    if (!detail::voxelByteCount(header.dims, header.type)) {
        fail("sizes: " + detail::dimsText(header.dims, header.type) +
             " needs more than 2^64 bytes");
    }
    if (const std::optional<std::string> endian = take(raw, "endian")) {
        const std::string name = detail::lowerCase(*endian);
        if (name == "little") {
            header.bigEndian = false;
        } else if (name == "big") {
            header.bigEndian = true;
        } else {
            fail("endian: '" + printable(*endian) + "' is neither little nor big");
        }
    } else if (scalarSize(header.type) > 1) {
        fail("the field 'endian:' is missing; it is required for " +
             std::string(scalarTypeName(header.type)) + " data");
    }
    if (const std::optional<std::string> skip = take(raw, "byte skip")) {
        const std::optional<std::int64_t> value = detail::parseInteger(*skip);
        if (!value || *value < -1) {
            fail("byte skip: '" + printable(*skip) + "' is not -1 or a whole number >= 0");
        }
        if (*value == -1 && header.encoding != NrrdEncoding::Raw) {
            fail("byte skip: -1 (data at the end of the file) works only with raw encoding");
        }
        header.byteSkip = *value;
    }
    if (const std::optional<std::string> skip = take(raw, "line skip")) {
        const std::optional<std::uint64_t> value = detail::parseUnsigned(*skip);
        if (!value) fail("line skip: '" + printable(*skip) + "' is not a whole number >= 0");
        header.lineSkip = *value;
    }
    if (const std::optional<std::string> content = take(raw, "content")) {
        header.content = *content;
    }
}

// Geometry: spacing and unit direction columns from space directions (or spacings), the
// origin, then the space converted to LPS.
void readGeometry(const RawFields& raw, NrrdHeader& header)
{
    const std::size_t dimension = header.sizes.size();
    const std::size_t first = dimension - kSpatialAxes;
    VolumeGeometry& geometry = header.geometry;

    std::optional<std::string> space = take(raw, "space");
    const std::optional<std::string> spaceDimension = take(raw, "space dimension");
    if (space && spaceDimension) {
        fail("both 'space:' and 'space dimension:' are given; a NRRD header has one or the other");
    }
    if (spaceDimension && detail::parseUnsigned(*spaceDimension) != std::uint64_t(3)) {
        fail("space dimension: '" + printable(*spaceDimension) + "'; isoview reads 3-D spaces");
    }
    glm::dvec3 flip{1.0, 1.0, 1.0}; // converts the header's space to LPS
    if (space) {
        header.space = detail::lowerCase(*space);
        const std::string& name = header.space;
        if (name == "left-posterior-superior" || name == "lps") {
        } else if (name == "right-anterior-superior" || name == "ras") {
            flip = {-1.0, -1.0, 1.0};
        } else if (name == "left-anterior-superior" || name == "las") {
            flip = {1.0, -1.0, 1.0};
        } else if (name == "scanner-xyz" || name == "3d-right-handed" || name == "3d-left-handed") {
            header.warnings.push_back("space '" + *space +
                                      "' is not a patient space; its "
                                      "coordinates are used as LPS millimetres");
        } else if (name.ends_with("-time") || name == "rast" || name == "last" || name == "lpst") {
            fail("space: '" + printable(*space) + "' has a time axis; isoview reads 3-D spaces");
        } else {
            fail("space: unknown space '" + printable(*space) +
                 "' (expected for example "
                 "left-posterior-superior or right-anterior-superior)");
        }
    }

    const std::optional<std::string> directions = take(raw, "space directions");
    const std::optional<std::string> spacings = take(raw, "spacings");
    if (directions) {
        if (!space && !spaceDimension) {
            fail("'space directions:' needs a 'space:' or 'space dimension:' field");
        }
        const auto vectors = parseVectorList("space directions", *directions);
        if (vectors.size() != dimension) {
            fail("space directions: '" + printable(*directions) + "' has " +
                 countText(vectors.size(), "entry", "entries") + ", but dimension is " +
                 std::to_string(dimension));
        }
        for (std::size_t axis = 0; axis < dimension; ++axis) {
            const auto& vector = vectors[axis];
            if (axis < first) {
                if (vector) fail("space directions: the non-spatial first axis must be none");
                continue;
            }
            if (!vector || vector->size() != 3) {
                fail("space directions: axis " + std::to_string(axis) +
                     " needs a vector of 3 numbers like (0.5,0,0)");
            }
            const glm::dvec3 v((*vector)[0], (*vector)[1], (*vector)[2]);
            const double length = glm::length(v);
            if (!std::isfinite(length) || !(length > 0.0) || !std::isfinite(v.x) ||
                !std::isfinite(v.y) || !std::isfinite(v.z)) {
                fail("space directions: axis " + std::to_string(axis) +
                     " has no usable length (a zero or non-finite vector)");
            }
            const int a = int(axis - first);
            geometry.spacing[a] = length;
            geometry.direction[a] = v / length;
        }
        if (spacings) header.warnings.push_back("'spacings:' ignored: 'space directions:' given");
    } else if (spacings) {
        const std::vector<std::string_view> pieces = detail::splitWhitespace(*spacings);
        if (pieces.size() != dimension) {
            fail("spacings: '" + printable(*spacings) + "' has " +
                 countText(pieces.size(), "value", "values") + ", but dimension is " +
                 std::to_string(dimension));
        }
        for (std::size_t axis = first; axis < dimension; ++axis) {
            const std::optional<double> value = detail::parseDouble(pieces[axis]);
            if (!value || !std::isfinite(*value) || *value == 0.0) {
                fail("spacings: '" + printable(pieces[axis]) + "' on axis " + std::to_string(axis) +
                     " is not a non-zero number");
            }
            const int a = int(axis - first);
            geometry.spacing[a] = std::abs(*value);
            if (*value < 0.0) geometry.direction[a] = -geometry.direction[a];
        }
    }

    if (const std::optional<std::string> origin = take(raw, "space origin")) {
        const std::vector<double> v = parseVector("space origin", *origin);
        if (v.size() != 3 || !std::isfinite(v[0]) || !std::isfinite(v[1]) || !std::isfinite(v[2])) {
            fail("space origin: '" + printable(*origin) +
                 "' is not 3 finite numbers like "
                 "(0,0,0)");
        }
        geometry.origin = glm::dvec3(v[0], v[1], v[2]);
    }

    const double determinant = glm::determinant(geometry.direction);
    if (!(std::abs(determinant) > 1e-6)) {
        fail("space directions: the axes are (nearly) parallel, so the voxels have no volume");
    }
    for (int a = 0; a < 3; ++a)
        geometry.direction[a] *= flip;
    geometry.origin *= flip;
}

void readRescale(const RawFields& raw, NrrdHeader& header)
{
    const auto read = [&](const char* key) -> std::optional<double> {
        const auto it = raw.keyValues.find(key);
        if (it == raw.keyValues.end()) return std::nullopt;
        const std::optional<double> value = detail::parseDouble(detail::trim(it->second));
        if (!value || !std::isfinite(*value)) {
            header.warnings.push_back(std::string("ignored ") + key + ":='" +
                                      printable(it->second) + "': not a finite number");
            return std::nullopt;
        }
        return value;
    };
    if (const std::optional<double> slope = read("isoview_rescale_slope")) {
        if (*slope > 0.0) {
            header.rescale.slope = *slope;
        } else {
            header.warnings.push_back("ignored isoview_rescale_slope: it must be positive");
        }
    }
    if (const std::optional<double> intercept = read("isoview_rescale_intercept")) {
        header.rescale.intercept = *intercept;
    }
}

void readDataFiles(const RawFields& raw, NrrdHeader& header)
{
    const std::optional<std::string> dataFile = take(raw, "data file");
    if (!dataFile) return;
    const std::size_t dimension = header.sizes.size();
    const std::vector<std::string_view> words = detail::splitWhitespace(*dataFile);
    if (words.empty()) fail("data file: no file name given");

    const auto readAxes = [&](std::string_view text) {
        return detail::parseDataFileAxes(text, dimension, "data file: ");
    };

    header.dataFileAxes = dimension - 1;
    if (detail::lowerCase(words[0]) == "list") {
        if (words.size() > 2) fail("data file: 'LIST' takes at most a number of axes");
        if (words.size() == 2) header.dataFileAxes = readAxes(words[1]);
        header.dataFiles = raw.listedFiles;
    } else if (detail::isFileNamePattern(words)) {
        if (words.size() == 5) header.dataFileAxes = readAxes(words[4]);
        header.dataFiles = detail::expandFileNamePattern("data file", words);
    } else {
        header.dataFileAxes = dimension;
        header.dataFiles = {*dataFile};
    }

    // Each file holds the fastest dataFileAxes axes; one file per combination of the others.
    std::optional<std::uint64_t> files = 1;
    for (std::size_t axis = header.dataFileAxes; axis < dimension && files; ++axis) {
        files = detail::checkedMultiply(*files, header.sizes[axis]);
    }
    if (!files || *files != header.dataFiles.size()) {
        fail("data file: " + countText(header.dataFiles.size(), "file", "files") +
             " named, but sizes split into files of " +
             countText(header.dataFileAxes, "axis", "axes") + " need " +
             (files ? std::to_string(*files) : std::string("more than 2^64")));
    }
}

} // namespace

NrrdHeader parseNrrdHeader(std::string_view headerText)
{
    NrrdHeader header;
    const RawFields raw = readFields(headerText, header);
    readSizes(raw, header);
    readLayout(raw, header);
    readGeometry(raw, header);
    readRescale(raw, header);
    readDataFiles(raw, header);
    header.keyValues = raw.keyValues;
    return header;
}

Volume readNrrd(const std::filesystem::path& path, LoadMonitor* monitor)
{
    const std::string what = "NRRD " + detail::quotedPath(path);
    auto [head, header] = detail::readHeader(path, kMaxHeaderBytes, what, monitor, parseNrrdHeader);
    const bool attached = header.dataFiles.empty();
    if (attached && !header.endsWithEmptyLine) {
        if (head.fileSize > head.bytes.size()) {
            throw InvalidInputError("cannot read " + what +
                                    ": no empty line ends the header "
                                    "within its first " +
                                    detail::humanBytes(kMaxHeaderBytes));
        }
        throw IoError("cannot read " + what +
                      ": the header names no 'data file:' and no "
                      "empty line after it starts attached data, so there are no voxels");
    }

    detail::HeaderedVolume volume;
    volume.request.what = what;
    volume.request.encoding = header.encoding == NrrdEncoding::Raw ? detail::VoxelEncoding::Raw
                                                                   : detail::VoxelEncoding::Deflate;
    volume.request.dims = header.dims;
    volume.request.type = header.type;
    volume.request.bigEndian = header.bigEndian;
    volume.layout.skipLines = header.lineSkip;
    if (header.encoding == NrrdEncoding::Raw) {
        volume.layout.atEnd = header.byteSkip == -1;
        volume.layout.skipBytes = header.byteSkip > 0 ? std::uint64_t(header.byteSkip) : 0;
    } else {
        volume.layout.skipDecoded = std::uint64_t(header.byteSkip); // -1 was rejected for gzip
    }
    volume.headerPath = path;
    if (attached) volume.attachedAt = header.headerBytes;
    volume.dataFiles = std::move(header.dataFiles);
    volume.geometry = header.geometry;
    volume.rescale = header.rescale;
    volume.metadata.sourceFormat = "NRRD";
    volume.metadata.patientSpace =
        header.space == "left-posterior-superior" || header.space == "lps" ||
        header.space == "right-anterior-superior" || header.space == "ras" ||
        header.space == "left-anterior-superior" || header.space == "las";
    volume.metadata.seriesDescription = header.content;
    // A 3D Slicer segmentation names its segments in Segment<N>_ keys.
    volume.metadata.declaresLabelMap = header.keyValues.contains("Segment0_LabelValue");
    volume.metadata.warnings = std::move(header.warnings);
    volume.encodingName = header.encoding == NrrdEncoding::Raw ? "raw" : "gzip";
    return detail::readHeaderedVolume(std::move(volume), monitor);
}

} // namespace isoview::io
