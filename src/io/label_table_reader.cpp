#include "io/label_table_reader.h"

#include "core/error.h"
#include "io/header_text.h"
#include "io/headered_volume_reader.h"
#include "io/nrrd_reader.h"
#include "io/read_only_file.h"
#include "io/volume_size_check.h"

#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

namespace isoview::io {
namespace {

using detail::HeaderLine;
using detail::printable;

// The formats share one line grammar each; the first entry line decides which one every
// other line must follow. Slicer and FreeSurfer tables look the same line by line and are
// told apart once the whole file is read (see resolveColorTable).
enum class Format { Semicolon, ColorTable, ItkSnap };

const char* formatName(Format format)
{
    switch (format) {
    case Format::Semicolon: return "an AFNI semicolon entry 'number;abbrev;name;group;subgroup'";
    case Format::ColorTable: return "a Slicer or FreeSurfer colour-table entry 'id name r g b a'";
    case Format::ItkSnap: return "an ITK-SNAP entry 'IDX R G B A VIS MSH \"LABEL\"'";
    }
    return "";
}

[[noreturn]] void failLine(const HeaderLine& line, const std::string& why)
{
    throw InvalidInputError("line " + std::to_string(line.number) + " '" +
                            printable(line.text, 40) + "': " + why);
}

// Looks like a number (the shape test: "1.5" and "-3" do, "Left" does not); whether it is an
// acceptable one is checked afterwards, so that the message says what is wrong with it.
bool numeric(std::string_view token)
{
    return detail::parseDouble(token).has_value();
}

std::uint32_t labelValue(const HeaderLine& line, std::string_view token)
{
    const std::string quoted = "the label '" + std::string(token) + "'";
    if (const std::optional<std::int64_t> value = detail::parseInteger(token)) {
        if (*value < 0) failLine(line, quoted + " is negative");
        if (*value > std::int64_t(LabelTable::kMaxLabel)) {
            failLine(line, quoted + " is over " + std::to_string(LabelTable::kMaxLabel) +
                               ", the largest label value");
        }
        return std::uint32_t(*value);
    }
    const std::optional<double> number = detail::parseDouble(token);
    if (number && std::isfinite(*number) && *number == std::floor(*number)) {
        failLine(line, quoted + " is outside 0.." + std::to_string(LabelTable::kMaxLabel));
    }
    failLine(line, quoted + " is not a whole number");
}

int byteComponent(const HeaderLine& line, std::string_view token)
{
    const std::optional<std::int64_t> value = detail::parseInteger(token);
    if (!value) failLine(line, "the colour component '" + std::string(token) + "' is not whole");
    if (*value < 0 || *value > 255) {
        failLine(line, "the colour component " + std::string(token) + " is outside 0..255");
    }
    return int(*value);
}

// One line read in its format; `fourth` is the colour tables' fourth number, whose meaning
// (opacity or transparency) is known only once the whole file is read.
struct ParsedLine {
    LabelEntry entry;
    int fourth = 255;
};

// Splits at semicolons outside double quotes; each field trimmed, and unquoted when quoted.
std::vector<std::string> semicolonFields(const HeaderLine& line)
{
    std::vector<std::string> fields(1);
    bool quoted = false;
    for (const char c : line.text) {
        if (c == '"') quoted = !quoted;
        if (c == ';' && !quoted) {
            fields.emplace_back();
        } else {
            fields.back() += c;
        }
    }
    if (quoted) failLine(line, "a double quote is not closed");
    for (std::string& field : fields) {
        std::string_view text = detail::trim(field);
        if (text.size() >= 2 && text.front() == '"' && text.back() == '"') {
            text = detail::trim(text.substr(1, text.size() - 2));
        }
        field = std::string(text);
    }
    return fields;
}

std::optional<ParsedLine> parseSemicolon(const HeaderLine& line)
{
    if (line.text.find(';') == std::string_view::npos) return std::nullopt;
    const std::vector<std::string> fields = semicolonFields(line);
    if (fields.size() < 2 || !numeric(fields[0])) return std::nullopt;
    ParsedLine parsed;
    parsed.entry.value = labelValue(line, fields[0]);
    // The full name reads better than "pu" in a list of structures; the abbreviation stands in
    // when a table leaves the name out.
    parsed.entry.name = fields.size() > 2 && !fields[2].empty() ? fields[2] : fields[1];
    return parsed;
}

std::optional<ParsedLine> parseColorTable(const HeaderLine& line)
{
    if (line.text.find_first_of(";\"") != std::string_view::npos) return std::nullopt;
    const std::vector<std::string_view> tokens = detail::splitWhitespace(line.text);
    const std::size_t n = tokens.size();
    if (n < 6 || !numeric(tokens[0])) return std::nullopt;
    for (std::size_t i = n - 4; i < n; ++i) {
        if (!numeric(tokens[i])) return std::nullopt;
    }
    ParsedLine parsed;
    parsed.entry.value = labelValue(line, tokens[0]);
    for (std::size_t i = 1; i < n - 4; ++i) {
        if (i > 1) parsed.entry.name += ' ';
        parsed.entry.name += tokens[i];
    }
    glm::vec4 color;
    for (int c = 0; c < 4; ++c) {
        const int component = byteComponent(line, tokens[n - 4 + std::size_t(c)]);
        color[c] = float(component) / 255.0f;
        if (c == 3) parsed.fourth = component;
    }
    parsed.entry.color = color;
    parsed.entry.hasColor = true;
    return parsed;
}

std::optional<ParsedLine> parseItkSnap(const HeaderLine& line)
{
    const std::size_t open = line.text.find('"');
    if (open == std::string_view::npos) return std::nullopt;
    const std::string_view tail = detail::trim(line.text.substr(open));
    const std::vector<std::string_view> tokens = detail::splitWhitespace(line.text.substr(0, open));
    if (tokens.size() != 7 || tail.size() < 2 || tail.back() != '"') return std::nullopt;
    for (const std::string_view token : tokens) {
        if (!numeric(token)) return std::nullopt;
    }
    ParsedLine parsed;
    parsed.entry.value = labelValue(line, tokens[0]);
    for (int c = 0; c < 3; ++c) {
        parsed.entry.color[c] = float(byteComponent(line, tokens[1 + std::size_t(c)])) / 255.0f;
    }
    const double alpha = *detail::parseDouble(tokens[4]);
    if (!(alpha >= 0.0 && alpha <= 1.0)) {
        failLine(line, "the opacity " + std::string(tokens[4]) + " is outside 0..1");
    }
    parsed.entry.color.a = float(alpha);
    parsed.entry.hasColor = true;
    for (std::size_t flag = 5; flag < 7; ++flag) {
        if (tokens[flag] != "0" && tokens[flag] != "1") {
            failLine(line, std::string(flag == 5 ? "VIS" : "MSH") + " is '" +
                               std::string(tokens[flag]) + "', not 0 or 1");
        }
    }
    parsed.entry.visible = tokens[5] == "1" && tokens[6] == "1";
    parsed.entry.name = std::string(tail.substr(1, tail.size() - 2));
    return parsed;
}

std::optional<ParsedLine> parseAs(Format format, const HeaderLine& line)
{
    switch (format) {
    case Format::Semicolon: return parseSemicolon(line);
    case Format::ColorTable: return parseColorTable(line);
    case Format::ItkSnap: return parseItkSnap(line);
    }
    return std::nullopt;
}

// FreeSurfer's fourth column is a transparency (FreeSurfer stores alpha = 255 - it), Slicer's
// an opacity. A comment that names the writer decides; else a column of zeros means
// FreeSurfer, since a Slicer table of all-transparent labels would show nothing.
bool isFreeSurfer(const std::vector<std::string>& comments, const std::vector<ParsedLine>& lines)
{
    for (const std::string& comment : comments) {
        if (comment.find("color table file") != std::string::npos) return false; // Slicer's
    }
    for (const std::string& comment : comments) {
        if (comment.find("freesurfer") != std::string::npos ||
            comment.find("#no. label name") != std::string::npos) {
            return true;
        }
    }
    for (const ParsedLine& line : lines) {
        if (line.fourth != 0) return false;
    }
    return true;
}

void requireText(std::string_view text)
{
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto byte = static_cast<unsigned char>(text[i]);
        const bool space =
            byte == '\t' || byte == '\n' || byte == '\r' || byte == '\v' || byte == '\f';
        if ((byte < 0x20 && !space) || byte == 0x7f) {
            static constexpr char kHex[] = "0123456789abcdef";
            throw InvalidInputError(std::string("it is not text (byte 0x") + kHex[byte >> 4] +
                                    kHex[byte & 15] + " at offset " + std::to_string(i) + ")");
        }
    }
}

} // namespace

