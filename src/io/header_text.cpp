#include "io/header_text.h"

#include <charconv>
#include <cmath>
#include <system_error>

namespace isoview::io::detail {

std::optional<HeaderLine> LineReader::next()
{
    if (m_offset >= m_text.size()) return std::nullopt;
    const std::size_t end = m_text.find('\n', m_offset);
    HeaderLine line;
    line.number = ++m_number;
    if (end == std::string_view::npos) {
        line.text = m_text.substr(m_offset);
        m_offset = m_text.size();
    } else {
        line.text = m_text.substr(m_offset, end - m_offset);
        line.terminated = true;
        m_offset = end + 1;
    }
    if (!line.text.empty() && line.text.back() == '\r') line.text.remove_suffix(1);
    return line;
}

namespace {

bool isSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f' || c == '\n';
}

} // namespace

std::string_view trim(std::string_view text)
{
    while (!text.empty() && isSpace(text.front()))
        text.remove_prefix(1);
    while (!text.empty() && isSpace(text.back()))
        text.remove_suffix(1);
    return text;
}

std::string lowerCase(std::string_view text)
{
    std::string out(text);
    for (char& c : out) {
        if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
    }
    return out;
}

std::vector<std::string_view> splitWhitespace(std::string_view text)
{
    std::vector<std::string_view> pieces;
    std::size_t i = 0;
    while (i < text.size()) {
        while (i < text.size() && isSpace(text[i]))
            ++i;
        const std::size_t start = i;
        while (i < text.size() && !isSpace(text[i]))
            ++i;
        if (i > start) pieces.push_back(text.substr(start, i - start));
    }
    return pieces;
}

std::optional<std::uint64_t> parseUnsigned(std::string_view text)
{
    if (text.empty() || text.front() < '0' || text.front() > '9') return std::nullopt;
    std::uint64_t value = 0;
    const auto result = std::from_chars(text.data(), text.data() + text.size(), value);
    if (result.ec != std::errc() || result.ptr != text.data() + text.size()) return std::nullopt;
    return value;
}

std::optional<std::int64_t> parseInteger(std::string_view text)
{
    if (!text.empty() && text.front() == '+') text.remove_prefix(1);
    if (text.empty() || text.front() == '+') return std::nullopt;
    std::int64_t value = 0;
    const auto result = std::from_chars(text.data(), text.data() + text.size(), value);
    if (result.ec != std::errc() || result.ptr != text.data() + text.size()) return std::nullopt;
    return value;
}

std::optional<double> parseDouble(std::string_view text)
{
    if (!text.empty() && text.front() == '+') text.remove_prefix(1);
    if (text.empty() || text.front() == '+') return std::nullopt;
    double value = 0.0;
    const auto result = std::from_chars(text.data(), text.data() + text.size(), value);
    // Out-of-range values (1e999) report result_out_of_range: not a number we can use.
    if (result.ec != std::errc() || result.ptr != text.data() + text.size()) return std::nullopt;
    return value;
}

std::string formatDouble(double value)
{
    if (std::isnan(value)) return "nan";
    char text[64];
    const auto result = std::to_chars(text, text + sizeof text, value);
    return std::string(text, result.ptr);
}

} // namespace isoview::io::detail
