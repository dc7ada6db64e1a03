// The Siemens CSA header: a private binary table in (0029,xx10) (image) and (0029,xx20)
// (series) of Siemens MR objects, holding what public attributes lack, e.g. a MOSAIC's
// NumberOfImagesInMosaic and SliceNormalVector. No library Debian ships parses it for C++
// (GDCM's reader is not packaged with its CSA API, DCMTK has none), so this small parser is
// ours.
//
// Layout (little endian). SV10 ("CSA2"): "SV10", 4 bytes "\4\3\2\1", uint32 element count,
// uint32 77. The old format ("CSA1") starts at the count. Each element: name (64 bytes, NUL
// terminated), int32 VM, VR (4 bytes), int32 SyngoDT, int32 item count, int32 77 or 205; then
// each item: four int32 (the length is the second in SV10, the first minus the first element's
// item count in CSA1), the value (NUL padded), padding to 4 bytes.
//
// Contract: parseCsaHeader is pure and bounds-checked: no count in the data is trusted beyond
// the bytes that are there (and 4096 elements, 1024 items each); it throws InvalidInputError
// naming `where`, the element and the byte offset when the table runs past its end or is not a
// CSA table. Cost: linear in the size.
//
// Example:
//   const CsaHeader csa = parseCsaHeader(bytes, "\"mr.dcm\" (0029,1010)");
//   std::optional<double> n = csa.number("NumberOfImagesInMosaic");
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace isoview::io::dicom {

struct CsaElement {
    std::string name;
    std::string vr;
    std::vector<std::string> values; // the non-empty items, trimmed
};

struct CsaHeader {
    std::vector<CsaElement> elements;

    const CsaElement* find(std::string_view name) const;
    // Value `index` of element `name` as a finite number, or nothing.
    std::optional<double> number(std::string_view name, std::size_t index = 0) const;
};

CsaHeader parseCsaHeader(std::span<const std::uint8_t> bytes, const std::string& where);

} // namespace isoview::io::dicom
