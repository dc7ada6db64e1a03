#include "io/dicom/dicom_sniffing.h"

#include "io/dicom/dicom_common.h"

#include <algorithm>
#include <array>
#include <cstring>

namespace isoview::io::dicom {
namespace {

// Bare datasets are sometimes written after a few stray bytes (pydicom's no_meta.dcm starts
// with one); a handful are skipped, never more, so that random files are not mistaken.
constexpr std::size_t kMaxStrayBytes = 8;

bool isVrCode(const std::uint8_t* p)
{
    static constexpr std::array<const char*, 34> codes = {
        "AE", "AS", "AT", "CS", "DA", "DS", "DT", "FD", "FL", "IS", "LO", "LT",
        "OB", "OD", "OF", "OL", "OV", "OW", "PN", "SH", "SL", "SQ", "SS", "ST",
        "SV", "TM", "UC", "UI", "UL", "UN", "UR", "US", "UT", "UV"};
    return std::any_of(codes.begin(), codes.end(), [p](const char* c) {
        return p[0] == std::uint8_t(c[0]) && p[1] == std::uint8_t(c[1]);
    });
}

bool hasLongLengthField(const std::uint8_t* vr)
{
    static constexpr std::array<const char*, 13> codes = {"OB", "OD", "OF", "OL", "OV", "OW", "SQ",
                                                          "SV", "UC", "UN", "UR", "UT", "UV"};
    return std::any_of(codes.begin(), codes.end(), [vr](const char* c) {
        return vr[0] == std::uint8_t(c[0]) && vr[1] == std::uint8_t(c[1]);
    });
}

// Datasets start with the SOP common, patient or image groups.
bool plausibleFirstGroup(std::uint16_t group)
{
    return group % 2 == 0 && group >= 0x0002 && group <= 0x0028;
}

} // namespace

std::optional<Sniff> sniff(std::span<const std::uint8_t> head, std::uint64_t totalSize)
{
    if (head.size() >= 132 && std::memcmp(head.data() + 128, "DICM", 4) == 0) {
        return Sniff{.partTen = true};
    }
    for (std::size_t offset = 0; offset <= kMaxStrayBytes && offset + 12 <= head.size(); ++offset) {
        const std::uint8_t* p = head.data() + offset;
        const std::uint64_t remaining = totalSize - offset;
        const auto fits = [remaining](std::uint64_t length, std::uint64_t header) {
            return length == 0xFFFFFFFFu || length + header <= remaining;
        };
        if (plausibleFirstGroup(le16(p))) {
            if (isVrCode(p + 4)) {
                const bool longLength = hasLongLengthField(p + 4);
                if (longLength ? (p[6] == 0 && p[7] == 0 && fits(le32(p + 8), 12))
                               : fits(le16(p + 6), 8)) {
                    return Sniff{.strayBytes = offset, .xfer = EXS_LittleEndianExplicit};
                }
            } else if (fits(le32(p + 4), 8)) {
                return Sniff{.strayBytes = offset, .xfer = EXS_LittleEndianImplicit};
            }
        }
        if (plausibleFirstGroup(be16(p)) && isVrCode(p + 4)) {
            const bool longLength = hasLongLengthField(p + 4);
            if (longLength ? (p[6] == 0 && p[7] == 0 && fits(be32(p + 8), 12))
                           : fits(be16(p + 6), 8)) {
                return Sniff{.strayBytes = offset, .xfer = EXS_BigEndianExplicit};
            }
        }
    }
    return std::nullopt;
}

} // namespace isoview::io::dicom