LabelTable parseLabelTable(std::string_view text)
{
    requireText(text);
    if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);

    std::optional<Format> format;
    std::size_t firstLine = 0;
    std::vector<std::string> comments; // lower case, for telling FreeSurfer from Slicer
    std::vector<ParsedLine> parsed;
    std::map<std::uint32_t, std::size_t> lineOf; // where each label was named
    detail::LineReader lines(text);
    while (const std::optional<HeaderLine> line = lines.next()) {
        const std::string_view content = detail::trim(line->text);
        if (content.empty()) continue;
        if (content.front() == '#') {
            if (comments.size() < 64) comments.push_back(detail::lowerCase(content));
            continue;
        }
        std::optional<ParsedLine> entry;
        if (format) {
            entry = parseAs(*format, *line);
            if (!entry) {
                failLine(*line, std::string("it is not ") + formatName(*format) + " like line " +
                                    std::to_string(firstLine));
            }
        } else {
            for (const Format candidate :
                 {Format::ItkSnap, Format::ColorTable, Format::Semicolon}) {
                entry = parseAs(candidate, *line);
                if (entry) {
                    format = candidate;
                    firstLine = line->number;
                    break;
                }
            }
            if (!entry) {
                failLine(*line, "it is none of the label table formats isoview reads: " +
                                    std::string(formatName(Format::Semicolon)) + ", " +
                                    formatName(Format::ColorTable) + ", " +
                                    formatName(Format::ItkSnap));
            }
        }
        const auto [seen, fresh] = lineOf.emplace(entry->entry.value, line->number);
        if (!fresh) {
            failLine(*line, "the label " + std::to_string(entry->entry.value) +
                                " is already on line " + std::to_string(seen->second));
        }
        parsed.push_back(std::move(*entry));
    }
    if (parsed.empty()) throw InvalidInputError("it names no labels");

    const bool freeSurfer = format == Format::ColorTable && isFreeSurfer(comments, parsed);
    std::vector<LabelEntry> entries;
    entries.reserve(parsed.size());
    for (ParsedLine& line : parsed) {
        if (freeSurfer) line.entry.color.a = float(255 - line.fourth) / 255.0f;
        entries.push_back(std::move(line.entry));
    }
    return LabelTable(std::move(entries));
}

