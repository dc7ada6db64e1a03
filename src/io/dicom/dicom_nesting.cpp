#include "io/dicom/dicom_nesting.h"

#include <dcmtk/dcmdata/dcdicent.h>
#include <dcmtk/dcmdata/dcdict.h>
#include <dcmtk/dcmdata/dctagkey.h>

#include <algorithm>
#include <array>
#include <fstream>
#include <optional>
#include <string_view>
#include <vector>

namespace isoview::io::dicom {
namespace {

constexpr std::uint32_t kUndefinedLength = 0xFFFFFFFFu;
constexpr std::uint16_t kItemGroup = 0xFFFE;
constexpr std::uint16_t kItem = 0xE000;
constexpr std::uint16_t kItemEnd = 0xE00D;
constexpr std::uint16_t kSequenceEnd = 0xE0DD;

struct Encoding {
    bool implicitVr = false;
    bool bigEndian = false;
};

// A sequence or item being walked: where it ends (nullopt: at its delimiter), and how its
// content is encoded (UN of undefined length holds implicit VR little endian).
struct Container {
    std::optional<std::uint64_t> end;
    bool sequence = false;
    Encoding content;
};

class HeaderReader {
public:
    HeaderReader(const std::filesystem::path& path, std::uint64_t size)
        : m_file(path, std::ios::binary), m_size(size)
    {
        if (!m_file) throw IoError("cannot read " + path.string());
    }
    // n bytes at pos, or nullopt past the end.
    bool read(std::uint64_t pos, std::uint8_t* out, std::size_t n)
    {
        if (pos + n > m_size) return false;
        m_file.seekg(std::streamoff(pos));
        m_file.read(reinterpret_cast<char*>(out), std::streamsize(n));
        return bool(m_file);
    }

private:
    std::ifstream m_file;
    std::uint64_t m_size;
};

std::uint16_t u16(const std::uint8_t* p, bool bigEndian)
{
    return bigEndian ? std::uint16_t(p[0] << 8 | p[1]) : std::uint16_t(p[1] << 8 | p[0]);
}

std::uint32_t u32(const std::uint8_t* p, bool bigEndian)
{
    return bigEndian ? std::uint32_t(p[0]) << 24 | std::uint32_t(p[1]) << 16 |
                           std::uint32_t(p[2]) << 8 | p[3]
                     : std::uint32_t(p[3]) << 24 | std::uint32_t(p[2]) << 16 |
                           std::uint32_t(p[1]) << 8 | p[0];
}

// VRs whose explicit header has 2 reserved bytes and a 4-byte length.
bool hasLongLength(std::string_view vr)
{
    for (std::string_view v :
         {"OB", "OD", "OF", "OL", "OV", "OW", "SQ", "SV", "UC", "UN", "UR", "UT", "UV"}) {
        if (vr == v) return true;
    }
    return false;
}

bool dictionarySaysSequence(std::uint16_t group, std::uint16_t element)
{
    const DcmDataDictionary& dictionary = dcmDataDict.rdlock();
    const DcmDictEntry* entry = dictionary.findEntry(DcmTagKey(group, element), nullptr);
    const bool sequence = entry != nullptr && entry->getEVR() == EVR_SQ;
    dcmDataDict.rdunlock();
    return sequence;
}

// The Part 10 meta header's transfer syntax (always explicit VR little endian); pos moves past
// the meta group. nullopt when the header cannot be followed.
std::optional<std::string> metaTransferSyntax(HeaderReader& in, std::uint64_t& pos)
{
    std::string syntax;
    std::array<std::uint8_t, 8> h{};
    while (in.read(pos, h.data(), 8) && u16(h.data(), false) == 0x0002) {
        const std::string_view vr(reinterpret_cast<const char*>(h.data() + 4), 2);
        std::uint64_t header = 8;
        std::uint64_t length = u16(h.data() + 6, false);
        if (hasLongLength(vr)) {
            std::array<std::uint8_t, 4> l{};
            if (!in.read(pos + 8, l.data(), 4)) return std::nullopt;
            header = 12;
            length = u32(l.data(), false);
        }
        if (length == kUndefinedLength) return std::nullopt;
        if (u16(h.data() + 2, false) == 0x0010 && length < 256) {
            std::string value(length, '\0');
            if (!in.read(pos + header, reinterpret_cast<std::uint8_t*>(value.data()), length))
                return std::nullopt;
            while (!value.empty() && (value.back() == '\0' || value.back() == ' '))
                value.pop_back();
            syntax = value;
        }
        pos += header + length;
    }
    return syntax;
}

} // namespace

// DirectoryRecordType (0004,1430) is one code string (VM 1). DCMTK's reading of a DICOMDIR
// record trims each of its values to 16 characters in place and then indexes past the end of
// what is left, throwing std::out_of_range out of the read and leaking the record (found by
// fuzz_dicomdir): a value with several parts is refused before DCMTK sees it.
void requireSingleRecordType(HeaderReader& in, std::uint64_t pos, std::uint32_t length,
                             const std::string& name)
{
    constexpr std::uint32_t kMaxRead = 4096;
    std::string value(std::min(length, kMaxRead), '\0');
    if (!in.read(pos, reinterpret_cast<std::uint8_t*>(value.data()), value.size())) return;
    if (value.find('\\') != std::string::npos) {
        throw DamagedDicomError(name +
                                " is DICOM but damaged: its DirectoryRecordType (0004,1430) " +
                                "at byte " + std::to_string(pos) +
                                " holds several values where the standard allows one code "
                                "string; refused before DCMTK, which fails on it");
    }
}

void requireShallowSequences(const std::filesystem::path& path, const Sniff& how,
                             std::uint64_t size, const std::string& name)
{
    HeaderReader in(path, size);
    std::uint64_t pos = how.strayBytes;
    Encoding dataset;
    if (how.partTen) {
        pos = 132;
        const std::optional<std::string> syntax = metaTransferSyntax(in, pos);
        if (!syntax) return;
        if (*syntax == "1.2.840.10008.1.2.1.99") return; // deflated: DCMTK inflates it
        dataset.implicitVr = *syntax == "1.2.840.10008.1.2";
        dataset.bigEndian = *syntax == "1.2.840.10008.1.2.2";
    } else {
        dataset.implicitVr = how.xfer == EXS_LittleEndianImplicit;
        dataset.bigEndian = how.xfer == EXS_BigEndianExplicit;
    }

    std::vector<Container> open;
    int depth = 0; // sequences open
    const auto pop = [&] {
        if (open.back().sequence) --depth;
        open.pop_back();
    };
    std::array<std::uint8_t, 12> h{};
    while (in.read(pos, h.data(), 8)) {
        // Containers of defined length that end here are done.
        while (!open.empty() && open.back().end && *open.back().end <= pos)
            pop();
        const Encoding e = open.empty() ? dataset : open.back().content;
        const std::uint16_t group = u16(h.data(), e.bigEndian);
        const std::uint16_t element = u16(h.data() + 2, e.bigEndian);
        if (group == kItemGroup) {
            const std::uint32_t length = u32(h.data() + 4, e.bigEndian);
            pos += 8;
            if (element == kItem) {
                open.push_back(
                    {length == kUndefinedLength ? std::nullopt : std::optional(pos + length), false,
                     e});
            } else if (element == kItemEnd || element == kSequenceEnd) {
                const bool sequenceEnd = element == kSequenceEnd;
                while (!open.empty()) {
                    const bool closes = !open.back().end && open.back().sequence == sequenceEnd;
                    pop();
                    if (closes) break;
                }
            } else {
                return; // not a header this walk knows
            }
            continue;
        }
        std::uint64_t header = 8;
        std::uint32_t length = 0;
        bool sequence = false;
        Encoding content = e;
        if (e.implicitVr) {
            length = u32(h.data() + 4, e.bigEndian);
            if (length == kUndefinedLength) {
                if (group == 0x7FE0 && element == 0x0010) return; // encapsulated pixel data
                sequence = true;
            } else {
                sequence = dictionarySaysSequence(group, element);
            }
        } else {
            const std::string_view vr(reinterpret_cast<const char*>(h.data() + 4), 2);
            if (vr[0] < 'A' || vr[0] > 'Z' || vr[1] < 'A' || vr[1] > 'Z') return;
            if (hasLongLength(vr)) {
                if (!in.read(pos + 8, h.data() + 8, 4)) return;
                header = 12;
                length = u32(h.data() + 8, e.bigEndian);
            } else {
                length = u16(h.data() + 6, e.bigEndian);
            }
            if (vr == "SQ") {
                sequence = true;
            } else if (vr == "UN" && length == kUndefinedLength) {
                sequence = true; // DCMTK reads it as a sequence in implicit VR little endian
                content = Encoding{true, false};
            } else if (length == kUndefinedLength) {
                return; // encapsulated pixel data, or something DCMTK will judge
            }
        }
        pos += header;
        if (!sequence && group == 0x0004 && element == 0x1430)
            requireSingleRecordType(in, pos, length, name);
        if (sequence) {
            if (++depth > kMaxSequenceDepth) {
                throw DamagedDicomError(
                    name + " is DICOM but damaged or hostile: its sequences nest more than " +
                    std::to_string(kMaxSequenceDepth) + " levels deep (at byte " +
                    std::to_string(pos - header) +
                    "), which no scanner writes; refused before "
                    "DCMTK, whose reading would overflow the stack");
            }
            open.push_back({length == kUndefinedLength ? std::nullopt : std::optional(pos + length),
                            true, content});
        } else {
            pos += length;
        }
    }
}

} // namespace isoview::io::dicom
