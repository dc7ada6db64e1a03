// Reads MetaImage volumes (ITK/VTK's MetaIO format): .mhd headers whose ElementDataFile names
// the data file(s) beside them, and .mha files whose data follow the header
// (ElementDataFile = LOCAL).
//
// Header lines are "Key = Value" (keys in any case); ElementDataFile must be the last key.
// Supported: ObjectType = Image (optional); NDims = 3; DimSize; ElementType MET_UCHAR,
// MET_CHAR, MET_USHORT, MET_SHORT, MET_UINT, MET_INT, MET_FLOAT, MET_DOUBLE;
// ElementNumberOfChannels = 1; ElementSpacing (else ElementSize; a negative spacing flips its
// axis); Offset / Position / Origin; TransformMatrix / Rotation / Orientation;
// ElementByteOrderMSB / BinaryDataByteOrderMSB; BinaryData = True; CompressedData (zlib or
// gzip stream) with optional CompressedDataSize; HeaderSize (bytes skipped in each data file,
// -1 = the data are its last bytes, uncompressed only); Modality (MET_MOD_CT -> "CT"). The
// data file may be LOCAL, one file, "LIST [axes]" followed by one file name per line, or a
// pattern "slice%03d.raw first last step [axes]". Other keys (CenterOfRotation,
// AnatomicalOrientation, ElementMin, ...) are ignored; AnatomicalOrientation is informational
// in MetaIO and never overrides TransformMatrix.
//
// TransformMatrix interpretation (the one ITK's MetaImageIO writes and reads): the 9 values
// are 3 consecutive triples, triple a being the unit physical direction of index axis a — the
// columns of isoview's direction matrix, i.e. the matrix listed column after column (equal to
// glm's column-major storage). physical = Offset + sum_a TransformMatrix[a] * ElementSpacing[a]
// * index[a], in LPS millimetres (ITK's convention for MetaImage). Columns that are not unit
// length are normalized; zero, non-finite or (nearly) parallel columns are an error.
//
// Contract: as for readNrrd (see nrrd_reader.h): parseMetaImageHeader is pure and throws only
// InvalidInputError; readMetaImage checks sizes and memory before allocating, reads raw data
// in full (trailing bytes ignored with a warning) and compressed data to exactly the described
// size (the stream to its own end: a CompressedDataSize that disagrees with it is a warning,
// since writers have stated sizes smaller than the stream), reports progress about every MiB
// and throws CancelledError when asked to stop, IoError for unreadable, missing, truncated or
// corrupt data. metadata.sourceFormat = "MetaImage".
//
// Example:
//   Volume head = io::readMetaImage("HeadMRVolume.mhd");  // 48x62x42 uint8, spacing 4 mm
#pragma once

#include "io/load_monitor.h"
#include "volume/volume.h"

#include <glm/glm.hpp>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace isoview::io {

struct MetaImageHeader {
    glm::uvec3 dims{0, 0, 0};
    ScalarType type = ScalarType::UInt8;
    bool bigEndian = false;                          // ElementByteOrderMSB / BinaryDataByteOrderMSB
    VolumeGeometry geometry;                         // LPS millimetres
    bool compressed = false;                         // CompressedData
    std::optional<std::uint64_t> compressedDataSize; // bytes of each compressed data file
    std::int64_t headerSize = 0; // HeaderSize: bytes skipped; -1 = data at the end
    bool local = false;          // ElementDataFile = LOCAL: data follow the header
    // ElementDataFile names, in order (one, a LIST, or an expanded pattern); relative names are
    // relative to the header's folder. Empty when local.
    std::vector<std::string> dataFiles;
    std::size_t dataFileAxes = 3; // how many of the fastest axes each data file holds
    std::size_t headerBytes = 0;  // LOCAL: where the data start (past the ElementDataFile line)
    std::string modality;         // "CT", "MR", ... from Modality = MET_MOD_CT; else empty
    std::vector<std::string> warnings;
};

// Parses a MetaImage header at the start of text (which may continue with LOCAL data).
MetaImageHeader parseMetaImageHeader(std::string_view text);

// Reads a MetaImage volume (.mhd or .mha).
Volume readMetaImage(const std::filesystem::path& path, LoadMonitor* monitor = nullptr);

} // namespace isoview::io
