// Reads the tables that name a label map's values (see volume/label_table.h). The format is
// told from the content, never from the file name:
//
// - AFNI / nii2mesh semicolon text, "number;abbrev;name;group;subgroup" (two to five fields;
//   group and subgroup are ignored). A field may be in double quotes, and spaces around and
//   inside the quotes are dropped. The entry's name is the full name, or the abbreviation when
//   the name is empty or missing ("1;pu" names label 1 "pu"). No colours: the palette's.
// - 3D Slicer colour tables (.ctbl, .txt): "id name r g b a", components 0..255, a = opacity.
// - FreeSurfer LUTs (FreeSurferColorLUT.txt): the same columns, but the fourth number is a
//   transparency, 0 = opaque (FreeSurfer's own reader stores alpha = 255 - it), and is 0 in
//   nearly every table. Told apart by the comments: Slicer's "# Color table file" makes it
//   Slicer's, one naming FreeSurfer or "#No. Label Name" FreeSurfer's; without either, a
//   fourth column of zeros on every line is FreeSurfer's (a Slicer table so would draw
//   nothing), anything else Slicer's.
//   In both colour-table formats, tokens between the id and the four numbers are the name,
//   joined with single spaces.
// - ITK-SNAP label descriptions: "IDX R G B A VIS MSH "LABEL"", R G B 0..255, A 0..1, VIS and
//   MSH 0 or 1 (the entry is visible when both are 1), the name in double quotes.
// Lines starting with '#' and blank lines are skipped; \n or \r\n endings; a UTF-8 byte-order
// mark is skipped. Label 0 (background) is kept when the file names it.
//
// Contract:
// - parseLabelTable is pure and throws InvalidInputError only, naming the line ("line 12
//   '7 Left 300 0 0 255': the colour component 300 is outside 0..255"): text that is not
//   text (control bytes), a line that is none of the formats or not the format of the first
//   line, an id that is negative, not whole or over 65535, a repeated id (both lines named), a
//   colour component out of range, a table that names no label.
// - readLabelTable reads at most kMaxLabelTableBytes through InputFile (a FIFO or device is
//   refused before it can block) and throws IoError when the file cannot be opened or read,
//   InvalidInputError when it is larger or its content is refused; every message starts
//   "cannot read label table '<path>': ". Memory: the file's bytes plus the table.
// - labelTableFromSegNrrdKeys reads 3D Slicer's segment fields (SegmentN_LabelValue, _Name,
//   _ID, _Color as three numbers 0..1, _Layer) from a NRRD header's key/value pairs
//   (io::NrrdHeader::keyValues): nullopt when no SegmentN_LabelValue is present (not a
//   segmentation). Every segment when no two share a label value; otherwise those of layer 0
//   only, the 3-D volume isoview shows. The name is _Name, else _ID. InvalidInputError naming
//   the key for a value that does not parse or is out of range, or a label value repeated in
//   layer 0.
// - readSegNrrdLabelTable reads only the header of a .nrrd / .seg.nrrd, as readNrrd does (and
//   throws as readNrrd does for a header it refuses), and returns labelTableFromSegNrrdKeys of
//   its key/value pairs. Memory: the header (4 MiB at most).
// - Thread: any.
//
// Example:
//   LabelTable table = io::readLabelTable("D99_v2.0_labels_semicolon.txt"); // 368 labels
//   table.nameOf(13);  // "ventral anterior nucleus, parvicellular division"
#pragma once

#include "volume/label_table.h"

#include <cstddef>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace isoview::io {

// Label tables are a few hundred kilobytes at most (FreeSurferColorLUT.txt: 60 KiB); a larger
// file is the wrong file.
inline constexpr std::size_t kMaxLabelTableBytes = std::size_t(16) << 20;

LabelTable parseLabelTable(std::string_view text);

LabelTable readLabelTable(const std::filesystem::path& path);

std::optional<LabelTable>
labelTableFromSegNrrdKeys(const std::map<std::string, std::string>& keyValues);

std::optional<LabelTable> readSegNrrdLabelTable(const std::filesystem::path& path);

} // namespace isoview::io
