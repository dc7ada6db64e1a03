// Siemens MOSAIC images (fMRI, DTI EPI): every slice of one time point tiled into one image,
// row by row from the top left, ceil(sqrt(N)) tiles per side (a 384x384 mosaic of 36 64x64
// tiles holds up to 36 slices; NumberOfImagesInMosaic says how many are used).
//
// Geometry: ImagePositionPatient of a mosaic is the corner of the whole big image as if it
// were one slice, so the first tile's corner lies ((mosaic columns - tile columns) / 2) pixels
// along the row direction and ((mosaic rows - tile rows) / 2) along the column direction from
// it (the tiles are centred on the big image's centre). Tile k lies k slice spacings further
// along the slice normal: the CSA header's SliceNormalVector, whose sign says in which
// direction the tiles ascend (it may point against row x column, e.g. in sagittal series),
// else row x column.
//
// Contract: pure, no file access. mosaicLayout throws InvalidInputError naming `name` and the
// values when the mosaic cannot hold the images (N < 1, tiles that do not divide the image).
// extractTile copies one tile out of a decoded mosaic frame; the caller sizes the spans.
#pragma once

#include <glm/glm.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace isoview::io::dicom {

struct MosaicLayout {
    std::uint32_t images = 0;       // slices held (NumberOfImagesInMosaic)
    std::uint32_t tilesPerSide = 0; // ceil(sqrt(images))
    std::uint32_t tileColumns = 0;
    std::uint32_t tileRows = 0;
};

MosaicLayout mosaicLayout(std::uint32_t images, std::uint32_t columns, std::uint32_t rows,
                          const std::string& name);

// The ImagePositionPatient of every tile's first voxel, tile order. pixelSpacing is in DICOM
// order (between rows, between columns); sliceNormal need not be unit length.
std::vector<glm::dvec3> mosaicTilePositions(const MosaicLayout& layout, std::uint32_t columns,
                                            std::uint32_t rows, const glm::dvec3& mosaicPosition,
                                            const std::array<double, 6>& orientation,
                                            const glm::dvec2& pixelSpacing,
                                            const glm::dvec3& sliceNormal, double sliceSpacing);

// Copies tile `tile` of a mosaic frame (rows x columns samples of bytesPerSample bytes) into
// `out` (tileRows x tileColumns samples).
void extractTile(std::span<const std::uint8_t> mosaic, const MosaicLayout& layout,
                 std::uint32_t columns, std::size_t bytesPerSample, std::uint32_t tile,
                 std::span<std::uint8_t> out);

} // namespace isoview::io::dicom
