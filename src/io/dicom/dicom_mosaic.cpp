#include "io/dicom/dicom_mosaic.h"

#include "core/error.h"

#include <cmath>
#include <cstring>

namespace isoview::io::dicom {

MosaicLayout mosaicLayout(std::uint32_t images, std::uint32_t columns, std::uint32_t rows,
                          const std::string& name)
{
    const std::string size = std::to_string(columns) + "x" + std::to_string(rows);
    if (images < 1) {
        throw InvalidInputError(name + ": a MOSAIC image with NumberOfImagesInMosaic " +
                                std::to_string(images) + " holds no slices");
    }
    MosaicLayout layout;
    layout.images = images;
    layout.tilesPerSide = std::uint32_t(std::ceil(std::sqrt(double(images))));
    // sqrt in floating point may land just above an integer: take the smallest side that fits.
    while (layout.tilesPerSide > 1 &&
           std::uint64_t(layout.tilesPerSide - 1) * (layout.tilesPerSide - 1) >= images) {
        --layout.tilesPerSide;
    }
    const std::uint32_t side = layout.tilesPerSide;
    if (side > columns || side > rows || columns % side != 0 || rows % side != 0) {
        throw InvalidInputError(name + ": a MOSAIC of " + std::to_string(images) +
                                " images needs " + std::to_string(side) + "x" +
                                std::to_string(side) + " tiles, which do not divide its " + size +
                                " image evenly");
    }
    layout.tileColumns = columns / side;
    layout.tileRows = rows / side;
    return layout;
}

std::vector<glm::dvec3> mosaicTilePositions(const MosaicLayout& layout, std::uint32_t columns,
                                            std::uint32_t rows, const glm::dvec3& mosaicPosition,
                                            const std::array<double, 6>& orientation,
                                            const glm::dvec2& pixelSpacing,
                                            const glm::dvec3& sliceNormal, double sliceSpacing)
{
    const glm::dvec3 rowDirection(orientation[0], orientation[1], orientation[2]);
    const glm::dvec3 columnDirection(orientation[3], orientation[4], orientation[5]);
    // Columns advance along the row direction by the spacing between columns, and rows along
    // the column direction by the spacing between rows.
    const double alongRow = 0.5 * (double(columns) - layout.tileColumns) * pixelSpacing.y;
    const double alongColumn = 0.5 * (double(rows) - layout.tileRows) * pixelSpacing.x;
    const glm::dvec3 first =
        mosaicPosition + rowDirection * alongRow + columnDirection * alongColumn;
    const double length = glm::length(sliceNormal);
    const glm::dvec3 step = length > 0.0 ? sliceNormal * (sliceSpacing / length) : glm::dvec3(0.0);
    std::vector<glm::dvec3> positions;
    positions.reserve(layout.images);
    for (std::uint32_t k = 0; k < layout.images; ++k) {
        positions.push_back(first + step * double(k));
    }
    return positions;
}

void extractTile(std::span<const std::uint8_t> mosaic, const MosaicLayout& layout,
                 std::uint32_t columns, std::size_t bytesPerSample, std::uint32_t tile,
                 std::span<std::uint8_t> out)
{
    const std::size_t tileRowBytes = std::size_t(layout.tileColumns) * bytesPerSample;
    const std::size_t mosaicRowBytes = std::size_t(columns) * bytesPerSample;
    const std::size_t firstRow = std::size_t(tile / layout.tilesPerSide) * layout.tileRows;
    const std::size_t firstColumn = std::size_t(tile % layout.tilesPerSide) * layout.tileColumns;
    for (std::size_t r = 0; r < layout.tileRows; ++r) {
        const std::size_t from = (firstRow + r) * mosaicRowBytes + firstColumn * bytesPerSample;
        std::memcpy(out.data() + r * tileRowBytes, mosaic.data() + from, tileRowBytes);
    }
}

} // namespace isoview::io::dicom
