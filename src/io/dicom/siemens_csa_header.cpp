#include "io/dicom/siemens_csa_header.h"

#include "core/error.h"
#include "io/dicom/dicom_common.h"

#include <charconv>
#include <cmath>
#include <cstring>

namespace isoview::io::dicom {
namespace {

constexpr std::uint32_t kMaxElements = 4096;
constexpr std::uint32_t kMaxItems = 1024;
constexpr std::size_t kNameBytes = 64;

// A cursor that refuses to read past the end, saying where and what it was reading.
class Reader {
public:
    Reader(std::span<const std::uint8_t> bytes, const std::string& where)
        : m_bytes(bytes), m_where(where)
    {
    }

    std::size_t offset() const { return m_offset; }
    std::size_t left() const { return m_bytes.size() - m_offset; }

    std::span<const std::uint8_t> take(std::size_t count, const std::string& what)
    {
        if (count > left()) {
            throw InvalidInputError(m_where + ": the CSA header ends inside " + what + " (byte " +
                                    std::to_string(m_offset) + ", " + std::to_string(count) +
                                    " bytes wanted, " + std::to_string(left()) + " left)");
        }
        const std::span<const std::uint8_t> part = m_bytes.subspan(m_offset, count);
        m_offset += count;
        return part;
    }

    std::int32_t int32(const std::string& what) { return std::int32_t(le32(take(4, what).data())); }

    void skipTo4()
    {
        const std::size_t padded = (m_offset + 3) & ~std::size_t(3);
        m_offset = std::min(padded, m_bytes.size());
    }

private:
    std::span<const std::uint8_t> m_bytes;
    const std::string& m_where;
    std::size_t m_offset = 0;
};

// Text up to the first NUL, without padding.
std::string text(std::span<const std::uint8_t> bytes)
{
    const auto* begin = reinterpret_cast<const char*>(bytes.data());
    const void* nul = std::memchr(begin, 0, bytes.size());
    const std::size_t length =
        nul != nullptr ? std::size_t(static_cast<const char*>(nul) - begin) : bytes.size();
    return trim(std::string(begin, length));
}

} // namespace

const CsaElement* CsaHeader::find(std::string_view name) const
{
    for (const CsaElement& element : elements) {
        if (element.name == name) return &element;
    }
    return nullptr;
}

std::optional<double> CsaHeader::number(std::string_view name, std::size_t index) const
{
    const CsaElement* element = find(name);
    if (element == nullptr || index >= element->values.size()) return std::nullopt;
    const std::string& value = element->values[index];
    double parsed = 0.0;
    const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), parsed);
    if (error != std::errc() || end != value.data() + value.size() || !std::isfinite(parsed)) {
        return std::nullopt;
    }
    return parsed;
}

CsaHeader parseCsaHeader(std::span<const std::uint8_t> bytes, const std::string& where)
{
    Reader in(bytes, where);
    const bool sv10 = bytes.size() >= 4 && std::memcmp(bytes.data(), "SV10", 4) == 0;
    if (sv10) (void)in.take(8, "the SV10 signature");
    const std::int32_t count = in.int32("the element count");
    const std::int32_t check = in.int32("the element count");
    if (check != 77) {
        throw InvalidInputError(where + ": not a Siemens CSA header (byte " +
                                std::to_string(in.offset() - 4) + " holds " +
                                std::to_string(check) + " where 77 belongs)");
    }
    if (count < 0 || std::uint32_t(count) > kMaxElements) {
        throw InvalidInputError(where + ": the CSA header claims " + std::to_string(count) +
                                " elements (at most " + std::to_string(kMaxElements) + ")");
    }

    CsaHeader header;
    std::int32_t firstItemCount = 0; // CSA1 lengths are offset by it
    for (std::int32_t e = 0; e < count; ++e) {
        const std::string what =
            "element " + std::to_string(e + 1) + " of " + std::to_string(count);
        CsaElement element;
        element.name = text(in.take(kNameBytes, "the name of " + what));
        const std::int32_t vm = in.int32("the VM of " + what);
        element.vr = text(in.take(4, "the VR of " + what));
        (void)in.int32("the SyngoDT of " + what);
        const std::int32_t items = in.int32("the item count of " + what);
        (void)in.int32("the check word of " + what);
        if (items < 0 || std::uint32_t(items) > kMaxItems) {
            throw InvalidInputError(where + ": CSA element \"" + element.name + "\" claims " +
                                    std::to_string(items) + " items (byte " +
                                    std::to_string(in.offset() - 8) + ")");
        }
        if (e == 0) firstItemCount = items;
        const std::size_t wanted = vm > 0 ? std::size_t(vm) : std::size_t(items);
        for (std::int32_t i = 0; i < items; ++i) {
            const std::int32_t x0 = in.int32("an item of \"" + element.name + "\"");
            const std::int32_t x1 = in.int32("an item of \"" + element.name + "\"");
            (void)in.take(8, "an item of \"" + element.name + "\"");
            const std::int64_t length = sv10 ? std::int64_t(x1) : std::int64_t(x0) - firstItemCount;
            if (length < 0 || std::uint64_t(length) > in.left()) {
                throw InvalidInputError(
                    where + ": CSA element \"" + element.name + "\" item " + std::to_string(i + 1) +
                    " claims " + std::to_string(length) + " bytes at byte " +
                    std::to_string(in.offset()) + ", " + std::to_string(in.left()) + " left");
            }
            std::string value =
                text(in.take(std::size_t(length), "an item of \"" + element.name + "\""));
            in.skipTo4();
            if (!value.empty() && element.values.size() < wanted) {
                element.values.push_back(std::move(value));
            }
        }
        header.elements.push_back(std::move(element));
    }
    return header;
}

} // namespace isoview::io::dicom