LabelTable readLabelTable(const std::filesystem::path& path)
{
    const std::string prefix = "cannot read label table " + detail::quotedPath(path) + ": ";
    detail::ReadOnlyFile file(path, prefix, "the file");
    if (file.size() > kMaxLabelTableBytes) {
        throw InvalidInputError(prefix + "the file holds " + detail::humanBytes(file.size()) +
                                ", more than the " + detail::humanBytes(kMaxLabelTableBytes) +
                                " a label table may have");
    }
    std::string text(std::size_t(file.size()), '\0');
    file.readExactly(0, text.data(), text.size());
    try {
        return parseLabelTable(text);
    } catch (const InvalidInputError& error) {
        throw InvalidInputError(prefix + error.what());
    }
}

std::optional<LabelTable>
labelTableFromSegNrrdKeys(const std::map<std::string, std::string>& keyValues)
{
    struct Segment {
        std::optional<std::uint32_t> label;
        std::string name;
        std::string id;
        std::optional<glm::vec3> color;
        std::uint64_t layer = 0;
        std::string labelKey;
    };
    std::map<std::uint64_t, Segment> segments; // by N of SegmentN_
    const auto fail = [](const std::string& key, const std::string& value, const char* why) {
        throw InvalidInputError("the key " + key + ":='" + printable(value, 40) + "' " + why);
    };
    constexpr std::string_view kPrefix = "Segment";
    for (const auto& [key, rawValue] : keyValues) {
        if (key.compare(0, kPrefix.size(), kPrefix) != 0) continue;
        const std::size_t underscore = key.find('_', kPrefix.size());
        if (underscore == std::string::npos) continue; // Segmentation_* and others
        const std::optional<std::uint64_t> index = detail::parseUnsigned(
            std::string_view(key).substr(kPrefix.size(), underscore - kPrefix.size()));
        if (!index) continue;
        Segment& segment = segments[*index];
        const std::string_view field = std::string_view(key).substr(underscore + 1);
        const std::string_view value = detail::trim(rawValue);
        if (field == "LabelValue") {
            const std::optional<std::uint64_t> label = detail::parseUnsigned(value);
            if (!label || *label > LabelTable::kMaxLabel) {
                fail(key, rawValue, "is not a label value 0..65535");
            }
            segment.label = std::uint32_t(*label);
            segment.labelKey = key;
        } else if (field == "Name") {
            segment.name = std::string(value);
        } else if (field == "ID") {
            segment.id = std::string(value);
        } else if (field == "Layer") {
            const std::optional<std::uint64_t> layer = detail::parseUnsigned(value);
            if (!layer) fail(key, rawValue, "is not a layer number");
            segment.layer = *layer;
        } else if (field == "Color") {
            const std::vector<std::string_view> parts = detail::splitWhitespace(value);
            glm::vec3 color;
            bool ok = parts.size() == 3;
            for (std::size_t c = 0; ok && c < 3; ++c) {
                const std::optional<double> component = detail::parseDouble(parts[c]);
                ok = component && *component >= 0.0 && *component <= 1.0;
                if (ok) color[int(c)] = float(*component);
            }
            if (!ok) fail(key, rawValue, "is not three colour components 0..1");
            segment.color = color;
        }
    }

    // One label per segment across every layer: the label map can show them all. Otherwise
    // layers reuse label values for different segments, and only layer 0 is the 3-D volume.
    std::map<std::uint32_t, int> uses;
    for (const auto& [index, segment] : segments) {
        if (segment.label) ++uses[*segment.label];
    }
    if (uses.empty()) return std::nullopt;
    bool oneLabelPerSegment = true;
    for (const auto& [label, count] : uses)
        oneLabelPerSegment = oneLabelPerSegment && count == 1;

    std::vector<LabelEntry> entries;
    std::map<std::uint32_t, const Segment*> taken;
    for (const auto& [index, segment] : segments) {
        if (!segment.label || (!oneLabelPerSegment && segment.layer != 0)) continue;
        const auto [it, fresh] = taken.emplace(*segment.label, &segment);
        if (!fresh) {
            fail(segment.labelKey, std::to_string(*segment.label),
                 ("repeats the label value of " + it->second->labelKey + " in layer 0").c_str());
        }
        LabelEntry entry;
        entry.value = *segment.label;
        entry.name = segment.name.empty() ? segment.id : segment.name;
        if (segment.color) {
            entry.color = glm::vec4(*segment.color, 1.0f);
            entry.hasColor = true;
        }
        entries.push_back(std::move(entry));
    }
    return LabelTable(std::move(entries));
}

std::optional<LabelTable> readSegNrrdLabelTable(const std::filesystem::path& path)
{
    const std::string what = "NRRD " + detail::quotedPath(path);
    const NrrdHeader header =
        detail::readHeader(path, kMaxNrrdHeaderBytes, what, nullptr, parseNrrdHeader).header;
    try {
        return labelTableFromSegNrrdKeys(header.keyValues);
    } catch (const InvalidInputError& error) {
        throw InvalidInputError("cannot read " + what + ": " + error.what());
    }
}

} // namespace isoview::io
