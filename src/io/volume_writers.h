// Writes volumes as NRRD, MetaImage or raw files that isoview's readers (and ITK, VTK, 3D
// Slicer, teem) read back with the same voxels and geometry.
//
// Contract (all three):
// - Every file goes through AtomicFileWriter: a reader sees the old file or the complete new
//   one, never a partial write. Failures throw IoError naming the path and the reason; the
//   destination is then untouched. Where two files are written (.nhdr/.mhd + data), the data
//   file is committed first, then the header.
// - Voxels are written little-endian whatever the host order, in chunks (memory: ~1 MiB
//   besides the volume).
// - Geometry is written in LPS millimetres with the shortest decimal text that reads back to
//   the same double, so spacing, origin and direction survive a round trip (NRRD stores
//   direction * spacing per axis; reading it back splits it again, exact to ~1 ulp).
// - A volume with per-slice origins (VolumeGeometry::sliceOrigins: uneven or sheared stacks)
//   cannot be described by these formats without resampling: InvalidInputError.
//
// writeNrrd: NRRD0004, "space: left-posterior-superior", space directions / origin, endian
//   little, encoding raw or gzip (zlib, level 6). A path ending in .nhdr writes a detached
//   header and the data beside it as <stem>.raw (or <stem>.raw.gz); any other name an
//   attached header. A value rescale other than identity is kept as isoview_rescale_slope:=
//   and isoview_rescale_intercept:= key/value pairs (read back by readNrrd).
// writeMetaImage: .mhd writes the header and <stem>.raw beside it; .mha one file with
//   ElementDataFile = LOCAL. TransformMatrix lists the direction columns one after another
//   (ITK's order, see metaimage_reader.h), Offset the origin, ElementSpacing the spacing. Other
//   extensions: InvalidInputError. The value rescale is not stored.
// writeRawVolume: the voxels only; the file name must follow the raw convention
//   <name>_<X>x<Y>x<Z>_<type>.raw with the volume's dims and type (InvalidInputError
//   otherwise, suggesting the right name; rawVolumeFileName builds it), so that
//   readRawVolume(path) reads it back. Spacing, origin, direction and rescale are not stored.
//
// Example:
//   io::writeNrrd("head.nrrd", volume, /*gzip=*/true);
//   io::writeMetaImage("head.mhd", volume);                 // also writes head.raw
//   io::writeRawVolume(dir / io::rawVolumeFileName("head", volume), volume);
#pragma once

#include "volume/volume.h"

#include <filesystem>
#include <string>
#include <string_view>

namespace isoview::io {

void writeNrrd(const std::filesystem::path& path, const Volume& volume, bool gzip = false);

void writeMetaImage(const std::filesystem::path& path, const Volume& volume);

void writeRawVolume(const std::filesystem::path& path, const Volume& volume);

// "<name>_<X>x<Y>x<Z>_<type>.raw" for volume, e.g. "head_256x256x113_int16.raw".
std::string rawVolumeFileName(std::string_view name, const Volume& volume);

} // namespace isoview::io
