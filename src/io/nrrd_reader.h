// Reads NRRD volumes (teem's "nearly raw raster data"): attached headers (.nrrd, the voxels
// follow the header's blank line) and detached headers (.nhdr, "data file:" names one file, a
// LIST of files, or a "name%03d.raw first last step [axes]" pattern).
//
// Supported: magics NRRD0001..NRRD0005; type signed char / uchar / short / ushort / int /
// uint / float / double and their synonyms (int8, uint8_t, unsigned short int, ...); dimension 3,
// or 4 with a leading axis of size 1; encodings raw and gzip (zlib, streamed); endian;
// byte skip (-1 = the data are the last bytes of a raw file; with gzip, bytes of the
// decompressed data), line skip (before decompression); space, space dimension 3, space
// directions, space origin, spacings (used only without space directions; a negative spacing
// flips its axis). Other standard fields (kinds, units, labels, ...) are accepted and
// ignored; unknown fields are ignored with a warning. Not supported, each with a clear error:
// 64-bit integers, block, ascii/text/hex/bzip2 encodings, 2-D or other 4-D data.
//
// Geometry: spacing[a] = |space direction a|, direction column a = space direction a /
// spacing[a]; the result is in LPS millimetres ("right-anterior-superior" negates x and y,
// "left-anterior-superior" negates y; scanner-xyz and 3D-*-handed are kept as written, with a
// warning). Key/value pairs isoview_rescale_slope:= and isoview_rescale_intercept:= (written
// by writeNrrd) set the value rescale; every key/value pair is kept in NrrdHeader::keyValues.
//
// Contract:
// - parseNrrdHeader is pure (no I/O) and throws InvalidInputError on anything malformed or
//   unsupported, with the field and the expected and actual values in the message. It reads
//   the header up to the first empty line (or the end of the text) and never throws anything
//   else for any input, so it can be fuzzed directly.
// - readNrrd validates everything before allocating the voxels: the byte count must not
//   overflow and must fit in memory (InvalidInputError); raw data must be present in full
//   (IoError with expected and actual byte counts; extra trailing bytes are ignored with a
//   warning in the volume's metadata); gzip data must decompress to exactly the described
//   size (IoError when truncated, corrupt or too long). Memory: the voxels plus ~1.3 MiB.
//   Progress about every MiB through `monitor`; CancelledError when it asks to stop.
//   IoError for files that cannot be opened or read (named in the message).
// - The returned Volume owns host-order voxels; metadata.sourceFormat = "NRRD",
//   seriesDescription = the "content" field, warnings = the reader's notes.
//
// Example:
//   Volume brain = io::readNrrd("brain1_image.nrrd");     // 256x256x25 int16, LPS geometry
//   io::NrrdHeader header = io::parseNrrdHeader(text);     // header fields only, no I/O
#pragma once

#include "io/load_monitor.h"
#include "volume/volume.h"

#include <glm/glm.hpp>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace isoview::io {

// readNrrd reads at most this much of a file for its header.
inline constexpr std::size_t kMaxNrrdHeaderBytes = std::size_t(4) << 20;

enum class NrrdEncoding { Raw, Gzip };

struct NrrdHeader {
    int version = 0; // the N of the "NRRD000N" magic (1 for NRRD00.01)
    ScalarType type = ScalarType::UInt8;
    std::vector<std::uint64_t> sizes; // every axis as written in "sizes:"
    glm::uvec3 dims{0, 0, 0};         // the three spatial axes (the last three sizes)
    NrrdEncoding encoding = NrrdEncoding::Raw;
    bool bigEndian = false;  // byte order of multi-byte data
    std::string space;       // "space:" in lower case; empty when absent
    VolumeGeometry geometry; // LPS millimetres
    ValueRescale rescale;
    std::string content;
    std::int64_t byteSkip = 0; // -1: the data are the last bytes of the (raw) file
    std::uint64_t lineSkip = 0;
    // Detached data, in order: one file, or one per slab of dataFileAxes axes. Relative names
    // are relative to the header's folder. Empty when the data follow the header.
    std::vector<std::string> dataFiles;
    std::size_t dataFileAxes = 0;   // how many of the fastest axes each data file holds
    std::size_t headerBytes = 0;    // where attached data start: just past the empty line
    bool endsWithEmptyLine = false; // false when the text ended first (a detached header)
    std::vector<std::string> warnings;
    // The "key:=value" pairs, as written (escapes such as "\\n" are kept, not decoded). 3D
    // Slicer's .seg.nrrd keeps its segments' names, label values and colours here.
    std::map<std::string, std::string> keyValues;
};

// Parses the header at the start of headerText (which may continue with the data).
NrrdHeader parseNrrdHeader(std::string_view headerText);

// Reads a NRRD volume (.nrrd or .nhdr).
Volume readNrrd(const std::filesystem::path& path, LoadMonitor* monitor = nullptr);

} // namespace isoview::io
