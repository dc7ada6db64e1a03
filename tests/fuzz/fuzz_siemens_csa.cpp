// libFuzzer target: the Siemens CSA header parser and the MOSAIC layout (io/dicom/
// siemens_csa_header.h, io/dicom/dicom_mosaic.h). The first 6 bytes are a mosaic's image count,
// columns and rows (little endian, 16 bits each, as (0019,100A), Columns and Rows hold them);
// the rest is a CSA table. An accepted layout is used as the loader uses it: tile positions and
// every tile copied out of a mosaic of that size. isoview::Error is the expected outcome of bad
// input; anything else (a crash, a sanitizer report, another exception, a broken invariant) is
// a finding. Seeds: the real CSA image headers of the shared mosaics, behind their sizes.
#include "core/error.h"
#include "fuzz_support.h"
#include "io/dicom/dicom_mosaic.h"
#include "io/dicom/siemens_csa_header.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace {

std::uint16_t le16(const std::uint8_t* p)
{
    return std::uint16_t(p[0] | (p[1] << 8));
}

void checkCsa(std::span<const std::uint8_t> bytes)
{
    using namespace isoview::io::dicom;
    CsaHeader csa;
    try {
        csa = parseCsaHeader(bytes, "fuzz input");
    } catch (const isoview::Error&) {
        return;
    }
    for (const CsaElement& element : csa.elements) {
        if (element.values.size() > 1024 || element.name.size() > 64) __builtin_trap();
        for (std::size_t i = 0; i < element.values.size(); ++i) {
            const std::optional<double> value = csa.number(element.name, i);
            if (value && !std::isfinite(*value)) __builtin_trap();
        }
    }
}

void checkMosaic(std::uint32_t images, std::uint32_t columns, std::uint32_t rows)
{
    using namespace isoview::io::dicom;
    MosaicLayout layout;
    try {
        layout = mosaicLayout(images, columns, rows, "fuzz input");
    } catch (const isoview::Error&) {
        return;
    }
    const std::uint64_t side = layout.tilesPerSide;
    if (side * side < images || (side - 1) * (side - 1) >= images ||
        layout.tileColumns * side != columns || layout.tileRows * side != rows) {
        __builtin_trap();
    }
    const std::vector<glm::dvec3> positions = mosaicTilePositions(
        layout, columns, rows, {1, 2, 3}, {1, 0, 0, 0, 1, 0}, {0.5, 2.0}, {0, 0, -1}, 3.0);
    if (positions.size() != images) __builtin_trap();
    // The harness itself would allocate up to 65535^2 x 2 bytes here (libFuzzer reports that as
    // out-of-memory); the loader never gets that far, because it checks a frame's size against
    // the pixel data and this machine's memory first. Real mosaics are at most 1024^2.
    constexpr std::uint64_t kMaxMosaicPixels = std::uint64_t(1) << 22;
    if (std::uint64_t(columns) * rows > kMaxMosaicPixels) return;
    const std::vector<std::uint8_t> mosaic(std::size_t(columns) * rows * 2, 0x5A);
    std::vector<std::uint8_t> tile(std::size_t(layout.tileColumns) * layout.tileRows * 2);
    for (std::uint32_t k = 0; k < images; ++k) {
        extractTile(mosaic, layout, columns, 2, k, tile);
        if (!tile.empty() && tile.back() != 0x5A) __builtin_trap();
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size < 6) return 0;
    checkMosaic(le16(data), le16(data + 2), le16(data + 4));
    checkCsa(std::span(data + 6, size - 6));
    return 0;
}
