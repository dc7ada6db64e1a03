// DCMTK reads a sequence inside an item inside a sequence by recursion, a few stack frames per
// level, with no limit: a 250 KB file of 7,000 nested sequences overflowed the stack (SIGSEGV)
// in every program that scanned it. Before DCMTK sees a file, a walk over its element headers
// (values skipped, never read) counts the sequence levels and refuses the file past
// kMaxSequenceDepth. Real objects nest a handful (enhanced multi-frame: 3, RT structures: 4).
// The same walk refuses the one value known to break DCMTK's reading: a DICOMDIR record type
// with several values (DCMTK throws std::out_of_range out of its read, and leaks).
//
// Contract: reads only element headers (and DirectoryRecordType's value), each at most once
// (linear in the file's size), and
// stops quietly where it cannot follow (deflated data, encapsulated pixel data, a malformed or
// truncated header): DCMTK then reports what is wrong. Throws DamagedDicomError past the limit,
// IoError when the file cannot be read.
#pragma once

#include "io/dicom/dicom_sniffing.h"

#include <cstdint>
#include <filesystem>
#include <string>

namespace isoview::io::dicom {

inline constexpr int kMaxSequenceDepth = 64;

// `how`: sniff()'s answer for the file; `name`: the quoted path for messages.
void requireShallowSequences(const std::filesystem::path& path, const Sniff& how,
                             std::uint64_t size, const std::string& name);

} // namespace isoview::io::dicom
