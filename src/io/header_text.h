// Internal to src/io: the text handling the NRRD and MetaImage header parsers share — lines
// with \n or \r\n endings, trimming, case folding, and strict, locale-independent number
// parsing (std::from_chars). Not part of the public API.
//
// Contract: pure, never throws, never reads past the text it is given.
//
// Example:
//   detail::LineReader lines(text);
//   while (auto line = lines.next()) { ... line->text, lines.offset() ... }
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace isoview::io::detail {

struct HeaderLine {
    std::string_view text;   // without the line ending
    std::size_t number = 0;  // 1-based
    bool terminated = false; // ended by \n (false for a last line without one)
};

// Splits text into lines. offset() is where the next line starts.
class LineReader {
public:
    explicit LineReader(std::string_view text) : m_text(text) {}
    std::optional<HeaderLine> next();
    std::size_t offset() const { return m_offset; }
    std::string_view rest() const { return m_text.substr(m_offset); }

private:
    std::string_view m_text;
    std::size_t m_offset = 0;
    std::size_t m_number = 0;
};

// Without leading and trailing spaces, tabs, \r, \v and \f.
std::string_view trim(std::string_view text);
// ASCII lower case.
std::string lowerCase(std::string_view text);
// Pieces separated by runs of whitespace.
std::vector<std::string_view> splitWhitespace(std::string_view text);

// Whole decimal numbers, optionally signed ('+' or '-') for parseInteger: nullopt unless the
// whole text is the number and it fits.
std::optional<std::uint64_t> parseUnsigned(std::string_view text);
std::optional<std::int64_t> parseInteger(std::string_view text);
// A decimal or scientific floating-point number, "nan" or "inf" in any case, with an optional
// leading '+'. nullopt unless the whole text is the number.
std::optional<double> parseDouble(std::string_view text);

// The shortest text that parses back to exactly value ("0.78125", "-1e-05"); "nan" for NaN.
std::string formatDouble(double value);

} // namespace isoview::io::detail
