// Recognising DICOM from a file's first bytes: a Part 10 file ("DICM" after the 128-byte
// preamble), or a bare dataset (no file meta information) whose first element looks like one,
// in implicit or explicit VR little endian or explicit VR big endian.
//
// Contract: sniff() only looks at the bytes it is given and never throws; a match means
// "worth handing to DCMTK", not "valid DICOM".
#pragma once

#include "core/error.h"

#include <dcmtk/config/osconfig.h>
#include <dcmtk/dcmdata/dcxfer.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

namespace isoview::io::dicom {

// A file whose first bytes do not start a DICOM object. Scanning counts these silently.
class NotDicomError : public IoError {
public:
    using IoError::IoError;
};

// A DICOM file (Part 10 marker, or a start DCMTK recognised) that DCMTK then failed on: the
// message says where it stopped and why. Scanning reports these apart from non-DICOM files.
class DamagedDicomError : public IoError {
public:
    using IoError::IoError;
};

// How many leading bytes sniff() needs at most.
constexpr std::size_t kSniffBytes = 512;

struct Sniff {
    bool partTen = false;       // "DICM" after a preamble: DCMTK reads the meta header
    std::size_t strayBytes = 0; // bytes before a bare dataset
    E_TransferSyntax xfer = EXS_Unknown;
};

// How to read data that starts with `head` (of a file totalSize bytes long), or nullopt when
// it does not look like DICOM.
std::optional<Sniff> sniff(std::span<const std::uint8_t> head, std::uint64_t totalSize);

} // namespace isoview::io::dicom
